package dev.javelin.format.internal.v20;

import dev.javelin.format.WriteOptions;
import dev.javelin.format.internal.encoding.BufferSink;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.format.schema.LanceField;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * Encodes a struct as a header column, then each child's columns. As in Lance's 2.0 writer the
 * header column gets one {@code SimpleStruct} page without buffers covering every row, written at
 * the end. 2.0 has no place for struct validity: a null struct reads back as a struct whose
 * children hold whatever the writer's child vectors held at that row.
 */
final class StructEncoder extends NodeEncoder {
  private final ColumnWriter header = new ColumnWriter();
  private final List<NodeEncoder> children = new ArrayList<>();
  private long rows;

  StructEncoder(LanceField field, WriteOptions options) {
    for (LanceField c : field.children()) {
      children.add(NodeEncoder.create(c, options));
    }
  }

  @Override
  void append(FieldVector vector, int start, int end, BufferSink sink) throws IOException {
    StructVector struct = (StructVector) vector;
    for (int i = 0; i < children.size(); i++) {
      children.get(i).append((FieldVector) struct.getChildByOrdinal(i), start, end, sink);
    }
    rows += end - start;
  }

  @Override
  void flush(BufferSink sink) throws IOException {
    for (NodeEncoder c : children) {
      c.flush(sink);
    }
  }

  @Override
  void finish(BufferSink sink, List<ColumnMetadata> out) throws IOException {
    header.addPage(sink, List.of(), rows, Proto20.simpleStruct());
    out.add(header.build());
    for (NodeEncoder c : children) {
      c.finish(sink, out);
    }
  }
}
