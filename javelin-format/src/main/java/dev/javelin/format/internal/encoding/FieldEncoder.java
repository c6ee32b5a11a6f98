package dev.javelin.format.internal.encoding;

import dev.javelin.format.WriteOptions;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import java.io.IOException;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * Encodes the values of one top-level field into one or more columns of a file. The writer
 * calls {@link #append} once per batch and {@link #finish} once at the end. An encoder may buffer
 * values across batches to fill pages, but must write a page to the sink once it holds about
 * {@link WriteOptions#maxPageBytes()} bytes, so memory stays bounded.
 */
public interface FieldEncoder {
  /** The number of columns this field occupies, fixed when the encoder is made. */
  int numColumns();

  /**
   * Adds a batch of values. The vector is owned by the caller and only valid during this call:
   * copy what is kept.
   */
  void append(FieldVector vector, BufferSink sink) throws IOException;

  /**
   * Whether this encoder supports {@link #encode}, {@link #encodeRest} and {@link #writePending},
   * which split {@link #append} and {@link #finish} into an encoding step that may run on another
   * thread (concurrently with other fields' encoders) and a writing step that stays in order.
   */
  default boolean canEncodeApart() {
    return false;
  }

  /**
   * As {@link #append}, but full pages are kept in memory until {@link #writePending}. Touches
   * only this encoder and the (read-only) vector.
   */
  default void encode(FieldVector vector) {
    throw new UnsupportedOperationException("This encoder writes as it encodes");
  }

  /** Encodes whatever is buffered into pages that wait for {@link #writePending}. */
  default void encodeRest() {
    throw new UnsupportedOperationException("This encoder writes as it encodes");
  }

  /** Writes the pages {@link #encode} and {@link #encodeRest} kept, in the order they were made. */
  default void writePending(BufferSink sink) throws IOException {
    throw new UnsupportedOperationException("This encoder writes as it encodes");
  }

  /**
   * Writes whatever is buffered and returns the metadata of each column, in column order; each
   * page's {@code buffer_offsets} are absolute offsets returned by the sink.
   */
  List<ColumnMetadata> finish(BufferSink sink) throws IOException;
}
