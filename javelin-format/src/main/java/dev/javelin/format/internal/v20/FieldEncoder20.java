package dev.javelin.format.internal.v20;

import dev.javelin.format.internal.encoding.BufferSink;
import dev.javelin.format.internal.encoding.FieldEncoder;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/** The 2.0 encoder of one top-level field: the root of a tree of {@link NodeEncoder}s. */
final class FieldEncoder20 implements FieldEncoder {
  private final NodeEncoder root;
  private final int numColumns;

  FieldEncoder20(NodeEncoder root, int numColumns) {
    this.root = root;
    this.numColumns = numColumns;
  }

  @Override
  public int numColumns() {
    return numColumns;
  }

  @Override
  public void append(FieldVector vector, BufferSink sink) throws IOException {
    root.append(vector, 0, vector.getValueCount(), sink);
  }

  @Override
  public List<ColumnMetadata> finish(BufferSink sink) throws IOException {
    List<ColumnMetadata> out = new ArrayList<>();
    root.finish(sink, out);
    if (out.size() != numColumns) {
      throw new IllegalStateException("Encoder made " + out.size() + " columns, expected " + numColumns);
    }
    return out;
  }
}
