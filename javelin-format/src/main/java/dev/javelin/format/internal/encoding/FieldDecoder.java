package dev.javelin.format.internal.encoding;

import dev.javelin.format.schema.LanceField;
import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * Decodes one top-level field of a file into Arrow vectors. Reads only the pages (2.0) or
 * chunks (2.1) that hold the requested rows. A decoder may keep a small cache (the last page it
 * decoded) and so is not safe for concurrent use.
 */
public interface FieldDecoder extends AutoCloseable {
  LanceField field();

  /**
   * Decodes the given rows, in order, into a new vector of {@code field().toArrow()}'s type
   * with {@code rows.numRows()} values. The caller owns and closes the vector.
   *
   * @throws dev.javelin.format.exceptions.LanceFormatException if the pages are corrupt; the message names
   *     the column and page
   */
  FieldVector read(RowRanges rows, BufferAllocator allocator) throws IOException;

  /**
   * Adds to {@code plan} the byte ranges that {@link #read} of these rows will read, so that a
   * take from a file that is not memory-mapped can fetch each distinct range once
   * ({@link ColumnSource#fetch}) before decoding. May read page metadata (chunk tables, indexes)
   * to find them. A decoder that plans nothing reads as it goes; planning less than it reads
   * costs only extra reads, never wrong values.
   */
  default void plan(RowRanges rows, ReadPlan plan) throws IOException {}

  /**
   * Adds to {@code plan} the page metadata {@link #plan} of these rows will read (chunk tables,
   * dictionaries, repetition index entries), so that a take fetches all its columns' metadata in
   * one coalesced round before planning their data. Reads nothing.
   */
  default void planMetadata(RowRanges rows, ReadPlan plan) throws IOException {}

  /**
   * Whether every page of this {@code fixed_size_list<float32, dim>} field stores each row as
   * {@code dim} plain little-endian floats without nulls, so that {@link #readFloats} can copy
   * them (false by default).
   */
  default boolean plainFloats(int dim) {
    return false;
  }

  /**
   * Copies the floats of rows {@code rows[from..to)} (sorted, distinct, in range) into
   * {@code out}, row {@code rows[from + i]} at {@code out[i * dim]}; only when
   * {@link #plainFloats} said yes.
   */
  default void readFloats(long[] rows, int from, int to, int dim, float[] out) throws IOException {
    throw new UnsupportedOperationException("Field " + field().name() + " is not read as plain floats");
  }

  /** Drops any cached page. */
  @Override
  default void close() {}
}
