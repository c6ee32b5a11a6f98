package dev.javelin.format.internal.v20;

import dev.javelin.format.internal.encoding.ColumnSource;
import dev.javelin.format.internal.encoding.FieldDecoder;
import dev.javelin.format.internal.encoding.RowRanges;
import dev.javelin.format.schema.LanceField;
import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/** The 2.0 decoder of one top-level field: the root of a tree of {@link NodeDecoder}s. */
final class FieldDecoder20 implements FieldDecoder {
  private final LanceField field;
  private final NodeDecoder root;
  private final ColumnSource source;
  private final Field arrowField;

  FieldDecoder20(LanceField field, NodeDecoder root, ColumnSource source) {
    this.field = field;
    this.arrowField = field.toArrow();
    this.root = root;
    this.source = source;
  }

  @Override
  public LanceField field() {
    return field;
  }

  @Override
  public FieldVector read(RowRanges rows, BufferAllocator allocator) throws IOException {
    if (rows.last() > source.numRows()) {
      throw new IllegalArgumentException("Rows up to " + rows.last() + " requested from a file of "
          + source.numRows() + " rows: " + source.location());
    }
    FieldVector vector = arrowField.createVector(allocator);
    try {
      root.read(Ranges.of(rows), vector, allocator);
      return vector;
    } catch (IOException | RuntimeException e) {
      vector.close();
      throw e;
    }
  }

  @Override
  public void close() {
    root.close();
  }
}
