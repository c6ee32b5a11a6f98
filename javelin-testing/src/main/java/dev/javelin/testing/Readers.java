package dev.javelin.testing;

import java.io.IOException;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * ArrowReaders over batches a test already holds, for the APIs that take a stream of batches (a
 * dataset create or append, lance-core's writer). The reader copies each batch into its own root
 * and does not own or close the batches.
 */
public final class Readers {
  private Readers() {}

  /** A reader of {@code batches}, in order, as batches of {@code schema}. */
  public static ArrowReader readerOf(BufferAllocator allocator, Schema schema, List<VectorSchemaRoot> batches) {
    return new ArrowReader(allocator) {
      private int next;

      @Override
      public boolean loadNextBatch() throws IOException {
        prepareLoadNextBatch();
        if (next >= batches.size()) {
          return false;
        }
        try (ArrowRecordBatch rb = new VectorUnloader(batches.get(next++)).getRecordBatch()) {
          loadRecordBatch(rb);
        }
        return true;
      }

      @Override
      public long bytesRead() {
        return 0;
      }

      @Override
      protected void closeReadSource() {}

      @Override
      protected Schema readSchema() {
        return schema;
      }
    };
  }

  /** A reader of the one batch {@code batch}, with the batch's own schema. */
  public static ArrowReader readerOf(BufferAllocator allocator, VectorSchemaRoot batch) {
    return readerOf(allocator, batch.getSchema(), List.of(batch));
  }
}
