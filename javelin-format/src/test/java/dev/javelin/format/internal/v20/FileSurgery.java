package dev.javelin.format.internal.v20;

import com.google.protobuf.Any;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.internal.container.ContainerWriter;
import dev.javelin.format.internal.container.FileMetadata;
import dev.javelin.format.proto.Encodings20.ArrayEncoding;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.format.proto.File2Protos.DirectEncoding;
import dev.javelin.format.proto.File2Protos.Encoding;
import dev.javelin.io.LocalInputFile;
import dev.javelin.io.LocalOutputFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/** Rewrites a Javelin-written 2.0 file with altered column metadata or data bytes, to test corruption handling. */
final class FileSurgery {
  private final Path source;
  private final List<ColumnMetadata> columns;
  private final byte[] data;
  private final byte[] descriptor;

  FileSurgery(Path source) throws IOException {
    this.source = source;
    byte[] all = Files.readAllBytes(source);
    try (LocalInputFile in = LocalInputFile.open(source)) {
      FileMetadata m = FileMetadata.read(in);
      this.columns = new ArrayList<>(m.columns());
      long[] gb0 = m.globalBuffer(0);
      this.data = Arrays.copyOf(all, (int) gb0[0]);
      this.descriptor = Arrays.copyOfRange(all, (int) gb0[0], (int) (gb0[0] + gb0[1]));
    }
  }

  List<ColumnMetadata> columns() {
    return columns;
  }

  static ArrayEncoding encoding(ColumnMetadata.Page page) throws IOException {
    return ArrayEncoding.parseFrom(Any.parseFrom(page.getEncoding().getDirect().getEncoding()).getValue());
  }

  static Encoding encode(ArrayEncoding e) {
    Any any = Any.newBuilder().setTypeUrl("/lance.encodings.ArrayEncoding").setValue(e.toByteString()).build();
    return Encoding.newBuilder().setDirect(DirectEncoding.newBuilder().setEncoding(any.toByteString())).build();
  }

  /** Replaces page {@code page} of column {@code column}. */
  FileSurgery page(int column, int page, UnaryOperator<ColumnMetadata.Page.Builder> change) {
    ColumnMetadata c = columns.get(column);
    ColumnMetadata.Builder b = c.toBuilder();
    b.setPages(page, change.apply(c.getPages(page).toBuilder()));
    columns.set(column, b.build());
    return this;
  }

  /** Replaces the encoding of a page. */
  FileSurgery encoding(int column, int page, UnaryOperator<ArrayEncoding.Builder> change) throws IOException {
    ArrayEncoding e = encoding(columns.get(column).getPages(page));
    return page(column, page, p -> p.setEncoding(encode(change.apply(e.toBuilder()).build())));
  }

  /** Changes the data bytes of buffer {@code buffer} of a page (a little-endian view). */
  FileSurgery data(int column, int page, int buffer, Consumer<ByteBuffer> change) {
    ColumnMetadata.Page p = columns.get(column).getPages(page);
    ByteBuffer view = ByteBuffer.wrap(data, (int) p.getBufferOffsets(buffer), (int) p.getBufferSizes(buffer))
        .slice().order(ByteOrder.LITTLE_ENDIAN);
    change.accept(view);
    return this;
  }

  void writeTo(Path out) throws IOException {
    ContainerWriter w = new ContainerWriter(new LocalOutputFile(out));
    w.write(ByteBuffer.wrap(data));
    w.finish(columns, descriptor, LanceFileVersion.V2_0);
  }

  @Override
  public String toString() {
    return "surgery on " + source;
  }
}
