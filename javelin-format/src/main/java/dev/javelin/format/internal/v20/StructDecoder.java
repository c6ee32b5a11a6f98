package dev.javelin.format.internal.v20;

import dev.javelin.format.internal.encoding.ColumnSource;
import dev.javelin.format.proto.Encodings20.ArrayEncoding;
import dev.javelin.format.schema.LanceField;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;

/**
 * Decodes a struct: a header column of {@code SimpleStruct} pages (no data; 2.0 stores no struct
 * validity, so every struct is valid), then each child's columns.
 */
final class StructDecoder extends NodeDecoder {
  private final ColumnPages header;
  private final List<NodeDecoder> children = new ArrayList<>();

  StructDecoder(LanceField field, ColumnSource source, long expectedValues) {
    this.header = new ColumnPages(source, source.claim());
    checkTotal(header, expectedValues);
    for (int p = 0; p < header.numPages(); p++) {
      if (header.encoding(p).getArrayEncodingCase() != ArrayEncoding.ArrayEncodingCase.STRUCT) {
        throw header.unexpected(p, "struct header", header.encoding(p), "SimpleStruct");
      }
    }
    for (LanceField c : field.children()) {
      children.add(NodeDecoder.create(c, source, expectedValues));
    }
  }

  @Override
  void read(Ranges rows, FieldVector target, BufferAllocator allocator) throws IOException {
    int n = valueCount(header, rows.total);
    StructVector struct = (StructVector) target;
    for (int i = 0; i < children.size(); i++) {
      children.get(i).read(rows, (FieldVector) struct.getChildByOrdinal(i), allocator);
    }
    ArrowBuf validity = zeroed(allocator, Bitmaps.bytesFor(n));
    try {
      Bitmaps.setRange(validity, 0, n);
      struct.loadFieldBuffers(new ArrowFieldNode(n, 0), List.of(validity));
    } finally {
      validity.close();
    }
  }

  @Override
  void close() {
    header.close();
    children.forEach(NodeDecoder::close);
  }
}
