package dev.javelin.format.internal.v20;

import static dev.javelin.testing.RandomBatches.INT32;
import static dev.javelin.testing.RandomBatches.UTF8;
import static dev.javelin.testing.RandomBatches.field;
import static dev.javelin.testing.RandomBatches.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.format.schema.LanceField;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Types and encodings Javelin's 2.0 code does not handle fail with UnsupportedFormatException. */
class V20UnsupportedTest {
  @TempDir Path dir;

  @Test
  void typesWithoutA20EncodingAreRefusedWhenTheWriterIsCreated() {
    for (Field f : List.of(
        field("fsl_utf8", new ArrowType.FixedSizeList(2), item(UTF8)),
        field("nothing", ArrowType.Null.INSTANCE))) {
      Path file = dir.resolve(f.getName() + ".lance");
      assertThatThrownBy(() -> LanceFileWriter.create(file, new Schema(List.of(f)), V20Files.options(1024)))
          .isInstanceOf(UnsupportedFormatException.class)
          .hasMessageContaining(f.getName());
      assertThat(Files.exists(file)).isFalse();
    }
  }

  @Test
  void packedStructsCountAsOneColumnButAreNotDecoded() throws IOException {
    Field packed = new Field("p", new FieldType(true, ArrowType.Struct.INSTANCE, null, Map.of("packed", "true")),
        List.of(field("a", INT32), field("b", INT32)));
    LanceField lance = LanceField.fromArrow(packed, new int[] {0});
    assertThat(V20Encoding.INSTANCE.numColumns(lance)).isEqualTo(1);
    assertThatThrownBy(() -> V20Encoding.INSTANCE.newEncoder(lance, V20Files.options(1024)))
        .isInstanceOf(UnsupportedFormatException.class);
  }

  @Test
  void encodingsOutsideWhatLanceWritesByDefaultAreNamed() throws IOException {
    try (BufferAllocator allocator = new RootAllocator()) {
      Path file = dir.resolve("f.lance");
      V20Files.write(file, new Schema(List.of(field("i", INT32))), new int[] {50}, 1, V20Files.options(1 << 20),
          allocator);
      Path bad = dir.resolve("bitpacked.lance");
      new FileSurgery(file).encoding(0, 0, e -> {
        var nullable = e.getNullableBuilder();
        var values = nullable.hasSomeNulls()
            ? nullable.getSomeNullsBuilder().getValuesBuilder()
            : nullable.getNoNullsBuilder().getValuesBuilder();
        values.clearFlat().getBitpackedBuilder().setCompressedBitsPerValue(5).setUncompressedBitsPerValue(32);
        return e;
      }).writeTo(bad);
      try (LanceFileReader reader = LanceFileReader.open(bad, allocator)) {
        assertThatThrownBy(() -> V20Files.read(reader, ReadOptions.all()))
            .isInstanceOf(UnsupportedFormatException.class)
            .hasMessageContaining("Column 0 page 0")
            .hasMessageContaining("BITPACKED");
      }
    }
  }
}
