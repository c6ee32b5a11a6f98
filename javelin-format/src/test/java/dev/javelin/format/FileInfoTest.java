package dev.javelin.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Empty;
import com.google.protobuf.Message;
import dev.javelin.format.proto.Encodings20;
import dev.javelin.format.proto.Encodings20.ArrayEncoding;
import dev.javelin.format.proto.Encodings20.Nullable;
import dev.javelin.format.proto.Encodings21;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;
import dev.javelin.format.proto.Encodings21.PageLayout;
import dev.javelin.format.proto.Encodings21.RepDefLayer;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.format.proto.File2Protos.DeferredEncoding;
import dev.javelin.format.proto.File2Protos.DirectEncoding;
import dev.javelin.format.proto.File2Protos.Encoding;
import dev.javelin.format.schema.LanceField;
import dev.javelin.format.schema.LanceSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FileInfoTest {
  private static final String ARRAY = "/lance.encodings.ArrayEncoding";
  private static final String LAYOUT = "/lance.encodings21.PageLayout";
  private static final String COLUMN = "/lance.encodings.ColumnEncoding";

  private static Encoding direct(Message m, String url) {
    Any any = Any.newBuilder().setTypeUrl(url).setValue(m.toByteString()).build();
    return Encoding.newBuilder().setDirect(DirectEncoding.newBuilder().setEncoding(any.toByteString())).build();
  }

  private static ArrayEncoding flat20(int bits, int buffer) {
    Encodings20.Flat.Builder f = Encodings20.Flat.newBuilder().setBitsPerValue(bits)
        .setBuffer(Encodings20.Buffer.newBuilder().setBufferIndex(buffer));
    return ArrayEncoding.newBuilder().setFlat(f).build();
  }

  private static ArrayEncoding noNulls(ArrayEncoding values) {
    return ArrayEncoding.newBuilder()
        .setNullable(Nullable.newBuilder().setNoNulls(Nullable.NoNull.newBuilder().setValues(values)))
        .build();
  }

  private static CompressiveEncoding flat21(int bits) {
    return CompressiveEncoding.newBuilder().setFlat(Encodings21.Flat.newBuilder().setBitsPerValue(bits)).build();
  }

  private static final Encoding VALUES = direct(
      Encodings20.ColumnEncoding.newBuilder().setValues(Empty.getDefaultInstance()).build(), COLUMN);

  @Test
  void describesNested20Encodings() {
    assertThat(FileInfo.describe(direct(noNulls(flat20(64, 0)), ARRAY))).isEqualTo("Nullable(NoNull(Flat(64)))");

    ArrayEncoding binary = ArrayEncoding.newBuilder()
        .setBinary(Encodings20.Binary.newBuilder()
            .setIndices(noNulls(flat20(64, 0)))
            .setBytes(flat20(8, 1))
            .setNullAdjustment(7))
        .build();
    assertThat(FileInfo.describe(direct(binary, ARRAY))).isEqualTo(
        "Binary(indices=Nullable(NoNull(Flat(64))), bytes=Flat(bits_per_value=8, buffer=Buffer(1)), null_adjustment=7)");

    ArrayEncoding allNull = ArrayEncoding.newBuilder()
        .setNullable(Nullable.newBuilder().setAllNulls(Nullable.AllNull.getDefaultInstance())).build();
    assertThat(FileInfo.describe(direct(allNull, ARRAY))).isEqualTo("Nullable(AllNull)");

    ArrayEncoding struct = ArrayEncoding.newBuilder().setStruct(Encodings20.SimpleStruct.getDefaultInstance()).build();
    assertThat(FileInfo.describe(direct(struct, ARRAY))).isEqualTo("Struct");

    ArrayEncoding fsl = noNulls(ArrayEncoding.newBuilder()
        .setFixedSizeList(Encodings20.FixedSizeList.newBuilder().setDimension(4).setItems(noNulls(flat20(32, 0))))
        .build());
    assertThat(FileInfo.describe(direct(fsl, ARRAY)))
        .isEqualTo("Nullable(NoNull(FixedSizeList(dimension=4, items=Nullable(NoNull(Flat(32))))))");

    ArrayEncoding zstd = ArrayEncoding.newBuilder().setFlat(Encodings20.Flat.newBuilder().setBitsPerValue(8)
        .setCompression(Encodings20.Compression.newBuilder().setScheme("zstd"))).build();
    assertThat(FileInfo.describe(direct(zstd, ARRAY)))
        .isEqualTo("Flat(bits_per_value=8, compression=Compression(scheme=zstd))");
  }

  @Test
  void describes21Layouts() {
    PageLayout mini = PageLayout.newBuilder().setMiniBlockLayout(Encodings21.MiniBlockLayout.newBuilder()
            .setDefCompression(flat21(16))
            .setValueCompression(flat21(32))
            .addLayers(RepDefLayer.REPDEF_NULLABLE_ITEM)
            .setNumBuffers(1))
        .build();
    assertThat(FileInfo.describe(direct(mini, LAYOUT)))
        .isEqualTo("MiniBlock(def=Flat(16), value=Flat(32), layers=[NULLABLE_ITEM], num_buffers=1)");

    PageLayout fullZip = PageLayout.newBuilder().setFullZipLayout(Encodings21.FullZipLayout.newBuilder()
            .setBitsPerOffset(32)
            .setNumItems(10)
            .setNumVisibleItems(10)
            .setValueCompression(CompressiveEncoding.newBuilder().setVariable(Encodings21.Variable.newBuilder()
                .setOffsets(flat21(32))
                .setValues(Encodings21.BufferCompression.newBuilder()
                    .setScheme(Encodings21.CompressionScheme.COMPRESSION_ALGORITHM_ZSTD))))
            .addLayers(RepDefLayer.REPDEF_ALL_VALID_ITEM))
        .build();
    assertThat(FileInfo.describe(direct(fullZip, LAYOUT))).isEqualTo(
        "FullZip(bits_per_offset=32, num_items=10, num_visible_items=10, "
            + "value=Variable(offsets=Flat(32), values=BufferCompression(scheme=ZSTD)), layers=[ALL_VALID_ITEM])");

    PageLayout allNull = PageLayout.newBuilder().setAllNullLayout(Encodings21.AllNullLayout.newBuilder()
        .addLayers(RepDefLayer.REPDEF_NULLABLE_ITEM).addLayers(RepDefLayer.REPDEF_NULLABLE_LIST)).build();
    assertThat(FileInfo.describe(direct(allNull, LAYOUT))).isEqualTo("AllNull(layers=[NULLABLE_ITEM, NULLABLE_LIST])");

    PageLayout constant = PageLayout.newBuilder().setMiniBlockLayout(Encodings21.MiniBlockLayout.newBuilder()
        .setValueCompression(CompressiveEncoding.newBuilder().setConstant(
            Encodings21.Constant.newBuilder().setValue(ByteString.copyFrom(new byte[8]))))).build();
    assertThat(FileInfo.describe(direct(constant, LAYOUT))).isEqualTo("MiniBlock(Constant(value=<8 bytes>))");
  }

  @Test
  void describesColumnEncodingsAndOddities() {
    assertThat(FileInfo.describe(VALUES)).isEqualTo("Values");
    assertThat(FileInfo.describe(direct(Empty.getDefaultInstance(), "/some.Thing"))).isEqualTo("Unknown(/some.Thing, 0 bytes)");
    Encoding garbage = Encoding.newBuilder()
        .setDirect(DirectEncoding.newBuilder().setEncoding(ByteString.copyFrom(new byte[] {(byte) 0xff, 1, 2})))
        .build();
    assertThat(FileInfo.describe(garbage)).isEqualTo("Invalid(3 bytes, not a protobuf Any)");
    Encoding badBody = Encoding.newBuilder().setDirect(DirectEncoding.newBuilder().setEncoding(
        Any.newBuilder().setTypeUrl(ARRAY).setValue(ByteString.copyFrom(new byte[] {(byte) 0xff})).build().toByteString()))
        .build();
    assertThat(FileInfo.describe(badBody)).isEqualTo("Invalid(/lance.encodings.ArrayEncoding, 1 bytes)");
    Encoding deferred = Encoding.newBuilder()
        .setIndirect(DeferredEncoding.newBuilder().setBufferLocation(128).setBufferLength(16)).build();
    assertThat(FileInfo.describe(deferred)).isEqualTo("Deferred(at 128, 16 bytes)");
    assertThat(FileInfo.describe(Encoding.getDefaultInstance())).isEqualTo("Unset");
  }

  // id, tags: list<int32>, address: struct<city: string, zip: int32>
  private static LanceSchema nestedSchema() {
    LanceField item = new LanceField(2, "item", "int32", true, List.of(), Map.of());
    LanceField city = new LanceField(4, "city", "string", true, List.of(), Map.of());
    LanceField zip = new LanceField(5, "zip", "int32", true, List.of(), Map.of());
    return new LanceSchema(List.of(
        new LanceField(0, "id", "int64", false, List.of(), Map.of()),
        new LanceField(1, "tags", "list", true, List.of(item), Map.of()),
        new LanceField(3, "address", "struct", true, List.of(city, zip), Map.of("k", "v"))), Map.of());
  }

  private static List<ColumnMetadata> columns(int n, Encoding pageEncoding) {
    List<ColumnMetadata> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(ColumnMetadata.newBuilder().setEncoding(VALUES)
          .addPages(ColumnMetadata.Page.newBuilder().setLength(10).setPriority(0)
              .addBufferOffsets(64L * i).addBufferSizes(80).setEncoding(pageEncoding))
          .build());
    }
    return out;
  }

  @Test
  void mapsEveryFieldToAColumnIn20() {
    FileInfo info = FileInfo.of(LanceFileVersion.V2_0, nestedSchema(), 10,
        columns(6, direct(noNulls(flat20(64, 0)), ARRAY)));
    assertThat(info.columns()).extracting(FileInfo.Column::path)
        .containsExactly("id", "tags", "tags.item", "address", "address.city", "address.zip");
    assertThat(info.columns()).extracting(c -> c.field().id()).containsExactly(0, 1, 2, 3, 4, 5);
    assertThat(info.columns().get(2).pages().get(0).encoding()).isEqualTo("Nullable(NoNull(Flat(64)))");
    assertThat(info.columns().get(2).totalBytes()).isEqualTo(80);
  }

  @Test
  void mapsOnlyLeavesToColumnsIn21() {
    FileInfo info = FileInfo.of(LanceFileVersion.V2_1, nestedSchema(), 10, columns(5, VALUES));
    assertThat(info.columns()).extracting(FileInfo.Column::path)
        .containsExactly("id", "tags.item", "address.city", "address.zip", null);
    assertThat(info.columns()).extracting(c -> c.field() == null ? -1 : c.field().id()).containsExactly(0, 2, 4, 5, -1);
  }

  @Test
  void writesJson() {
    LanceSchema schema = new LanceSchema(List.of(
        new LanceField(0, "a \"quoted\"\n", "int32", false, List.of(), Map.of()),
        new LanceField(1, "s", "struct", true,
            List.of(new LanceField(2, "x", "double", true, List.of(), Map.of())), Map.of("k", "v"))),
        Map.of("owner", "me"));
    List<ColumnMetadata> cols = List.of(
        ColumnMetadata.newBuilder().setEncoding(VALUES).addPages(ColumnMetadata.Page.newBuilder().setLength(3)
            .addBufferOffsets(0).addBufferSizes(12).setEncoding(direct(PageLayout.newBuilder()
                .setMiniBlockLayout(Encodings21.MiniBlockLayout.newBuilder().setValueCompression(flat21(32))).build(),
                LAYOUT))).build(),
        ColumnMetadata.newBuilder().setEncoding(VALUES).addBufferSizes(5).build());
    FileInfo info = FileInfo.of(LanceFileVersion.V2_1, schema, 3, cols);
    assertThat(info.toJson()).isEqualTo("{\"version\":\"2.1\",\"rows\":3,\"schema\":["
        + "{\"id\":0,\"name\":\"a \\\"quoted\\\"\\n\",\"type\":\"int32\",\"nullable\":false},"
        + "{\"id\":1,\"name\":\"s\",\"type\":\"struct\",\"nullable\":true,\"metadata\":{\"k\":\"v\"},"
        + "\"children\":[{\"id\":2,\"name\":\"x\",\"type\":\"double\",\"nullable\":true}]}],"
        + "\"metadata\":{\"owner\":\"me\"},"
        + "\"columns\":[{\"index\":0,\"field_id\":0,\"path\":\"a \\\"quoted\\\"\\n\",\"encoding\":\"Values\","
        + "\"buffer_sizes\":[],\"pages\":[{\"rows\":3,\"priority\":0,\"buffer_offsets\":[0],\"buffer_sizes\":[12],"
        + "\"encoding\":\"MiniBlock(Flat(32))\"}]},"
        + "{\"index\":1,\"field_id\":2,\"path\":\"s.x\",\"encoding\":\"Values\",\"buffer_sizes\":[5],\"pages\":[]}]}");
  }
}
