package dev.javelin.format;

import dev.javelin.format.encoding.FieldDecoder;
import dev.javelin.format.encoding.RowRanges;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** Streams row range batches of a file through the {@link ArrowReader} interface. */
final class BatchReader extends ArrowReader {
  private final List<FieldDecoder> decoders;
  private final long end;
  private final int batchSize;
  private final Schema schema;
  private long next;

  private final String location;

  BatchReader(String location, BufferAllocator allocator, List<FieldDecoder> decoders, long start, long end,
      int batchSize) {
    super(allocator);
    this.location = location;
    this.decoders = decoders;
    this.next = start;
    this.end = end;
    this.batchSize = batchSize;
    List<Field> fields = new ArrayList<>();
    for (FieldDecoder d : decoders) {
      fields.add(d.field().toArrow());
    }
    this.schema = new Schema(fields);
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    ensureInitialized();
    if (next >= end) {
      return false;
    }
    long stop = Math.min(end, next + batchSize);
    RowRanges rows = RowRanges.of(next, stop);
    List<FieldVector> vectors = new ArrayList<>();
    try {
      for (FieldDecoder d : decoders) {
        vectors.add(LanceFileReader.decode(location, d, rows, allocator));
      }
      // Hand the buffers to the reader's own root without copying them: a transfer moves them
      // (an unload and load round trip would cost more per batch).
      VectorSchemaRoot root = getVectorSchemaRoot();
      for (int i = 0; i < vectors.size(); i++) {
        vectors.get(i).makeTransferPair(root.getVector(i)).transfer();
      }
      root.setRowCount((int) (stop - next));
    } finally {
      vectors.forEach(FieldVector::close);
    }
    next = stop;
    return true;
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() {
    decoders.forEach(FieldDecoder::close);
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }
}
