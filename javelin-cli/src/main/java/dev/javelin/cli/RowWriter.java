package dev.javelin.cli;

import java.io.IOException;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes rows in one output format of {@code file read}: {@link #start} once, {@link #write} per
 * batch (the writer does not keep or close the batch), {@link #finish} at the end, then
 * {@link #close} always.
 */
interface RowWriter extends AutoCloseable {
  void start(Schema schema) throws IOException;

  void write(VectorSchemaRoot batch) throws IOException;

  /** Ends the output; returns the number of rows written. */
  long finish() throws IOException;

  /** Releases what the writer holds; after a failure, leaves the output as it is. */
  @Override
  default void close() throws IOException {}
}
