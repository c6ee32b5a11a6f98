package dev.javelin.index.internal.scalar;

import dev.javelin.io.ObjectStore;
import java.io.IOException;
import org.apache.arrow.vector.FieldVector;

/** Builds the one file of a zoned index (zone map, bloom filter) from a column's values in row order. */
public interface ZonedIndexWriter extends AutoCloseable {
  /** Adds the first {@code n} values of {@code values}, at row addresses {@code addresses}. */
  void add(FieldVector values, long[] addresses, int n);

  /** The rows added. */
  long rows();

  /**
   * Writes the index file into {@code directory} of {@code store}.
   *
   * @return the file's size in bytes
   */
  long write(ObjectStore store, String directory) throws IOException;

  /** The index file's name. */
  String fileName();

  @Override
  void close();
}
