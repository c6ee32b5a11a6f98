package dev.javelin.cli;

import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An input read ahead to its first non-empty batch, so that a command can tell an input without
 * rows (a header-only CSV) before it commits anything; then the same batches, in order.
 */
final class NonEmptyReader extends ArrowReader {
  private final ArrowReader in;
  private boolean peeked;
  private boolean first;
  private boolean hasRows;

  NonEmptyReader(ArrowReader in, BufferAllocator allocator) {
    super(allocator);
    this.in = in;
  }

  /** Whether the input has at least one row; reads up to its first non-empty batch. */
  boolean hasRows() throws IOException {
    peek();
    return hasRows;
  }

  private void peek() throws IOException {
    if (peeked) {
      return;
    }
    peeked = true;
    while (in.loadNextBatch()) {
      if (in.getVectorSchemaRoot().getRowCount() > 0) {
        hasRows = true;
        first = true;
        return;
      }
    }
  }

  @Override
  public VectorSchemaRoot getVectorSchemaRoot() throws IOException {
    return in.getVectorSchemaRoot();
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    peek();
    if (first) {
      first = false;
      return true;
    }
    return hasRows && in.loadNextBatch();
  }

  @Override
  public long bytesRead() {
    return in.bytesRead();
  }

  @Override
  protected void closeReadSource() throws IOException {
    // The input is closed by whoever opened it.
  }

  @Override
  protected Schema readSchema() throws IOException {
    return in.getVectorSchemaRoot().getSchema();
  }
}
