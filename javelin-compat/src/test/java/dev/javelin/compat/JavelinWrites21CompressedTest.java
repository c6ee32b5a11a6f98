package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.WriteOptions;
import dev.javelin.io.LocalOutputFile;
import dev.javelin.testing.ArrowData;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Javelin writes 2.1 files with compression on; lance-core 7.0.0 and Javelin must read every page
 * back with equal values, row by row, and the pages must use the encodings Lance itself would
 * choose for the shape (checked on the page layouts). Files must be no more than 1.1 times the
 * size of lance-core's for the same data.
 */
class JavelinWrites21CompressedTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  /** Shape, then a fragment every page layout of the file must contain. */
  static Stream<Arguments> shapes() {
    Map<String, String> expect = new java.util.LinkedHashMap<>();
    expect.put("sorted_i64", "inline_bitpacking");
    expect.put("small_range_i32", "inline_bitpacking");
    expect.put("small_range_i64_nulls", "def_compression { out_of_line_bitpacking");
    expect.put("wide_i64", "flat { bits_per_value: 64 }");
    expect.put("negative_i32", "flat { bits_per_value: 32 }");
    expect.put("constant_i32", "rle");
    expect.put("runs_i32", "rle");
    expect.put("runs_i64_nulls", "rle");
    expect.put("i8", "inline_bitpacking { uncompressed_bits_per_value: 8 }");
    expect.put("i16_nulls", "out_of_line_bitpacking");
    expect.put("f64", "inline_bitpacking { uncompressed_bits_per_value: 64 }");
    expect.put("f32_rounded", "inline_bitpacking");
    expect.put("bool", "flat { bits_per_value: 1 }");
    expect.put("low_card_str", "dictionary");
    expect.put("low_card_str_nulls", "dictionary");
    expect.put("short_str", "fsst");
    expect.put("names", "fsst");
    expect.put("tiny_str", "dictionary");
    expect.put("long_str_nulls", "fsst");
    expect.put("binary_40k", "COMPRESSION_ALGORITHM_ZSTD");
    expect.put("vec16", "fixed_size_list");
    expect.put("vec128", "full_zip_layout");
    expect.put("vec128_nulls", "full_zip_layout");
    expect.put("vec1536", "full_zip_layout");
    expect.put("list_i32_nulls", "rep_compression { out_of_line_bitpacking");
    expect.put("list_str", "fsst");
    expect.put("struct_nulls", "def_compression { out_of_line_bitpacking");
    expect.put("rare_nulls_i64", "def_compression { out_of_line_bitpacking");
    expect.put("large_str", "fsst { symbol_table");
    expect.put("large_low_card_str", "dictionary { variable { offsets { flat { bits_per_value: 64");
    expect.put("wide_low_card_str", "mini_block_layout { def_compression { out_of_line_bitpacking");
    expect.put("empty_strs", "value_compression { variable");
    expect.put("list_list_i64", "inline_bitpacking");
    expect.put("mostly_empty_lists", "rep_compression { out_of_line_bitpacking");
    expect.put("all_empty_lists", "all_null_layout");
    expect.put("all_null_i32", "all_null_layout");
    expect.put("all_null_str", "all_null_layout");
    assertThat(expect.keySet()).containsExactlyInAnyOrderElementsOf(EncShapes.names());
    return expect.entrySet().stream().map(e -> Arguments.of(e.getKey(), e.getValue()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shapes")
  void lanceReadsEveryShape(String shape, String expected) throws Exception {
    try (VectorSchemaRoot root = EncShapes.all().get(shape).apply(allocator, 20_000)) {
      Path f = dir.resolve(shape + ".lance");
      EncFiles.javelinWrite(f, root, WriteOptions.DEFAULT_MAX_PAGE_BYTES, true);
      List<List<Object>> rows = V21SmokeTest.rows(root);
      assertThat(EncFiles.lanceRead(f, allocator)).as(shape).isEqualTo(rows);
      for (String layout : V21SmokeTest.layouts(f)) {
        assertThat(layout).as(shape).contains(expected);
      }
      // Javelin reads back what it wrote, whole and by random takes.
      assertThat(EncFiles.javelinRead(f, allocator)).as(shape).isEqualTo(rows);
      java.util.Random r = new java.util.Random(shape.hashCode());
      long[] take = new long[50];
      List<List<Object>> taken = new ArrayList<>();
      for (int i = 0; i < take.length; i++) {
        take[i] = r.nextInt(rows.size());
        taken.add(rows.get((int) take[i]));
      }
      assertThat(EncFiles.javelinTake(f, allocator, take)).as(shape).isEqualTo(taken);
    }
  }

  /** Small pages: many pages per column, each chosen on its own data, and short last chunks. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("shapes")
  void lanceReadsSmallPages(String shape, String ignored) throws Exception {
    try (VectorSchemaRoot root = EncShapes.all().get(shape).apply(allocator, 7_001)) {
      Path f = dir.resolve(shape + ".lance");
      EncFiles.javelinWrite(f, root, 8 * 1024, true);
      assertThat(EncFiles.lanceRead(f, allocator)).as(shape).isEqualTo(V21SmokeTest.rows(root));
      assertThat(EncFiles.javelinRead(f, allocator)).as(shape).isEqualTo(V21SmokeTest.rows(root));
    }
  }

  static Stream<Field> everyType() {
    return V21SmokeTest.javelinToLanceFields().stream();
  }

  /** Every type and nesting of the smoke test, random data with nulls, compressed; default and 4 KiB pages. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("everyType")
  void lanceReadsEveryTypeCompressed(Field field) throws Exception {
    Schema schema = new Schema(List.of(field));
    ArrowData.Gen g = new ArrowData.Gen(field.getName().hashCode() + 1);
    try (VectorSchemaRoot root = ArrowData.root(schema,
        ArrowData.randomRows(schema, 3000, g), allocator)) {
      List<List<Object>> expected = V21SmokeTest.rows(root);
      Path f = dir.resolve("t.lance");
      EncFiles.javelinWrite(f, root, WriteOptions.DEFAULT_MAX_PAGE_BYTES, true);
      assertThat(EncFiles.lanceRead(f, allocator)).isEqualTo(expected);
      Path small = dir.resolve("small.lance");
      EncFiles.javelinWrite(small, root, 4096, true);
      assertThat(EncFiles.lanceRead(small, allocator)).isEqualTo(expected);
      assertThat(EncFiles.javelinRead(small, allocator)).isEqualTo(expected);
      assertThat(EncFiles.javelinRead(f, allocator)).isEqualTo(expected);
    }
  }

  /** A row with 40,000 empty lists before a value: no chunk can hold it, so the page goes full-zip. */
  @Test
  void lanceReadsTheFullZipFallback() throws Exception {
    Schema schema = new Schema(List.of(ArrowData.list("ll",
        ArrowData.list("item", ArrowData.field("item", new org.apache.arrow.vector.types.pojo.ArrowType.Int(32, true))))));
    List<Object> outer = new ArrayList<>(java.util.Collections.nCopies(40_000, List.of()));
    outer.add(List.of(new byte[] {5, 0, 0, 0}));
    List<Object[]> rows = new ArrayList<>();
    rows.add(new Object[] {List.of(List.of(new byte[] {1, 0, 0, 0}))});
    rows.add(new Object[] {outer});
    rows.add(new Object[] {null});
    try (VectorSchemaRoot root = ArrowData.root(schema, rows, allocator)) {
      Path f = dir.resolve("fallback.lance");
      EncFiles.javelinWrite(f, root, WriteOptions.DEFAULT_MAX_PAGE_BYTES, true);
      assertThat(V21SmokeTest.layouts(f)).singleElement().asString().startsWith("full_zip_layout");
      assertThat(EncFiles.lanceRead(f, allocator)).isEqualTo(V21SmokeTest.rows(root));
    }
  }

  /** Within this factor of lance-core's size: file by file, and column by column. */
  static final double MAX_SIZE_RATIO = 1.1;

  /** The shapes compared by size: all but the wide vectors, which the benchmark set covers. */
  static Stream<String> sizedShapes() {
    return EncShapes.names().stream().filter(s -> !s.equals("vec128") && !s.equals("vec128_nulls") && !s.equals("vec1536"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sizedShapes")
  void asSmallAsLanceOnTypicalShapes(String shape) throws Exception {
    try (VectorSchemaRoot root = EncShapes.all().get(shape).apply(allocator, 200_000)) {
      Path j = dir.resolve("j.lance");
      Path l = dir.resolve("l.lance");
      EncFiles.javelinWrite(j, root, WriteOptions.DEFAULT_MAX_PAGE_BYTES, true);
      EncFiles.lanceWrite(l, root, allocator);
      assertThat((double) java.nio.file.Files.size(j)).as("%s: Javelin %s bytes, lance-core %s", shape,
          java.nio.file.Files.size(j), java.nio.file.Files.size(l))
          .isLessThanOrEqualTo(MAX_SIZE_RATIO * java.nio.file.Files.size(l));
    }
  }

  /** javelin-bench's data set (int64 id, float64 score, utf8 name, 128-d float vectors), 200k rows. */
  @Test
  void asSmallAsLanceOnTheBenchmarkSet() throws Exception {
    Path j = dir.resolve("j.lance");
    Path l = dir.resolve("l.lance");
    WriteOptions opts = WriteOptions.builder().version(LanceFileVersion.V2_1).compression(true).build();
    int rows = 200_000;
    try (VectorSchemaRoot root = VectorSchemaRoot.create(EncBenchData.schema(), allocator);
        LanceFileWriter jw = LanceFileWriter.create(new LocalOutputFile(j), EncBenchData.schema(), opts);
        org.lance.file.LanceFileWriter lw = org.lance.file.LanceFileWriter.open(
            l.toString(), allocator, null, java.util.Optional.of("2.1"), Map.of())) {
      for (int first = 0; first < rows; first += EncBenchData.BATCH) {
        EncBenchData.fill(root, first, Math.min(EncBenchData.BATCH, rows - first));
        jw.write(root);
        lw.write(root);
      }
    }
    long js = java.nio.file.Files.size(j);
    long ls = java.nio.file.Files.size(l);
    assertThat((double) js).as("file: Javelin %s bytes, lance-core %s", js, ls).isLessThanOrEqualTo(MAX_SIZE_RATIO * ls);
    long[] jc = EncFiles.columnBytes(j);
    long[] lc = EncFiles.columnBytes(l);
    assertThat(jc).hasSameSizeAs(lc);
    for (int c = 0; c < jc.length; c++) {
      assertThat((double) jc[c]).as("column %s: Javelin %s bytes, lance-core %s", c, jc[c], lc[c])
          .isLessThanOrEqualTo(MAX_SIZE_RATIO * lc[c]);
    }
    // Compression pays: without it the id, score and name columns are larger.
    Path plain = dir.resolve("p.lance");
    try (VectorSchemaRoot root = VectorSchemaRoot.create(EncBenchData.schema(), allocator);
        LanceFileWriter pw = LanceFileWriter.create(new LocalOutputFile(plain), EncBenchData.schema(),
            WriteOptions.builder().version(LanceFileVersion.V2_1).compression(false).build())) {
      EncBenchData.fill(root, 0, EncBenchData.BATCH);
      pw.write(root);
    }
    try (VectorSchemaRoot root = VectorSchemaRoot.create(EncBenchData.schema(), allocator)) {
      EncBenchData.fill(root, 0, EncBenchData.BATCH);
      assertThat(EncFiles.lanceRead(j, allocator).subList(0, EncBenchData.BATCH)).isEqualTo(V21SmokeTest.rows(root));
    }
    assertThat(EncFiles.columnBytes(plain)[0]).isGreaterThan(jc[0] * EncBenchData.BATCH / rows);
  }

  @Test
  void fieldMetadataTurnsCompressionOff() throws Exception {
    try (VectorSchemaRoot src = EncShapes.all().get("sorted_i64").apply(allocator, 5_000)) {
      Field f0 = src.getSchema().getFields().get(0);
      Field off = new Field(f0.getName(), new FieldType(f0.isNullable(), f0.getType(), null,
          Map.of("lance-encoding:compression", "none")), f0.getChildren());
      try (VectorSchemaRoot root = new VectorSchemaRoot(List.of(off), List.of(src.getVector(0)))) {
        Path f = dir.resolve("off.lance");
        EncFiles.javelinWrite(f, root, WriteOptions.DEFAULT_MAX_PAGE_BYTES, true);
        assertThat(V21SmokeTest.layouts(f)).allSatisfy(l -> assertThat(l).contains("flat { bits_per_value: 64 }"));
        assertThat(EncFiles.lanceRead(f, allocator)).isEqualTo(V21SmokeTest.rows(src));
      }
    }
  }

  /**
   * 1024 bit-packed values spanning 50k levels break the chunk limits: the writer cuts smaller
   * chunks itself, still with packed levels.
   */
  @Test
  void lanceReadsPagesWhoseCodecChunksHoldTooManyLevels() throws Exception {
    try (VectorSchemaRoot root = EncShapes.all().get("mostly_empty_lists").apply(allocator, 200_000)) {
      Path f = dir.resolve("e.lance");
      EncFiles.javelinWrite(f, root, WriteOptions.DEFAULT_MAX_PAGE_BYTES, true);
      assertThat(V21SmokeTest.layouts(f)).allSatisfy(l -> assertThat(l)
          .contains("value_compression { flat { bits_per_value: 32 } }", "rep_compression { out_of_line_bitpacking"));
      assertThat(EncFiles.lanceRead(f, allocator)).isEqualTo(V21SmokeTest.rows(root));
    }
  }

  @Test
  void lanceReadsRowRangesOfCompressedLists() throws Exception {
    try (VectorSchemaRoot root = EncShapes.all().get("list_i32_nulls").apply(allocator, 30_000)) {
      Path f = dir.resolve("l.lance");
      EncFiles.javelinWrite(f, root, 64 * 1024, true);
      List<List<Object>> all = V21SmokeTest.rows(root);
      List<List<Object>> expected = new ArrayList<>(all.subList(5, 7));
      expected.addAll(all.subList(12_345, 20_000));
      assertThat(EncFiles.lanceReadRanges(f, allocator,
          List.of(org.lance.util.Range.of(5, 7), org.lance.util.Range.of(12_345, 20_000))))
          .isEqualTo(expected);
    }
  }
}
