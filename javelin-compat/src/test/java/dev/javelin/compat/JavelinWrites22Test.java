package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.WriteOptions;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;
import dev.javelin.format.proto.Encodings21.PageLayout;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.io.LocalOutputFile;
import dev.javelin.testing.ArrowData;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Javelin writes format 2.2 files; lance-core 7.0.0 reads every value back row by row, and the
 * pages are what lance-core requires and chooses in 2.2: every mini-block page says
 * {@code has_large_chunk}; each page has the layout of lance-core's 2.2 file of the same data
 * (constant pages included), its repetition and definition levels the same kind of compression
 * (run-length, bit-packed or none, in mini-block and all-null pages), and a string dictionary the
 * same compression (LZ4). Over typical
 * shapes ({@link EncShapes}) and every type and nesting of the smoke test with random data, in
 * default and small pages. Javelin reads its own files back too (whole and by takes).
 */
class JavelinWrites22Test {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  static Stream<String> shapes() {
    return EncShapes.names().stream();
  }

  static Stream<Field> everyType() {
    return V21SmokeTest.javelinToLanceFields().stream();
  }

  private void javelinWrite(Path f, VectorSchemaRoot root, long pageBytes) throws Exception {
    try (LanceFileWriter w = LanceFileWriter.create(new LocalOutputFile(f), root.getSchema(),
        WriteOptions.builder().version(LanceFileVersion.V2_2).maxPageBytes(pageBytes).build())) {
      w.write(root);
    }
  }

  private void lanceWrite(Path f, VectorSchemaRoot root) throws Exception {
    try (org.lance.file.LanceFileWriter w = org.lance.file.LanceFileWriter.open(f.toString(), allocator, null,
        Optional.of("2.2"), Map.of())) {
      w.write(root);
    }
  }

  private static List<PageLayout> layouts(Path f) throws Exception {
    List<PageLayout> out = new ArrayList<>();
    for (ColumnMetadata c : new RawFile(Files.readAllBytes(f)).columns()) {
      for (ColumnMetadata.Page p : c.getPagesList()) {
        com.google.protobuf.Any any = com.google.protobuf.Any.parseFrom(p.getEncoding().getDirect().getEncoding());
        out.add(PageLayout.parseFrom(any.getValue()));
      }
    }
    return out;
  }

  // "rep:RLE def:OUT_OF_LINE_BITPACKING" for a mini-block or all-null page; the layout's name otherwise.
  private static String levels(PageLayout l) {
    if (l.hasAllNullLayout()) {
      var a = l.getAllNullLayout();
      return "rep:" + kind(a.hasRepCompression() ? a.getRepCompression() : null)
          + " def:" + kind(a.hasDefCompression() ? a.getDefCompression() : null);
    }
    if (!l.hasMiniBlockLayout()) {
      return l.getLayoutCase().toString();
    }
    var m = l.getMiniBlockLayout();
    return "rep:" + kind(m.hasRepCompression() ? m.getRepCompression() : null)
        + " def:" + kind(m.hasDefCompression() ? m.getDefCompression() : null);
  }

  // The layout, and for an all-null layout whether it is a constant (has a value) or not.
  private static String layoutKind(PageLayout l) {
    if (l.hasAllNullLayout()) {
      boolean value = l.getAllNullLayout().hasInlineValue();
      return "ALL_NULL" + (value ? "(inline constant)" : "");
    }
    return l.getLayoutCase().toString();
  }

  private static String kind(CompressiveEncoding e) {
    return e == null ? "-" : e.getCompressionCase().toString();
  }

