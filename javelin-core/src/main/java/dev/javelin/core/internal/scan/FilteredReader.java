package dev.javelin.core.internal.scan;

import dev.javelin.core.expr.BoundExpression;
import dev.javelin.format.Gather;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Applies a filter, then an offset and a limit (in scan order), to the batches of another reader,
 * and returns only the {@code outputs} columns: the rest were read for the filter alone.
 * Selected rows are gathered into this reader's own root; a batch whose rows all pass is shared
 * without copying. Stops reading the inner reader once the limit is reached. Batches with no
 * selected rows are skipped.
 */
public final class FilteredReader extends ArrowReader {
  private final ArrowReader inner;
  private final BoundExpression filter;
  private final int[] outputs;
  private long toSkip;
  private long remaining;
  private final Schema schema;

  /**
   * @param filter the predicate, or null for none
   * @param limit most rows to return, or negative for no limit
   */
  public FilteredReader(ArrowReader inner, BoundExpression filter, int[] outputs, long offset, long limit,
      BufferAllocator allocator) throws IOException {
    super(allocator);
    this.inner = inner;
    this.filter = filter;
    this.outputs = outputs;
    this.toSkip = offset;
    this.remaining = limit < 0 ? Long.MAX_VALUE : limit;
    List<Field> all = inner.getVectorSchemaRoot().getSchema().getFields();
    List<Field> kept = new ArrayList<>();
    for (int c : outputs) {
      kept.add(all.get(c));
    }
    this.schema = new Schema(kept);
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    ensureInitialized();
    while (remaining > 0 && inner.loadNextBatch()) {
      VectorSchemaRoot in = inner.getVectorSchemaRoot();
      int rows = in.getRowCount();
      int[] selected = filter == null ? null : filter.select(in);
      if (selected != null && selected.length == rows) {
        selected = null; // every row passed (indexed scans read only candidates): nothing to gather
      }
      int count = selected == null ? rows : selected.length;
      // Offset and limit count rows that passed the filter, in scan order.
      int from = (int) Math.min(toSkip, count);
      toSkip -= from;
      int to = (int) (from + Math.min(count - from, remaining));
      if (to <= from) {
        continue;
      }
      remaining -= to - from;
      if (selected == null && from == 0 && to == rows) {
        publish(in, outputs, rows, false);
        return true;
      }
      int[] idx = new int[to - from];
      for (int i = 0; i < idx.length; i++) {
        idx[i] = selected == null ? from + i : selected[from + i];
      }
      publish(in, outputs, idx);
      return true;
    }
    return false;
  }

  /** Counts the rows this reader would return, without copying any. */
  public long count() throws IOException {
    long total = 0;
    while (remaining > 0 && inner.loadNextBatch()) {
      VectorSchemaRoot in = inner.getVectorSchemaRoot();
      int count = filter == null ? in.getRowCount() : filter.select(in).length;
      int from = (int) Math.min(toSkip, count);
      toSkip -= from;
      long taken = Math.min(count - from, remaining);
      remaining -= taken;
      total += taken;
    }
    return total;
  }

  private void publish(VectorSchemaRoot in, int[] columns, int[] idx) throws IOException {
    List<FieldVector> gathered = new ArrayList<>();
    try {
      for (int c : columns) {
        gathered.add(Gather.gather(in.getVector(c), idx, allocator));
      }
      publish(new VectorSchemaRoot(fieldsOf(gathered), gathered, idx.length), null, idx.length, true);
    } finally {
      gathered.forEach(FieldVector::close);
    }
  }

  // Unloads columns of a root (all of an owned one) into this reader's root, sharing the buffers.
  private void publish(VectorSchemaRoot from, int[] columns, int rows, boolean owned) {
    VectorSchemaRoot view = from;
    if (!owned) {
      List<FieldVector> vectors = new ArrayList<>();
      for (int c : columns) {
        vectors.add(from.getVector(c));
      }
      view = new VectorSchemaRoot(fieldsOf(vectors), vectors, rows);
    }
    try (ArrowRecordBatch records = new VectorUnloader(view).getRecordBatch()) {
      loadRecordBatch(records);
    }
  }

  private static List<Field> fieldsOf(List<FieldVector> vectors) {
    List<Field> out = new ArrayList<>();
    for (FieldVector v : vectors) {
      out.add(v.getField());
    }
    return out;
  }

  @Override
  public long bytesRead() {
    return inner.bytesRead();
  }

  @Override
  protected void closeReadSource() throws IOException {
    inner.close();
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }
}
