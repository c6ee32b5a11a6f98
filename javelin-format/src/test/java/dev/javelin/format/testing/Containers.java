package dev.javelin.format.testing;

import com.google.protobuf.Any;
import com.google.protobuf.Message;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.internal.container.ContainerWriter;
import dev.javelin.format.proto.Encodings20;
import dev.javelin.format.proto.Encodings21;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.format.proto.File2Protos.DirectEncoding;
import dev.javelin.format.proto.File2Protos.Encoding;
import dev.javelin.format.proto.FileProtos;
import dev.javelin.format.proto.FileProtos.FileDescriptor;
import dev.javelin.io.LocalOutputFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Hand-made Lance containers: the real footer, tables and file descriptor (through Javelin's
 * {@link ContainerWriter}), but column metadata chosen by the test. They exercise the container
 * checks without any page encoder, and can hold metadata no encoder would write.
 */
public final class Containers {
  public static final String ARRAY_ENCODING_URL = "/lance.encodings.ArrayEncoding";
  public static final String PAGE_LAYOUT_URL = "/lance.encodings21.PageLayout";
  public static final String COLUMN_ENCODING_URL = "/lance.encodings.ColumnEncoding";

  private Containers() {}

  /** A top-level field of the file's schema, in protobuf form. */
  public static FileProtos.Field field(int id, String name, String logicalType) {
    return field(id, -1, name, logicalType);
  }

  public static FileProtos.Field field(int id, int parentId, String name, String logicalType) {
    return FileProtos.Field.newBuilder().setId(id).setParentId(parentId).setName(name)
        .setLogicalType(logicalType).setNullable(true).build();
  }

  /** A schema {@code id: int32, name: string}, which needs two columns in both versions. */
  public static List<FileProtos.Field> twoColumnSchema() {
    return List.of(field(0, "id", "int32"), field(1, "name", "string"));
  }

  public static Encoding direct(Message message, String typeUrl) {
    Any any = Any.newBuilder().setTypeUrl(typeUrl).setValue(message.toByteString()).build();
    return Encoding.newBuilder().setDirect(DirectEncoding.newBuilder().setEncoding(any.toByteString())).build();
  }

  /**
   * Metadata for a column of one page of {@code rows} rows over one 8-byte buffer at
   * {@code bufferOffset}, whose page encoding is empty (an {@code ArrayEncoding} or
   * {@code PageLayout} with nothing set): valid protobuf, but nothing a decoder can decode.
   */
  public static ColumnMetadata emptyPageColumn(LanceFileVersion version, long rows, long bufferOffset) {
    Encoding page = version == LanceFileVersion.V2_0
        ? direct(Encodings20.ArrayEncoding.getDefaultInstance(), ARRAY_ENCODING_URL)
        : direct(Encodings21.PageLayout.getDefaultInstance(), PAGE_LAYOUT_URL);
    return ColumnMetadata.newBuilder()
        .setEncoding(direct(Encodings20.ColumnEncoding.getDefaultInstance(), COLUMN_ENCODING_URL))
        .addPages(ColumnMetadata.Page.newBuilder().addBufferOffsets(bufferOffset).addBufferSizes(8)
            .setLength(rows).setEncoding(page))
        .build();
  }

  /**
   * Writes a container of {@code rows} rows with the given schema and one {@link
   * #emptyPageColumn} per column; {@code edit} may change each column's metadata (given its index
   * through {@code columnEdits}). Returns the path.
   */
  public static Path write(Path path, LanceFileVersion version, List<FileProtos.Field> schema, long rows,
      int columns, List<UnaryOperator<ColumnMetadata>> columnEdits) throws IOException {
    ContainerWriter w = new ContainerWriter(new LocalOutputFile(path));
    long buffer = w.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}));
    List<ColumnMetadata> cms = new ArrayList<>();
    for (int i = 0; i < columns; i++) {
      ColumnMetadata cm = emptyPageColumn(version, rows, buffer);
      if (i < columnEdits.size() && columnEdits.get(i) != null) {
        cm = columnEdits.get(i).apply(cm);
      }
      cms.add(cm);
    }
    FileDescriptor fd = FileDescriptor.newBuilder()
        .setSchema(FileProtos.Schema.newBuilder().addAllFields(schema)).setLength(rows).build();
    w.finish(cms, fd.toByteArray(), version);
    return path;
  }

  /** The two-column container, three rows, unedited. */
  public static Path write(Path path, LanceFileVersion version) throws IOException {
    return write(path, version, twoColumnSchema(), 3, 2, List.of());
  }
}