  private void check(VectorSchemaRoot root, String name, boolean compareLevels) throws Exception {
    List<List<Object>> expected = V21SmokeTest.rows(root);
    Path j = dir.resolve(name + "-j.lance");
    javelinWrite(j, root, WriteOptions.DEFAULT_MAX_PAGE_BYTES);
    try (LanceFileReader r = LanceFileReader.open(j, allocator)) {
      assertThat(r.version()).isEqualTo(LanceFileVersion.V2_2);
    }
    assertThat(new RawFile(Files.readAllBytes(j)).minor).isEqualTo(2);
    assertThat(EncFiles.lanceRead(j, allocator)).as(name).isEqualTo(expected);
    assertThat(EncFiles.javelinRead(j, allocator)).as(name).isEqualTo(expected);
    List<PageLayout> ours = layouts(j);
    for (PageLayout l : ours) {
      if (l.hasMiniBlockLayout()) {
        assertThat(l.getMiniBlockLayout().getHasLargeChunk()).as(name).isTrue();
      }
    }
    if (compareLevels) {
      Path l = dir.resolve(name + "-l.lance");
      lanceWrite(l, root);
      List<PageLayout> theirs = layouts(l);
      // lance-core cuts mostly_empty_lists into full-zip pages in 2.1 as well, where Javelin keeps
      // bit-packed mini-blocks (see JavelinWrites21CompressedTest).
      if (theirs.size() == ours.size() && !name.equals("mostly_empty_lists")) {
        for (int p = 0; p < ours.size(); p++) {
          PageLayout o = ours.get(p);
          PageLayout t = theirs.get(p);
          assertThat(layoutKind(o)).as("%s page %s layout", name, p).isEqualTo(layoutKind(t));
          assertThat(levels(o)).as("%s page %s levels", name, p).isEqualTo(levels(t));
          if (o.hasMiniBlockLayout() && t.hasMiniBlockLayout()) {
            if (o.getMiniBlockLayout().hasDictionary() && t.getMiniBlockLayout().hasDictionary()) {
              assertThat(kind(o.getMiniBlockLayout().getDictionary())).as("%s page %s dictionary", name, p)
                  .isEqualTo(kind(t.getMiniBlockLayout().getDictionary()));
            }
          }
        }
      }
    }
    Path small = dir.resolve(name + "-small.lance");
    javelinWrite(small, root, 4096);
    assertThat(EncFiles.lanceRead(small, allocator)).as(name + " in small pages").isEqualTo(expected);
    java.util.Random r = new java.util.Random(name.hashCode());
    long[] take = new long[40];
    List<List<Object>> taken = new ArrayList<>();
    for (int i = 0; i < take.length; i++) {
      take[i] = r.nextInt(expected.size());
      taken.add(expected.get((int) take[i]));
    }
    assertThat(EncFiles.javelinTake(small, allocator, take)).as(name).isEqualTo(taken);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shapes")
  void lanceReadsEveryShape(String shape) throws Exception {
    try (VectorSchemaRoot root = EncShapes.all().get(shape).apply(allocator, 20_000)) {
      check(root, shape, true);
    }
  }

  /** Pages of one value: lance-core 2.2 writes them as constant pages, so must Javelin. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("constants")
  void constantPages(String name) throws Exception {
    try (VectorSchemaRoot root = constant(name, 5000)) {
      check(root, "const_" + name, true);
    }
  }

  static Stream<String> constants() {
    return Stream.of("i64", "nullable_i32", "nulls_i32", "str", "nulls_str", "large_str", "bool", "fsb40",
        "struct_child", "struct_nulls", "one_row");
  }

  private VectorSchemaRoot constant(String name, int n) {
    java.util.function.Function<Field, VectorSchemaRoot> make = f -> {
      VectorSchemaRoot r = VectorSchemaRoot.create(new Schema(List.of(f)), allocator);
      r.allocateNew();
      return r;
    };
    VectorSchemaRoot root;
    switch (name) {
      case "i64": {
        root = make.apply(new Field("x", org.apache.arrow.vector.types.pojo.FieldType.notNullable(
            new org.apache.arrow.vector.types.pojo.ArrowType.Int(64, true)), null));
        var v = (org.apache.arrow.vector.BigIntVector) root.getVector(0);
        for (int i = 0; i < n; i++) {
          v.setSafe(i, -7L);
        }
        break;
      }
      case "nullable_i32":
      case "nulls_i32":
      case "one_row": {
        root = make.apply(Field.nullable("x", new org.apache.arrow.vector.types.pojo.ArrowType.Int(32, true)));
        var v = (org.apache.arrow.vector.IntVector) root.getVector(0);
        if (name.equals("one_row")) {
          n = 1;
        }
        for (int i = 0; i < n; i++) {
          if (name.equals("nulls_i32") && i % 10 == 3) {
            v.setNull(i);
          } else {
            v.setSafe(i, 42);
          }
        }
        break;
      }
      case "str":
      case "nulls_str":
      case "large_str": {
        root = make.apply(Field.nullable("x", name.equals("large_str")
            ? org.apache.arrow.vector.types.pojo.ArrowType.LargeUtf8.INSTANCE
            : org.apache.arrow.vector.types.pojo.ArrowType.Utf8.INSTANCE));
        for (int i = 0; i < n; i++) {
          byte[] b = "constant text".getBytes(java.nio.charset.StandardCharsets.UTF_8);
          if (name.equals("nulls_str") && i % 7 == 2) {
            ((org.apache.arrow.vector.VarCharVector) root.getVector(0)).setNull(i);
          } else if (root.getVector(0) instanceof org.apache.arrow.vector.VarCharVector) {
            ((org.apache.arrow.vector.VarCharVector) root.getVector(0)).setSafe(i, b);
          } else {
            ((org.apache.arrow.vector.LargeVarCharVector) root.getVector(0)).setSafe(i, b);
          }
        }
        break;
      }
      case "bool": {
        root = make.apply(Field.nullable("x", org.apache.arrow.vector.types.pojo.ArrowType.Bool.INSTANCE));
        var v = (org.apache.arrow.vector.BitVector) root.getVector(0);
        for (int i = 0; i < n; i++) {
          v.setSafe(i, 1);
        }
        break;
      }
      case "fsb40": {
        root = make.apply(Field.nullable("x", new org.apache.arrow.vector.types.pojo.ArrowType.FixedSizeBinary(40)));
        var v = (org.apache.arrow.vector.FixedSizeBinaryVector) root.getVector(0);
        byte[] b = new byte[40];
        java.util.Arrays.fill(b, (byte) 9);
        for (int i = 0; i < n; i++) {
          v.setSafe(i, b);
        }
        break;
      }
      default: {
        root = make.apply(new Field("s", org.apache.arrow.vector.types.pojo.FieldType.nullable(
            org.apache.arrow.vector.types.pojo.ArrowType.Struct.INSTANCE), List.of(
                Field.nullable("a", new org.apache.arrow.vector.types.pojo.ArrowType.Int(32, true)))));
        var s = (org.apache.arrow.vector.complex.StructVector) root.getVector(0);
        var a = (org.apache.arrow.vector.IntVector) s.getChild("a");
        for (int i = 0; i < n; i++) {
          if (name.equals("struct_nulls") && i % 9 == 4) {
            s.setNull(i);
          } else {
            s.setIndexDefined(i);
            a.setSafe(i, 5);
          }
        }
        break;
      }
    }
    root.setRowCount(n);
    return root;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("everyType")
  void lanceReadsEveryType(Field field) throws Exception {
    Schema schema = new Schema(List.of(field));
    ArrowData.Gen g = new ArrowData.Gen(field.getName().hashCode() + 22);
    try (VectorSchemaRoot root = ArrowData.root(schema,
        ArrowData.randomRows(schema, 3000, g), allocator)) {
      check(root, field.getName(), true);
    }
  }
}
