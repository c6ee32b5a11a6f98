package dev.javelin.format.internal.v21;

import dev.javelin.format.internal.encoding.ColumnSource;
import dev.javelin.format.internal.encoding.FieldDecoder;
import dev.javelin.format.internal.encoding.ReadPlan;
import dev.javelin.format.internal.encoding.RowRanges;
import dev.javelin.format.schema.LanceField;
import java.io.IOException;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/** Decodes one top-level field from its leaf columns. */
final class V21FieldDecoder implements FieldDecoder {
  private final LanceField field;
  private final String location;
  private final List<LeafPath> paths;
  private final ColumnReader[] readers;

  V21FieldDecoder(LanceField field, ColumnSource source) {
    this.field = field;
    this.location = source.location();
    this.paths = LeafPath.leaves(field);
    this.readers = new ColumnReader[paths.size()];
    for (int i = 0; i < readers.length; i++) {
      readers[i] = new ColumnReader(paths.get(i), source, source.claim());
    }
  }

  @Override
  public LanceField field() {
    return field;
  }

  @Override
  public FieldVector read(RowRanges rows, BufferAllocator allocator) throws IOException {
    LeafEntries[] data = new LeafEntries[readers.length];
    for (int i = 0; i < readers.length; i++) {
      data[i] = readers[i].read(rows);
    }
    return new VectorAssembler(location, paths, data, allocator).build(field, rows.numRows());
  }

  @Override
  public boolean plainFloats(int dim) {
    return readers.length == 1 && readers[0].plainFloats(dim);
  }

  @Override
  public void readFloats(long[] rows, int from, int to, int dim, float[] out) throws IOException {
    readers[0].readFloats(rows, from, to, dim, out);
  }

  @Override
  public void plan(RowRanges rows, ReadPlan plan) throws IOException {
    for (ColumnReader r : readers) {
      r.plan(rows, plan, false);
    }
  }

  @Override
  public void planMetadata(RowRanges rows, ReadPlan plan) throws IOException {
    for (ColumnReader r : readers) {
      r.plan(rows, plan, true);
    }
  }

  @Override
  public void close() {
    for (ColumnReader r : readers) {
      r.close();
    }
  }
}
