package dev.javelin.core;

import dev.javelin.testing.ArrowData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Rows (id, v, s) of the merge insert tests, made batch by batch as they are read (never all in
 * memory): ids from.., v = offset + id, s = prefix + id padded with dots to a width; a callback
 * runs when the stream ends.
 */
final class MergeInsertRows extends ArrowReader {
  static final Schema SCHEMA = new Schema(List.of(ArrowData.field("id", new ArrowType.Int(64, true)),
      ArrowData.field("v", new ArrowType.Int(64, true)), ArrowData.field("s", ArrowType.Utf8.INSTANCE)));

  private final long from;
  private final long count;
  private final int batchRows;
  private final long offset;
  private final String prefix;
  private final int width;
  private final Runnable atEnd;
  private long next;
  /** The Arrow bytes of the batches made so far. */
  long bytes;

  private MergeInsertRows(BufferAllocator allocator, long from, long count, int batchRows, long offset, String prefix,
      int width, Runnable atEnd) {
    super(allocator);
    this.from = from;
    this.count = count;
    this.batchRows = batchRows;
    this.offset = offset;
    this.prefix = prefix;
    this.width = width;
    this.atEnd = atEnd;
  }

  /** Source rows: v = 1000 + id, s = "s<id>" padded to {@code width}. */
  static MergeInsertRows source(BufferAllocator allocator, long from, long count, int batchRows, int width,
      Runnable atEnd) {
    return new MergeInsertRows(allocator, from, count, batchRows, 1000, "s", width, atEnd);
  }

  /** Target rows as MergeInsertTest's datasets have them: v = id, s = "t<id>". */
  static MergeInsertRows target(BufferAllocator allocator, long count, int batchRows) {
    return new MergeInsertRows(allocator, 0, count, batchRows, 0, "t", 0, () -> { });
  }

  /** A source row's s: "s<id>" padded with dots to {@code width}. */
  static String s(long id, int width) {
    return pad("s" + id, width);
  }

  private static String pad(String x, int width) {
    StringBuilder b = new StringBuilder(x);
    while (b.length() < width) {
      b.append('.');
    }
    return b.toString();
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    prepareLoadNextBatch();
    if (next >= count) {
      atEnd.run();
      return false;
    }
    int n = (int) Math.min(batchRows, count - next);
    VectorSchemaRoot root = getVectorSchemaRoot();
    BigIntVector id = (BigIntVector) root.getVector("id");
    BigIntVector v = (BigIntVector) root.getVector("v");
    VarCharVector str = (VarCharVector) root.getVector("s");
    root.allocateNew();
    for (int i = 0; i < n; i++) {
      long key = from + next + i;
      id.setSafe(i, key);
      v.setSafe(i, offset + key);
      str.setSafe(i, pad(prefix + key, width).getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(n);
    next += n;
    bytes += id.getBufferSize() + v.getBufferSize() + str.getBufferSize();
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
    return SCHEMA;
  }
}
