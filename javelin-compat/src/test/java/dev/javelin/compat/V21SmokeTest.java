package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.WriteOptions;
import dev.javelin.io.LocalOutputFile;
import dev.javelin.testing.ArrowData;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
/**
 * Lance file format 2.1 between Javelin and lance-core 7.0.0, both ways, value by value.
 *
 * <p>Javelin to lance-core: every type and nesting, several pages, row ranges, all-null pages,
 * edge cases. lance-core to Javelin: what lance-core writes when asked not to compress
 * (field metadata {@code lance-encoding:compression=none}): mini-block Flat / Variable /
 * FixedSizeList pages without levels, full-zip pages with control words, all-null pages. What
 * lance-core writes by default (compressed) is covered by LanceWrites21Test.
 *
 * <p>The test data generator is javelin-testing's {@link ArrowData}, shared with javelin-format's
 * tests.
 */
class V21SmokeTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  /** Every column's values, row by row, with content equality (strings, bytes, lists, structs). */
  static List<List<Object>> rows(VectorSchemaRoot root) {
    List<List<Object>> out = new ArrayList<>();
    for (int r = 0; r < root.getRowCount(); r++) {
      List<Object> row = new ArrayList<>();
      for (FieldVector v : root.getFieldVectors()) {
        row.add(plain(v.getObject(r)));
      }
      out.add(row);
    }
    return out;
  }

  static Object plain(Object o) {
    if (o == null) {
      return null;
    }
    if (o instanceof Text) {
      return o.toString();
    }
    if (o instanceof byte[]) {
      return "0x" + java.util.HexFormat.of().formatHex((byte[]) o);
    }
    if (o instanceof List) {
      List<Object> l = new ArrayList<>();
      for (Object x : (List<?>) o) {
        l.add(plain(x));
      }
      return l;
    }
    if (o instanceof Map) {
      Map<Object, Object> m = new java.util.LinkedHashMap<>();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) o).entrySet()) {
        m.put(e.getKey(), plain(e.getValue()));
      }
      return m;
    }
    return o;
  }

  List<List<Object>> lanceRead(Path file) throws Exception {
    List<List<Object>> out = new ArrayList<>();
    try (org.lance.file.LanceFileReader r = org.lance.file.LanceFileReader.open(file.toString(), allocator);
        ArrowReader batches = r.readAll(null, null, 1000)) {
      while (batches.loadNextBatch()) {
        out.addAll(rows(batches.getVectorSchemaRoot()));
      }
    }
    return out;
  }

  /** Rows [start, end) of several ranges, as lance-core reads them. */
  List<List<Object>> lanceReadRanges(Path file, List<org.lance.util.Range> ranges) throws Exception {
    List<List<Object>> out = new ArrayList<>();
    try (org.lance.file.LanceFileReader r = org.lance.file.LanceFileReader.open(file.toString(), allocator);
        ArrowReader batches = r.readAll(null, ranges, 333)) {
      while (batches.loadNextBatch()) {
        out.addAll(rows(batches.getVectorSchemaRoot()));
      }
    }
    return out;
  }

  List<List<Object>> javelinRead(Path file) throws Exception {
    List<List<Object>> out = new ArrayList<>();
    try (dev.javelin.format.LanceFileReader r = dev.javelin.format.LanceFileReader.open(file, allocator);
        ArrowReader batches = r.read(ReadOptions.builder().batchSize(1000).build())) {
      while (batches.loadNextBatch()) {
        out.addAll(rows(batches.getVectorSchemaRoot()));
      }
    }
    return out;
  }

  List<List<Object>> javelinTake(Path file, long[] rows) throws Exception {
    try (dev.javelin.format.LanceFileReader r = dev.javelin.format.LanceFileReader.open(file, allocator);
        VectorSchemaRoot root = r.take(rows, null)) {
      return rows(root);
    }
  }

  /** The layouts of every page, e.g. "mini_block(flat)" or "full_zip(variable)". */
  static List<String> layouts(Path file) throws Exception {
    List<String> out = new ArrayList<>();
    try (dev.javelin.io.LocalInputFile in = dev.javelin.io.LocalInputFile.open(file)) {
      dev.javelin.format.internal.container.FileMetadata md = dev.javelin.format.internal.container.FileMetadata.read(in);
      for (dev.javelin.format.proto.File2Protos.ColumnMetadata c : md.columns()) {
        for (dev.javelin.format.proto.File2Protos.ColumnMetadata.Page p : c.getPagesList()) {
          com.google.protobuf.Any any = com.google.protobuf.Any.parseFrom(p.getEncoding().getDirect().getEncoding());
          out.add(com.google.protobuf.TextFormat.shortDebugString(
              dev.javelin.format.proto.Encodings21.PageLayout.parseFrom(any.getValue())));
        }
      }
    }
    return out;
  }

  static Schema schemaOf(VectorSchemaRoot root) {
    List<Field> fields = new ArrayList<>();
    for (FieldVector v : root.getFieldVectors()) {
      fields.add(v.getField());
    }
    return new Schema(fields);
  }

  void javelinWrite(Path file, VectorSchemaRoot root, long maxPageBytes) throws Exception {
    WriteOptions opts = WriteOptions.builder().version(LanceFileVersion.V2_1).maxPageBytes(maxPageBytes).build();
    try (LanceFileWriter w = LanceFileWriter.create(new LocalOutputFile(file), schemaOf(root), opts)) {
      w.write(root);
    }
  }

  void javelinWrite(Path file, VectorSchemaRoot root) throws Exception {
    javelinWrite(file, root, WriteOptions.DEFAULT_MAX_PAGE_BYTES);
  }

  void lanceWrite(Path file, VectorSchemaRoot root) throws Exception {
    try (org.lance.file.LanceFileWriter w = org.lance.file.LanceFileWriter.open(
        file.toString(), allocator, null, Optional.of("2.1"), Map.of())) {
      w.write(root);
    }
  }

  static IntVector ints(BufferAllocator a, String name, int n) {
    IntVector v = new IntVector(name, a);
    v.allocateNew(n);
    for (int i = 0; i < n; i++) {
      if (i % 11 == 5) {
        v.setNull(i);
      } else {
        v.set(i, i * 7 - 100);
      }
    }
    v.setValueCount(n);
    return v;
  }

  @Test
  void int32JavelinToLance() throws Exception {
    try (VectorSchemaRoot root = VectorSchemaRoot.of(ints(allocator, "x", 5000))) {
      Path f = dir.resolve("j.lance");
      javelinWrite(f, root);
      assertThat(lanceRead(f)).isEqualTo(rows(root));
    }
  }

  static List<Field> javelinToLanceFields() {
    List<Field> out = new ArrayList<>(ArrowData.primitives());
    Field i32 = ArrowData.field("item", new ArrowType.Int(32, true));
    Field f32 = ArrowData.field("item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE));
    Field str = ArrowData.field("item", ArrowType.Utf8.INSTANCE);
    out.add(ArrowData.list("list_int", i32));
    out.add(ArrowData.largeList("large_list_int", i32));
    out.add(ArrowData.list("list_str", str));
    out.add(ArrowData.struct("struct", ArrowData.field("a", new ArrowType.Int(64, true)),
        ArrowData.field("b", ArrowType.Utf8.INSTANCE)));
    out.add(ArrowData.list("list_struct", ArrowData.struct("item", ArrowData.field("a", new ArrowType.Int(16, true)), str)));
    out.add(ArrowData.struct("struct_list", ArrowData.list("l", i32), ArrowData.field("x", ArrowType.Bool.INSTANCE)));
    out.add(ArrowData.list("list_list", ArrowData.list("item", i32)));
    out.add(ArrowData.list("list_list_list", ArrowData.list("item", ArrowData.list("item", str))));
    out.add(ArrowData.struct("struct_struct", ArrowData.struct("inner", ArrowData.field("z", new ArrowType.Int(8, true)))));
    out.add(ArrowData.fsl("fsl2", 2, f32));
    out.add(ArrowData.fsl("fsl16", 16, f32));
    out.add(ArrowData.fsl("fsl128", 128, f32));
    out.add(ArrowData.fsl("fsl_fsl", 3, ArrowData.fsl("item", 2, i32)));
    out.add(ArrowData.list("list_fsl", ArrowData.fsl("item", 4, i32)));
    out.add(ArrowData.list("list_struct_list", ArrowData.struct("item", ArrowData.list("l", i32))));
    out.add(ArrowData.field("fsb300", new ArrowType.FixedSizeBinary(300)));
    return out;
  }

  /** Javelin writes every type (small and default pages); lance-core reads equal values. */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.MethodSource("javelinToLanceFields")
  void javelinToLance(Field field) throws Exception {
    Schema schema = new Schema(List.of(field));
    ArrowData.Gen g = new ArrowData.Gen(field.getName().hashCode());
    try (VectorSchemaRoot root = ArrowData.root(schema, ArrowData.randomRows(schema, 2000, g), allocator)) {
      Path f = dir.resolve("j.lance");
      javelinWrite(f, root);
      List<List<Object>> expected = rows(root);
      assertThat(lanceRead(f)).isEqualTo(expected);
      Path small = dir.resolve("small.lance");
      javelinWrite(small, root, 4096);
      assertThat(lanceRead(small)).isEqualTo(expected);
      List<List<Object>> some = new ArrayList<>(expected.subList(10, 20));
      some.addAll(expected.subList(1500, 1999));
      assertThat(lanceReadRanges(small, List.of(org.lance.util.Range.of(10, 20), org.lance.util.Range.of(1500, 1999))))
          .isEqualTo(some);
    }
  }
  /** Asks lance-core for uncompressed values and no dictionaries, on a field and its children. */
  static Field uncompressed(Field f) {
    Map<String, String> md = new java.util.HashMap<>();
    md.put("lance-encoding:compression", "none");
    md.put("lance-encoding:dict-size-ratio", "0.000001");
    List<Field> kids = new ArrayList<>();
    for (Field c : f.getChildren()) {
      kids.add(uncompressed(c));
    }
    return new Field(f.getName(), new FieldType(f.isNullable(), f.getType(), null, md), kids);
  }

  /** What lance-core writes without compression for data in the given shape. */
  static final class LanceCase {
    final String name;
    final Field field;
    final double nullRate;
    final double emptyRate;
    final int minString;
    final int maxString;
    final int rows;

    LanceCase(String name, Field field, double nullRate, double emptyRate, int minString, int maxString, int rows) {
      this.name = name;
      this.field = field;
      this.nullRate = nullRate;
      this.emptyRate = emptyRate;
      this.minString = minString;
      this.maxString = maxString;
      this.rows = rows;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static List<LanceCase> lanceCases() {
    List<LanceCase> out = new ArrayList<>();
    for (Field f : ArrowData.primitives()) {
      out.add(new LanceCase(f.getName() + " (no nulls)", f, 0, 0, 0, 12, 3000));
    }
    Field f32 = ArrowData.field("item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE));
    Field i32 = ArrowData.field("item", new ArrowType.Int(32, true));
    Field wide = ArrowData.field("item", ArrowType.Utf8.INSTANCE);
    out.add(new LanceCase("wide utf8 with nulls", ArrowData.field("s", ArrowType.Utf8.INSTANCE), 0.1, 0, 300, 400, 3000));
    out.add(new LanceCase("wide large_binary with nulls", ArrowData.field("b", ArrowType.LargeBinary.INSTANCE),
        0.1, 0, 256, 600, 2000));
    out.add(new LanceCase("fsl<float,128>", ArrowData.fsl("v", 128, f32), 0, 0, 0, 0, 2000));
    out.add(new LanceCase("fsl<float,128> with nulls", ArrowData.fsl("v", 128, f32), 0.05, 0, 0, 0, 2000));
    out.add(new LanceCase("fsl<float,16>", ArrowData.fsl("v", 16, f32), 0, 0, 0, 0, 3000));
    out.add(new LanceCase("fsl<int,2>", ArrowData.fsl("v", 2, i32), 0, 0, 0, 0, 3000));
    out.add(new LanceCase("fsl<int,4> with null items", ArrowData.notNull("v", new ArrowType.FixedSizeList(4),
        ArrowData.field("item", new ArrowType.Int(32, true))), 0.2, 0, 0, 0, 3000));
    out.add(new LanceCase("fsl<fsl<int16,2>,3> with null items", ArrowData.notNull("v", new ArrowType.FixedSizeList(3),
        ArrowData.fsl("item", 2, ArrowData.field("item", new ArrowType.Int(16, true)))), 0.2, 0, 0, 0, 3000));
    out.add(new LanceCase("struct<int64, utf8, fsl<float,8>> (no nulls)", ArrowData.struct("st",
        ArrowData.field("a", new ArrowType.Int(64, true)), ArrowData.field("b", ArrowType.Utf8.INSTANCE),
        ArrowData.fsl("c", 8, f32)), 0, 0, 0, 10, 3000));
    out.add(new LanceCase("fixed_size_binary(300) with nulls",
        ArrowData.field("fsb", new ArrowType.FixedSizeBinary(300)), 0.1, 0, 0, 0, 1500));
    out.add(new LanceCase("all-null int64", ArrowData.field("n", new ArrowType.Int(64, true)), 1, 0, 0, 0, 3000));
    out.add(new LanceCase("list<wide utf8> with nulls and empties", ArrowData.list("l", wide), 0.1, 0.1, 300, 350, 1500));
    out.add(new LanceCase("struct<wide utf8, fsl128> with nulls",
        ArrowData.struct("st", ArrowData.field("s", ArrowType.Utf8.INSTANCE), ArrowData.fsl("v", 128, f32)),
        0.1, 0, 300, 350, 1500));
    out.add(new LanceCase("list<list<wide utf8>>", ArrowData.list("ll", ArrowData.list("item", wide)),
        0.1, 0.1, 300, 320, 800));
    out.add(new LanceCase("list<struct<wide binary>>",
        ArrowData.list("ls", ArrowData.struct("item", ArrowData.field("b", ArrowType.Binary.INSTANCE))),
        0.1, 0.1, 260, 300, 800));
    return out;
  }

  static List<LanceCase> allNullCases() {
    List<LanceCase> out = new ArrayList<>();
    Field i32 = ArrowData.field("item", new ArrowType.Int(32, true));
    Field nullItem = ArrowData.field("null_item", new ArrowType.Int(32, true));
    out.add(new LanceCase("struct<all-null int>", ArrowData.struct("st", ArrowData.field("null_a", new ArrowType.Int(32, true))),
        0.1, 0, 0, 0, 2000));
    out.add(new LanceCase("list<int>, all lists empty or null", ArrowData.list("l", i32), 0.2, 1, 0, 0, 2000));
    out.add(new LanceCase("list<int>, all items null", ArrowData.list("l", nullItem), 0.1, 0.1, 0, 0, 2000));
    out.add(new LanceCase("list<list<int>>, no items",
        ArrowData.list("l", ArrowData.list("item", nullItem)), 0.1, 0.3, 0, 0, 1000));
    return out;
  }

  private static List<Object> one(Object x) {
    List<Object> l = new ArrayList<>();
    l.add(x);
    return l;
  }

  @Test
  void zeroRowsBothWays() throws Exception {
    Schema schema = new Schema(List.of(ArrowData.field("i", new ArrowType.Int(32, true)),
        ArrowData.list("l", ArrowData.struct("item", ArrowData.field("a", ArrowType.Utf8.INSTANCE)))));
    try (VectorSchemaRoot root = ArrowData.root(schema, List.of(), allocator)) {
      Path j = dir.resolve("j0.lance");
      javelinWrite(j, root);
      assertThat(lanceRead(j)).isEmpty();
      try (org.lance.file.LanceFileReader r = org.lance.file.LanceFileReader.open(j.toString(), allocator)) {
        assertThat(r.numRows()).isZero();
      }
      Path l = dir.resolve("l0.lance");
      lanceWrite(l, root);
      assertThat(javelinRead(l)).isEmpty();
    }
  }

  /** Nulls and empties at every level of list<struct<list<int>, utf8>>. */
  @Test
  void nullsAtEveryLevelJavelinToLance() throws Exception {
    Field leaf = ArrowData.field("v", new ArrowType.Int(32, true));
    Schema schema = new Schema(List.of(ArrowData.list("l", ArrowData.struct("s", ArrowData.list("inner", leaf),
        ArrowData.field("t", ArrowType.Utf8.INSTANCE)))));
    byte[] seven = {7, 0, 0, 0};
    List<Object[]> rows = new ArrayList<>();
    rows.add(new Object[] {null});
    rows.add(new Object[] {List.of()});
    rows.add(new Object[] {one(null)});
    rows.add(new Object[] {one(new Object[] {null, null})});
    rows.add(new Object[] {one(new Object[] {List.of(), "x".getBytes()})});
    rows.add(new Object[] {one(new Object[] {java.util.Arrays.asList(null, null), null})});
    rows.add(new Object[] {java.util.Arrays.asList(new Object[] {one(seven), "y".getBytes()}, new Object[] {null, null})});
    List<Object[]> many = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      many.addAll(rows);
    }
    try (VectorSchemaRoot root = ArrowData.root(schema, many, allocator)) {
      Path f = dir.resolve("nulls.lance");
      javelinWrite(f, root, 1024);
      assertThat(lanceRead(f)).isEqualTo(rows(root));
    }
  }

  /** A row with 40,000 empty lists before a value: Javelin falls back to full-zip. */
  @Test
  void fullZipFallbackJavelinToLance() throws Exception {
    Schema schema = new Schema(List.of(ArrowData.list("ll",
        ArrowData.list("item", ArrowData.field("item", new ArrowType.Int(32, true))))));
    List<Object> outer = new ArrayList<>(java.util.Collections.nCopies(40_000, List.of()));
    outer.add(one(new byte[] {5, 0, 0, 0}));
    List<Object[]> rows = new ArrayList<>();
    rows.add(new Object[] {one(one(new byte[] {1, 0, 0, 0}))});
    rows.add(new Object[] {outer});
    rows.add(new Object[] {null});
    try (VectorSchemaRoot root = ArrowData.root(schema, rows, allocator)) {
      Path f = dir.resolve("fallback.lance");
      javelinWrite(f, root);
      assertThat(layouts(f)).singleElement().asString().startsWith("full_zip_layout");
      assertThat(lanceRead(f)).isEqualTo(rows(root));
    }
  }

  /** Nullable fixed-size lists of floats, booleans and bytes, widths 2 to 1536, with null items. */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(ints = {2, 3, 7, 64, 128, 300, 1024, 1536})
  void fixedSizeListWidthsJavelinToLance(int dim) throws Exception {
    Schema schema = new Schema(List.of(
        ArrowData.fsl("v", dim, ArrowData.field("item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))),
        ArrowData.fsl("b", dim, ArrowData.field("item", ArrowType.Bool.INSTANCE)),
        ArrowData.fsl("u", dim, ArrowData.field("item", new ArrowType.Int(8, false)))));
    ArrowData.Gen g = new ArrowData.Gen(dim);
    g.nullRate = 0.05;
    try (VectorSchemaRoot root = ArrowData.root(schema, ArrowData.randomRows(schema, 400, g), allocator)) {
      Path f = dir.resolve("fsl.lance");
      javelinWrite(f, root, 64 * 1024);
      assertThat(lanceRead(f)).isEqualTo(rows(root));
    }
  }

  /**
   * Full-zip list<struct<list<wide utf8>>> with null structs between the lists: the null struct
   * hides the inner list, so its entry has no value slot. lance-core writes it full-zip and cannot
   * read that back; Javelin reads it, and writes such pages mini-block so lance-core can.
   */
  @Test
  void nullStructBetweenListsFullZip() throws Exception {
    Field wide = ArrowData.field("item", ArrowType.Utf8.INSTANCE);
    Schema schema = new Schema(List.of(uncompressed(ArrowData.list("l",
        ArrowData.struct("s", ArrowData.list("inner", wide))))));
    ArrowData.Gen g = new ArrowData.Gen(77);
    g.nullRate = 0.2;
    g.emptyRate = 0.1;
    g.minString = 300;
    g.maxString = 320;
    try (VectorSchemaRoot root = ArrowData.root(schema, ArrowData.randomRows(schema, 600, g), allocator)) {
      List<List<Object>> expected = rows(root);
      Path j = dir.resolve("j.lance");
      javelinWrite(j, root);
      // Javelin writes this shape mini-block, which lance-core reads.
      assertThat(layouts(j)).singleElement().asString().startsWith("mini_block_layout");
      assertThat(javelinRead(j)).isEqualTo(expected);
      assertThat(lanceRead(j)).isEqualTo(expected);
      Path l = dir.resolve("l.lance");
      lanceWrite(l, root);
      assertThat(layouts(l)).singleElement().asString().startsWith("full_zip_layout");
      assertThat(javelinRead(l)).as("Javelin reads lance-core's file").isEqualTo(expected);
      // Not checked: lance-core 7.0.0 panics (aborting the JVM) reading this shape, its own file
      // included. Its full-zip reader counts a null struct between two lists as an item with a
      // value slot; its writer (and Javelin) do not.
    }
  }

  /** lance-core's default output bit-packs the values; Javelin reads them (more in LanceWrites21Test). */
  @Test
  void compressedLanceOutputReads() throws Exception {
    try (VectorSchemaRoot root = VectorSchemaRoot.of(ints(allocator, "x", 5000))) {
      Path f = dir.resolve("default.lance");
      lanceWrite(f, root);
      assertThat(layouts(f)).singleElement().asString().contains("bitpacking");
      assertThat(javelinRead(f)).isEqualTo(rows(root));
    }
  }

  /**
   * Lists of thousands of items span many mini-block chunks, some holding no row start: the
   * repetition index must tell lance-core where each row begins and ends.
   */
  @Test
  void rowsSpanningManyChunksJavelinToLance() throws Exception {
    Schema schema = new Schema(List.of(
        ArrowData.list("l", ArrowData.field("item", new ArrowType.Int(32, true))),
        ArrowData.list("ll", ArrowData.list("item", ArrowData.field("item", new ArrowType.Int(8, true))))));
    Random r = new Random(3);
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      int n = i % 7 == 3 ? 3000 + r.nextInt(9000) : r.nextInt(5);
      Object[] row = new Object[2];
      for (int c = 0; c < 2; c++) {
        if (r.nextInt(10) == 0) {
          continue;
        }
        List<Object> items = new ArrayList<>();
        for (int k = 0; k < n; k++) {
          if (r.nextInt(20) == 0) {
            items.add(null);
          } else if (c == 0) {
            items.add(new byte[] {(byte) k, (byte) (k >> 8), 0, 0});
          } else {
            items.add(r.nextInt(50) == 0 ? List.of() : one(new byte[] {(byte) k}));
          }
        }
        row[c] = items;
      }
      rows.add(row);
    }
    try (VectorSchemaRoot root = ArrowData.root(schema, rows, allocator)) {
      List<List<Object>> expected = rows(root);
      Path f = dir.resolve("span.lance");
      javelinWrite(f, root);
      assertThat(lanceRead(f)).isEqualTo(expected);
      for (int a = 0; a < 60; a += 7) {
        int b = Math.min(60, a + 1 + r.nextInt(20));
        assertThat(lanceReadRanges(f, List.of(org.lance.util.Range.of(a, b)))).as("rows %s..%s", a, b)
            .isEqualTo(expected.subList(a, b));
      }
    }
  }

  /** Many pages each way, read by row ranges and takes. */
  @Test
  void manyPagesBothWays() throws Exception {
    Schema schema = new Schema(List.of(uncompressed(ArrowData.field("x", new ArrowType.Int(64, true))),
        uncompressed(ArrowData.field("w", ArrowType.Utf8.INSTANCE))));
    ArrowData.Gen g = new ArrowData.Gen(3);
    g.nullRate = 0;
    g.minString = 256;
    g.maxString = 2000;
    try (VectorSchemaRoot root = ArrowData.root(schema, ArrowData.randomRows(schema, 30_000, g), allocator)) {
      List<List<Object>> expected = rows(root);
      Path j = dir.resolve("jp.lance");
      javelinWrite(j, root, 1 << 20);
      assertThat(layouts(j).size()).isGreaterThan(20);
      List<List<Object>> want = new ArrayList<>(expected.subList(5, 7));
      want.addAll(expected.subList(12_345, 20_000));
      assertThat(lanceReadRanges(j, List.of(org.lance.util.Range.of(5, 7), org.lance.util.Range.of(12_345, 20_000))))
          .isEqualTo(want);
      Path l = dir.resolve("lp.lance");
      lanceWrite(l, root);
      assertThat(javelinRead(l)).isEqualTo(expected);
      assertThat(javelinTake(l, new long[] {29_999, 3, 15_000, 3})).containsExactly(expected.get(29_999),
          expected.get(3), expected.get(15_000), expected.get(3));
    }
  }

  /** Pages with no valid item but rep/def levels to keep: Javelin to lance-core. */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.MethodSource("allNullCases")
  void allNullJavelinToLance(LanceCase c) throws Exception {
    Schema schema = new Schema(List.of(c.field));
    ArrowData.Gen g = new ArrowData.Gen(c.name.hashCode());
    g.nullRate = c.nullRate;
    g.emptyRate = c.emptyRate;
    g.alwaysNull.add("null_a");
    g.alwaysNull.add("null_item");
    try (VectorSchemaRoot root = ArrowData.root(schema, ArrowData.randomRows(schema, c.rows, g), allocator)) {
      Path f = dir.resolve("j.lance");
      javelinWrite(f, root, 4096);
      List<List<Object>> expected = rows(root);
      assertThat(javelinRead(f)).isEqualTo(expected);
      assertThat(lanceRead(f)).isEqualTo(expected);
    }
  }

  /** Pages with no valid item but rep/def levels to keep: lance-core to Javelin. */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.MethodSource("allNullCases")
  void allNullLanceToJavelin(LanceCase c) throws Exception {
    Schema schema = new Schema(List.of(uncompressed(c.field)));
    ArrowData.Gen g = new ArrowData.Gen(c.name.hashCode());
    g.nullRate = c.nullRate;
    g.emptyRate = c.emptyRate;
    g.alwaysNull.add("null_a");
    g.alwaysNull.add("null_item");
    try (VectorSchemaRoot root = ArrowData.root(schema, ArrowData.randomRows(schema, c.rows, g), allocator)) {
      Path f = dir.resolve("l.lance");
      lanceWrite(f, root);
      List<List<Object>> expected = rows(root);
      assertThat(javelinRead(f)).isEqualTo(expected);
    }
  }

  /** lance-core writes (uncompressed) data; Javelin reads equal values, whole and by take. */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.MethodSource("lanceCases")
  void lanceToJavelin(LanceCase c) throws Exception {
    Schema schema = new Schema(List.of(uncompressed(c.field)));
    ArrowData.Gen g = new ArrowData.Gen(c.name.hashCode());
    g.nullRate = c.nullRate;
    g.emptyRate = c.emptyRate;
    g.minString = c.minString;
    g.maxString = c.maxString;
    try (VectorSchemaRoot root = ArrowData.root(schema, ArrowData.randomRows(schema, c.rows, g), allocator)) {
      Path f = dir.resolve("l.lance");
      lanceWrite(f, root);
      List<String> layouts = layouts(f);
      assertThat(layouts).as("layouts lance-core chose").noneMatch(l -> l.contains("bitpacking") || l.contains("fsst")
          || l.contains("dictionary") || l.contains("rle") || l.contains("general"));
      List<List<Object>> expected = rows(root);
      assertThat(javelinRead(f)).as(layouts.toString()).isEqualTo(expected);
      Random r = new Random(7);
      long[] take = new long[50];
      List<List<Object>> want = new ArrayList<>();
      for (int i = 0; i < take.length; i++) {
        take[i] = r.nextInt(c.rows);
        want.add(expected.get((int) take[i]));
      }
      assertThat(javelinTake(f, take)).isEqualTo(want);
    }
  }
}
