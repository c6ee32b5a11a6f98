package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The test harness itself: the comparison, the table, the page-encoding census, the oracle's facts. */
class HarnessTest {
  @TestAllocator BufferAllocator allocator;
  @TempDir Path dir;

  private static final Field LIST_OF_STRUCT = new Field("c0", FieldType.nullable(ArrowType.List.INSTANCE),
      List.of(new Field("item", FieldType.nullable(ArrowType.Struct.INSTANCE),
          List.of(new Field("a", FieldType.nullable(new ArrowType.Int(32, true)), null)))));

  // Rows: [[{a:0}], [{a:10},{a:11}], [{a:20},{a:21},{a:22}], ...]; row i holds i+1 structs.
  private VectorSchemaRoot listOfStruct(int rows, int changedRow, int changedItem, int newValue) {
    VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(LIST_OF_STRUCT)), allocator);
    ListVector list = (ListVector) root.getVector(0);
    list.allocateNew();
    StructVector struct = (StructVector) list.getDataVector();
    IntVector a = (IntVector) struct.getChild("a");
    int item = 0;
    for (int r = 0; r < rows; r++) {
      list.startNewValue(r);
      for (int k = 0; k <= r; k++) {
        struct.setIndexDefined(item);
        a.setSafe(item, r == changedRow && k == changedItem ? newValue : r * 10 + k);
        item++;
      }
      list.endValue(r, r + 1);
    }
    struct.setValueCount(item);
    a.setValueCount(item);
    root.setRowCount(rows);
    return root;
  }

  @Test
  void equalTablesHaveNoDifference() {
    try (Table e = Table.of(listOfStruct(5, -1, -1, 0)); Table a = Table.of(listOfStruct(5, -1, -1, 0))) {
      assertThat(VectorAssertions.firstDifference(e, null, null, a)).isNull();
      VectorAssertions.assertTablesEqual(e, a, "same");
    }
  }

  @Test
  void differenceNamesColumnRowPathAndValues() {
    try (Table e = Table.of(listOfStruct(5, -1, -1, 0)); Table a = Table.of(listOfStruct(5, 3, 2, 99))) {
      assertThatThrownBy(() -> VectorAssertions.assertTablesEqual(e, a, "seed=7"))
          .isInstanceOf(AssertionError.class)
          .hasMessageStartingWith("Column 'c0' (List) row 3 at [2].a: expected 32 but was 99")
          .hasMessageEndingWith("[seed=7]");
    }
  }

  @Test
  void differenceInSelectedRowsNamesBothRowNumbers() {
    try (Table e = Table.of(listOfStruct(5, -1, -1, 0)); Table a = Table.of(listOfStruct(5, 4, 0, 7))) {
      // actual row 1 should hold expected row 4, actual row 0 expected row 0; actual has 5 rows.
      assertThat(VectorAssertions.firstDifference(e, new long[] {4, 3, 2, 1, 0}, null, a))
          .startsWith("Column 'c0' (List) row 0 (expected row 4) at [0].a: expected 40 but was 0; whole value: "
              + "expected [{a=40}, {a=41}, {a=42}, {a=43}, {a=44}] but was [{a=0}] (4 rows of 5 differ");
    }
  }

  @Test
  void rowCountAndSchemaDifferencesAreReported() {
    try (Table e = Table.of(listOfStruct(5, -1, -1, 0)); Table a = Table.of(listOfStruct(4, -1, -1, 0))) {
      assertThat(VectorAssertions.firstDifference(e, null, null, a)).isEqualTo("Row count: expected 5 but was 4");
      assertThat(VectorAssertions.firstDifference(e, new long[] {0, 1, 2, 3}, null, a)).isNull();
    }
    Schema ints = new Schema(List.of(new Field("c0", FieldType.nullable(new ArrowType.Int(64, true)), null)));
    assertThat(VectorAssertions.schemaDifference(new Schema(List.of(LIST_OF_STRUCT)), ints))
        .isEqualTo("Field c0: expected type List but was Int(64, true)");
    Schema notNull = new Schema(List.of(new Field("c0", FieldType.notNullable(new ArrowType.Int(64, true)), null)));
    assertThat(VectorAssertions.schemaDifference(ints, notNull, true))
        .isEqualTo("Field c0: expected nullable but was not null");
    assertThat(VectorAssertions.schemaDifference(ints, notNull, false)).isNull();
  }

  @Test
  void valuesCompareByContent() {
    assertThat(VectorAssertions.normalize(new Text("héllo"))).isEqualTo(VectorAssertions.normalize("héllo"));
    assertThat(VectorAssertions.normalize(new byte[] {1, 2, 3}))
        .isEqualTo(VectorAssertions.normalize(new byte[] {1, 2, 3}))
        .isNotEqualTo(VectorAssertions.normalize(new byte[] {1, 2, 4}));
    assertThat(VectorAssertions.normalize(List.of(new Text("a"), new byte[] {9})))
        .isEqualTo(VectorAssertions.normalize(List.of("a", new byte[] {9})));
  }

  @Test
  void largeTypesCompareByValue() {
    Schema s = new Schema(List.of(new Field("b", FieldType.nullable(ArrowType.LargeBinary.INSTANCE), null)));
    try (Table e = Table.of(largeBinary(s, "xyz")); Table a = Table.of(largeBinary(s, "xyz"));
        Table other = Table.of(largeBinary(s, "xyZ"))) {
      assertThat(VectorAssertions.firstDifference(e, null, null, a)).isNull();
      assertThat(VectorAssertions.firstDifference(e, null, null, other))
          .isEqualTo("Column 'b' (LargeBinary) row 1: expected 0x78797a but was 0x78795a");
    }
  }

  private VectorSchemaRoot largeBinary(Schema s, String second) {
    VectorSchemaRoot root = VectorSchemaRoot.create(s, allocator);
    LargeVarBinaryVector v = (LargeVarBinaryVector) root.getVector(0);
    v.allocateNew();
    v.setNull(0);
    v.setSafe(1, second.getBytes(StandardCharsets.UTF_8));
    root.setRowCount(2);
    return root;
  }

  @Test
  void tableFindsRowsAcrossBatchesIncludingEmptyOnes() throws IOException {
    Path file = dir.resolve("t.lance");
    try (Table t = Table.of(listOfStruct(30, -1, -1, 0))) {
      List<VectorSchemaRoot> parts = Table.slices(t.batches().get(0), 7);
      assertThat(parts).hasSize(5);
      Table.closeAll(parts);
      LanceOracle.write(file, LanceFileVersion.V2_1, allocator, t.batches());
      // lance-core hands back batches of 1000 rows; ask for ranges so batches are small and some empty.
      try (Table back = LanceOracle.read(file, allocator, null,
          List.of(new long[] {0, 3}, new long[] {5, 5}, new long[] {3, 30}))) {
        assertThat(back.rowCount()).isEqualTo(30);
        assertThat(VectorAssertions.normalize(back.getObject(0, 29)).toString()).startsWith("[{a=290}");
        VectorAssertions.assertTablesEqual(t, back, "ranges");
      }
    }
  }

  @Test
  void lance20ReadsNullStructsBackAsStructs() throws IOException {
    // Why the 2.0 profile never makes null structs: 2.0 has no place for struct validity.
    Schema s = new Schema(List.of(LIST_OF_STRUCT.getChildren().get(0)));
    VectorSchemaRoot root = VectorSchemaRoot.create(s, allocator);
    StructVector struct = (StructVector) root.getVector(0);
    struct.allocateNew();
    ((IntVector) struct.getChild("a")).setSafe(0, 5);
    struct.setNull(0);
    root.setRowCount(1);
    Path file = dir.resolve("s.lance");
    try (Table t = Table.of(root)) {
      assertThat(t.getObject(0, 0)).isNull();
      LanceOracle.write(file, LanceFileVersion.V2_0, allocator, t.batches());
      try (Table back = LanceOracle.readAll(file, allocator)) {
        assertThat(VectorAssertions.normalize(back.getObject(0, 0))).isEqualTo(Map.of("a", 5));
      }
    }
  }

  @Test
  void sameSeedGivesSameData() {
    try (Sample a = Sample.generate(42, RandomData.V2_1, allocator);
        Sample b = Sample.generate(42, RandomData.V2_1, allocator)) {
      assertThat(a.describe()).isEqualTo(b.describe());
      VectorAssertions.assertTablesEqual(a.expected, b.expected, "seed 42 twice");
    }
  }

  @Test
  void generatorCoversEveryTypeAndShape() {
    java.util.Set<String> seen = new java.util.TreeSet<>();
    int empty = 0;
    int large = 0;
    for (long seed = 0; seed < 400; seed++) {
      RandomData data = new RandomData(seed, RandomData.V2_1);
      for (Field f : data.schema().getFields()) {
        collect(f, null, seen);
      }
      int rows = data.rowCount();
      empty += rows == 0 ? 1 : 0;
      large += rows >= 1000 ? 1 : 0;
    }
    assertThat(seen).contains("Bool", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64",
        "HalfFloat", "Float", "Double", "Utf8", "LargeUtf8", "Binary", "LargeBinary", "Date(DAY)",
        "Date(MILLISECOND)", "Time(SECOND, 32)", "Time(MILLISECOND, 32)", "Time(MICROSECOND, 64)",
        "Time(NANOSECOND, 64)", "Decimal", "FixedSizeBinary", "FixedSizeList(2)", "FixedSizeList(16)",
        "FixedSizeList(128)", "List", "LargeList", "Struct", "List<Struct>", "Struct<List>", "List<List<Int32>>");
    for (String unit : new String[] {"SECOND", "MILLISECOND", "MICROSECOND", "NANOSECOND"}) {
      assertThat(seen).contains("Timestamp(" + unit + ", null)", "Timestamp(" + unit + ", UTC)");
    }
    assertThat(empty).as("row counts of 0").isPositive();
    assertThat(large).as("row counts of 1000 or more").isPositive();
  }

  private static void collect(Field f, Field parent, java.util.Set<String> seen) {
    ArrowType t = f.getType();
    String name;
    if (t instanceof ArrowType.Int) {
      ArrowType.Int i = (ArrowType.Int) t;
      name = (i.getIsSigned() ? "Int" : "UInt") + i.getBitWidth();
    } else if (t instanceof ArrowType.FloatingPoint) {
      name = new String[] {"HalfFloat", "Float", "Double"}[((ArrowType.FloatingPoint) t).getPrecision().ordinal()];
    } else if (t instanceof ArrowType.Decimal || t instanceof ArrowType.FixedSizeBinary) {
      name = t.getTypeID().name();
    } else if (t instanceof ArrowType.Timestamp) {
      ArrowType.Timestamp ts = (ArrowType.Timestamp) t;
      name = "Timestamp(" + ts.getUnit() + ", " + (ts.getTimezone() == null ? "null" : ts.getTimezone()) + ")";
    } else {
      name = t.toString();
    }
    seen.add(name);
    if (parent != null) {
      String p = parent.getType().getTypeID().name();
      if ((p.equals("List") || p.equals("LargeList")) && t.getTypeID() == ArrowType.ArrowTypeID.Struct) {
        seen.add("List<Struct>");
      }
      if (p.equals("Struct") && (t.getTypeID() == ArrowType.ArrowTypeID.List)) {
        seen.add("Struct<List>");
      }
      if (p.equals("List") && t.getTypeID() == ArrowType.ArrowTypeID.List
          && f.getChildren().get(0).getType().equals(new ArrowType.Int(32, true))) {
        seen.add("List<List<Int32>>");
      }
    }
    for (Field c : f.getChildren()) {
      collect(c, f, seen);
    }
  }

  @Test
  void generatorMakesNullsAtEveryLevelAndEmptyLists() {
    int nullStructs = 0;
    int nullLists = 0;
    int emptyLists = 0;
    int nullItems = 0;
    for (long seed = 0; seed < 60; seed++) {
      try (Sample s = Sample.generate(seed, RandomData.V2_1, allocator)) {
        for (org.apache.arrow.vector.FieldVector v : s.expected.batches().get(0).getFieldVectors()) {
          int[] c = countNulls(v);
          nullStructs += c[0];
          nullLists += c[1];
          emptyLists += c[2];
          nullItems += c[3];
        }
      }
    }
    assertThat(nullStructs).as("null structs").isPositive();
    assertThat(nullLists).as("null lists").isPositive();
    assertThat(emptyLists).as("empty lists").isPositive();
    assertThat(nullItems).as("null values inside lists").isPositive();
  }

  // {null structs, null lists, empty lists, null values inside lists} in a vector and its children.
  private static int[] countNulls(org.apache.arrow.vector.FieldVector v) {
    int[] out = new int[4];
    int n = v.getValueCount();
    if (v instanceof StructVector) {
      out[0] += v.getNullCount();
    }
    if (v instanceof ListVector || v instanceof org.apache.arrow.vector.complex.LargeListVector) {
      out[1] += v.getNullCount();
      for (int i = 0; i < n; i++) {
        Object o = v.getObject(i);
        out[2] += o != null && ((List<?>) o).isEmpty() ? 1 : 0;
      }
      out[3] += v.getChildrenFromFields().get(0).getNullCount();
    }
    for (org.apache.arrow.vector.FieldVector c : v.getChildrenFromFields()) {
      int[] k = countNulls(c);
      for (int i = 0; i < 4; i++) {
        out[i] += k[i];
      }
    }
    return out;
  }

  @Test
  void pageEncodingsTellPlainFromCompressedPages() throws IOException {
    Schema plainSchema = RandomData.withMetadata(
        new Schema(List.of(new Field("x", FieldType.notNullable(new ArrowType.Int(32, true)), null))),
        LanceWritesJavelinReadsTest.NO_COMPRESSION);
    Schema defaultSchema = new Schema(List.of(new Field("x", FieldType.notNullable(new ArrowType.Int(32, true)), null)));
    assertThat(encodings(plainSchema).compressive()).isEmpty();
    assertThat(encodings(plainSchema).used()).contains("mini_block", "flat");
    assertThat(encodings(defaultSchema).compressive()).containsAnyOf("inline_bitpacking", "rle");
  }

  // lance-core 2.1 file of 2000 small ints (0..99, no runs) in one column.
  private PageEncodings encodings(Schema schema) throws IOException {
    Path file = Files.createTempFile(dir, "enc", ".lance");
    Files.delete(file);
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      IntVector x = (IntVector) root.getVector(0);
      x.allocateNew(2000);
      for (int i = 0; i < 2000; i++) {
        x.set(i, (i * 37) % 100);
      }
      root.setRowCount(2000);
      LanceOracle.write(file, LanceFileVersion.V2_1, allocator, root);
    }
    RawFile raw = new RawFile(Files.readAllBytes(file));
    assertThat(raw.major).isEqualTo(2);
    assertThat(raw.minor).isEqualTo(1);
    return PageEncodings.of(raw.columns());
  }
}
