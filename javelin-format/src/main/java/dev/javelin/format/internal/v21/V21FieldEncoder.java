package dev.javelin.format.internal.v21;

import dev.javelin.format.WriteOptions;
import dev.javelin.format.internal.encoding.BufferSink;
import dev.javelin.format.internal.encoding.FieldEncoder;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/** Encodes one top-level field as one column per leaf. */
final class V21FieldEncoder implements FieldEncoder {
  private final List<LeafEncoder> leaves = new ArrayList<>();

  V21FieldEncoder(List<LeafPath> paths, WriteOptions options) {
    for (LeafPath p : paths) {
      boolean compress = options.compression() && !PageCompression.optedOut(p);
      leaves.add(new LeafEncoder(p, options.maxPageBytes(), compress, options.expectedRows(), options.version()));
    }
  }

  @Override
  public int numColumns() {
    return leaves.size();
  }

  @Override
  public void append(FieldVector vector, BufferSink sink) throws IOException {
    for (LeafEncoder l : leaves) {
      l.append(vector, sink);
    }
  }

  @Override
  public boolean canEncodeApart() {
    return true;
  }

  @Override
  public void encode(FieldVector vector) {
    for (LeafEncoder l : leaves) {
      l.encode(vector);
    }
  }

  @Override
  public void encodeRest() {
    for (LeafEncoder l : leaves) {
      l.encodeRest();
    }
  }

  @Override
  public void writePending(BufferSink sink) throws IOException {
    for (LeafEncoder l : leaves) {
      l.writePending(sink);
    }
  }

  @Override
  public List<ColumnMetadata> finish(BufferSink sink) throws IOException {
    List<ColumnMetadata> out = new ArrayList<>();
    for (LeafEncoder l : leaves) {
      out.add(l.finish(sink));
    }
    return out;
  }
}
