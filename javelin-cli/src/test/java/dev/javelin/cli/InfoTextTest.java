package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.protobuf.Empty;
import com.google.protobuf.Message;
import dev.javelin.format.FileInfo;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.proto.Encodings20;
import dev.javelin.format.proto.Encodings21;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.format.proto.File2Protos.DirectEncoding;
import dev.javelin.format.proto.File2Protos.Encoding;
import dev.javelin.format.schema.LanceField;
import dev.javelin.format.schema.LanceSchema;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InfoTextTest {
  private static Encoding direct(Message m, String url) {
    Any any = Any.newBuilder().setTypeUrl(url).setValue(m.toByteString()).build();
    return Encoding.newBuilder().setDirect(DirectEncoding.newBuilder().setEncoding(any.toByteString())).build();
  }

  private static final Encoding VALUES = direct(
      Encodings20.ColumnEncoding.newBuilder().setValues(Empty.getDefaultInstance()).build(),
      "/lance.encodings.ColumnEncoding");

  private static Encoding miniBlock(int bits, boolean nullable) {
    Encodings21.MiniBlockLayout.Builder b = Encodings21.MiniBlockLayout.newBuilder()
        .setValueCompression(Encodings21.CompressiveEncoding.newBuilder()
            .setFlat(Encodings21.Flat.newBuilder().setBitsPerValue(bits)))
        .setNumBuffers(1);
    if (nullable) {
      b.setDefCompression(Encodings21.CompressiveEncoding.newBuilder()
          .setFlat(Encodings21.Flat.newBuilder().setBitsPerValue(16)));
      b.addLayers(Encodings21.RepDefLayer.REPDEF_NULLABLE_ITEM);
    } else {
      b.addLayers(Encodings21.RepDefLayer.REPDEF_ALL_VALID_ITEM);
    }
    return direct(Encodings21.PageLayout.newBuilder().setMiniBlockLayout(b).build(), "/lance.encodings21.PageLayout");
  }

  private static ColumnMetadata column(Encoding page, long... sizes) {
    ColumnMetadata.Page.Builder p = ColumnMetadata.Page.newBuilder().setLength(300).setEncoding(page);
    for (long s : sizes) {
      p.addBufferOffsets(0).addBufferSizes(s);
    }
    return ColumnMetadata.newBuilder().setEncoding(VALUES).addPages(p).build();
  }

  @Test
  void rendersVersionSchemaTreeAndPages() {
    LanceSchema schema = new LanceSchema(List.of(
        new LanceField(0, "id", "int64", false, List.of(), Map.of()),
        new LanceField(1, "tags", "list", true,
            List.of(new LanceField(2, "item", "int32", true, List.of(), Map.of())), Map.of()),
        new LanceField(3, "address", "struct", true, List.of(
            new LanceField(4, "city", "string", true, List.of(), Map.of())), Map.of())), Map.of());
    ColumnMetadata second = ColumnMetadata.newBuilder(column(miniBlock(32, true), 1200, 600))
        .addPages(ColumnMetadata.Page.newBuilder().setLength(1).setPriority(300).setEncoding(miniBlock(32, true))
            .addBufferOffsets(0).addBufferSizes(8))
        .build();
    FileInfo info = FileInfo.of(LanceFileVersion.V2_1, schema, 301,
        List.of(column(miniBlock(64, false), 2400), second, column(miniBlock(8, true), 40, 900)));
    assertThat(InfoText.render(info, "data.lance", 12345)).isEqualTo(
        "file     data.lance\n"
            + "version  2.1\n"
            + "rows     301\n"
            + "size     12.1 KiB (12,345 bytes)\n"
            + "\n"
            + "schema (field id, name, type):\n"
            + "  0  id       int64 not null\n"
            + "  1  tags     list\n"
            + "  2    item   int32\n"
            + "  3  address  struct\n"
            + "  4    city   string\n"
            + "\n"
            + "columns (column, field, pages, size; buffer sizes in bytes):\n"
            + "  0  id            field 0  1 page   2.3 KiB\n"
            + "       page 0  300 rows  buffers [2400]  MiniBlock(value=Flat(64), layers=[ALL_VALID_ITEM], num_buffers=1)\n"
            + "  1  tags.item     field 2  2 pages  1.8 KiB\n"
            + "       page 0  300 rows  buffers [1200, 600]  "
            + "MiniBlock(def=Flat(16), value=Flat(32), layers=[NULLABLE_ITEM], num_buffers=1)\n"
            + "       page 1  1 row  buffers [8]  "
            + "MiniBlock(def=Flat(16), value=Flat(32), layers=[NULLABLE_ITEM], num_buffers=1)\n"
            + "  2  address.city  field 4  1 page   940 B\n"
            + "       page 0  300 rows  buffers [40, 900]  "
            + "MiniBlock(def=Flat(16), value=Flat(8), layers=[NULLABLE_ITEM], num_buffers=1)\n");
  }
}
