package dev.javelin.format.internal.v21;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.WriteOptions;
import dev.javelin.testing.ArrowData;
import dev.javelin.testing.TestAllocator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What format 2.2 changes in the pages Javelin writes (lance-core's choices, checked against it in
 * javelin-compat's JavelinWrites22Test): constant pages, large-chunk mini-blocks, run-length
 * levels, LZ4 dictionaries; each read back equal. 2.1 files of the same data keep the 2.1 pages.
 */
class V22PagesTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private static byte[] le32(int v) {
    return new byte[] {(byte) v, (byte) (v >> 8), (byte) (v >> 16), (byte) (v >> 24)};
  }

  private String page(Field f, int n, IntFunction<Object> value, LanceFileVersion version) throws Exception {
    Schema schema = new Schema(List.of(f));
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(new Object[] {value.apply(i)});
    }
    try (VectorSchemaRoot root = ArrowData.root(schema, rows, allocator)) {
      Path file = dir.resolve(f.getName() + version + ".lance");
      V21Fixtures.write(file, WriteOptions.builder().version(version).build(), root);
      assertThat(V21Fixtures.readAll(allocator, file, 700)).isEqualTo(V21Fixtures.rows(root));
      List<String> layouts = V21CompressedEncodingTest.layouts(file);
      assertThat(layouts).hasSize(1);
      return layouts.get(0);
    }
  }

  @Test
  void equalValuesMakeConstantPages() throws Exception {
    Field i32 = ArrowData.field("i32", new ArrowType.Int(32, true));
    assertThat(page(i32, 3000, i -> le32(42), LanceFileVersion.V2_2))
        .isEqualTo("all_null_layout { layers: REPDEF_ALL_VALID_ITEM inline_value: \"*\\000\\000\\000\" }");
    assertThat(page(i32, 3000, i -> le32(42), LanceFileVersion.V2_1)).startsWith("mini_block_layout");
    assertThat(page(ArrowData.field("nulls", new ArrowType.Int(32, true)), 3000, i -> i % 10 == 3 ? null : le32(7),
        LanceFileVersion.V2_2)).isEqualTo("all_null_layout { layers: REPDEF_NULLABLE_ITEM inline_value: \"\\a\\000\\000\\000\" }");
    assertThat(page(ArrowData.field("b", ArrowType.Bool.INSTANCE), 3000, i -> Boolean.TRUE, LanceFileVersion.V2_2))
        .isEqualTo("all_null_layout { layers: REPDEF_ALL_VALID_ITEM inline_value: \"\\001\" }");
    assertThat(page(ArrowData.field("s", ArrowType.Utf8.INSTANCE), 3000,
        i -> i % 4 == 0 ? null : "same".getBytes(StandardCharsets.UTF_8), LanceFileVersion.V2_2))
        .isEqualTo("all_null_layout { layers: REPDEF_NULLABLE_ITEM }");
    assertThat(page(ArrowData.field("w", new ArrowType.FixedSizeBinary(40)), 100, i -> new byte[40],
        LanceFileVersion.V2_2)).isEqualTo("all_null_layout { layers: REPDEF_ALL_VALID_ITEM }");
    // Under a list, values stay in mini-blocks.
    assertThat(page(ArrowData.list("l", ArrowData.field("item", new ArrowType.Int(32, true))), 1000,
        i -> List.of(le32(1), le32(1)), LanceFileVersion.V2_2)).startsWith("mini_block_layout");
  }

  @Test
  void miniBlocksHaveLargeChunksRunLengthLevelsAndLz4Dictionaries() throws Exception {
    String ints = page(ArrowData.field("x", new ArrowType.Int(32, true)), 5000,
        i -> i % 100 < 5 ? null : le32(i * 7919), LanceFileVersion.V2_2);
    assertThat(ints).contains("def_compression { rle { values { flat { bits_per_value: 16 } }")
        .endsWith("has_large_chunk: true }");
    String words = page(ArrowData.field("w", ArrowType.Utf8.INSTANCE), 5000,
        i -> ("word" + i % 7).getBytes(StandardCharsets.UTF_8), LanceFileVersion.V2_2);
    assertThat(words).contains("dictionary { general { compression { scheme: COMPRESSION_ALGORITHM_LZ4 } "
        + "values { variable");
    assertThat(page(ArrowData.field("w", ArrowType.Utf8.INSTANCE), 5000,
        i -> ("word" + i % 7).getBytes(StandardCharsets.UTF_8), LanceFileVersion.V2_1))
        .contains("dictionary { variable").doesNotContain("has_large_chunk");
  }

  @Test
  void allNullPagesCompressTheirLevels() throws Exception {
    Field lists = ArrowData.list("l", ArrowData.field("item", new ArrowType.Int(32, true)));
    assertThat(page(lists, 3000, i -> i % 3 == 0 ? null : List.of(), LanceFileVersion.V2_2))
        .startsWith("all_null_layout").contains("rep_compression { rle", "num_rep_values: 3000",
            "def_compression { out_of_line_bitpacking", "num_def_values: 3000");
    assertThat(page(lists, 3000, i -> i % 3 == 0 ? null : List.of(), LanceFileVersion.V2_1))
        .startsWith("all_null_layout").doesNotContain("compression");
  }
}
