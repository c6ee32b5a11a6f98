package dev.javelin.format.internal.v21;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.internal.container.FileMetadata;
import dev.javelin.format.proto.Encodings21.PageLayout;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.io.LocalInputFile;
import dev.javelin.io.LocalOutputFile;
import dev.javelin.testing.ArrowData;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class V21EdgeCaseTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private List<List<Object>> roundTrip(Schema schema, List<Object[]> rows, long pageBytes) throws Exception {
    try (VectorSchemaRoot root = ArrowData.root(schema, rows, allocator)) {
      Path f = V21Fixtures.write(dir.resolve("e" + System.nanoTime() + ".lance"), V21Fixtures.v21(pageBytes), root);
      List<List<Object>> expected = V21Fixtures.rows(root);
      assertThat(V21Fixtures.readAll(allocator, f, 97)).isEqualTo(expected);
      return expected;
    }
  }

  static List<String> layouts(Path file) throws Exception {
    List<String> out = new ArrayList<>();
    try (LocalInputFile in = LocalInputFile.open(file)) {
      for (ColumnMetadata c : FileMetadata.read(in).columns()) {
        for (ColumnMetadata.Page p : c.getPagesList()) {
          PageLayout l = PageLayout.parseFrom(Any.parseFrom(p.getEncoding().getDirect().getEncoding()).getValue());
          out.add(l.getLayoutCase().name());
        }
      }
    }
    return out;
  }

  @Test
  void zeroRows() throws Exception {
    Schema schema = new Schema(List.of(ArrowData.field("i", new ArrowType.Int(32, true)),
        ArrowData.list("l", ArrowData.struct("item", ArrowData.field("a", ArrowType.Utf8.INSTANCE)))));
    try (VectorSchemaRoot root = ArrowData.root(schema, List.of(), allocator)) {
      Path empty = dir.resolve("none.lance");
      try (LanceFileWriter w = LanceFileWriter.create(new LocalOutputFile(empty), V21Fixtures.schemaOf(root),
          V21Fixtures.v21())) {
        // no batches at all
      }
      Path zeroBatch = V21Fixtures.write(dir.resolve("zero.lance"), V21Fixtures.v21(), root);
      for (Path f : List.of(empty, zeroBatch)) {
        try (LanceFileReader r = LanceFileReader.open(f, allocator)) {
          assertThat(r.numRows()).isZero();
          try (VectorSchemaRoot t = r.take(new long[0], null)) {
            assertThat(t.getRowCount()).isZero();
          }
        }
        assertThat(V21Fixtures.readAll(allocator, f, 10)).isEmpty();
      }
    }
  }

  @Test
  void nullsAtEveryLevel() throws Exception {
    Field leaf = ArrowData.field("v", new ArrowType.Int(32, true));
    Field schemaField = ArrowData.list("l", ArrowData.struct("s", ArrowData.list("inner", leaf),
        ArrowData.field("t", ArrowType.Utf8.INSTANCE)));
    Schema schema = new Schema(List.of(schemaField));
    List<Object[]> rows = new ArrayList<>();
    rows.add(new Object[] {null});
    rows.add(new Object[] {List.of()});
    rows.add(new Object[] {one(null)});
    rows.add(new Object[] {one(new Object[] {null, null})});
    rows.add(new Object[] {one(new Object[] {List.of(), "x".getBytes()})});
    rows.add(new Object[] {one(new Object[] {Arrays.asList(null, null), null})});
    rows.add(new Object[] {Arrays.asList(new Object[] {one(bytes(7)), "y".getBytes()}, new Object[] {null, null})});
    rows.add(new Object[] {Arrays.asList(null, new Object[] {Arrays.asList(bytes(1), null, bytes(3)), "z".getBytes()})});
    List<Object[]> many = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      many.addAll(rows);
    }
    roundTrip(schema, many, 32 << 20);
    roundTrip(schema, many, 1024);
  }

  // A one-element list (List.of rejects nulls, and varargs would spread an Object[]).
  private static List<Object> one(Object x) {
    List<Object> l = new ArrayList<>();
    l.add(x);
    return l;
  }

  private static byte[] bytes(int v) {
    return new byte[] {(byte) v, 0, 0, 0};
  }

  @Test
  void allNullStructsAndLists() throws Exception {
    Schema schema = new Schema(List.of(
        ArrowData.struct("s", ArrowData.field("a", new ArrowType.Int(8, true)), ArrowData.field("b", ArrowType.Utf8.INSTANCE)),
        ArrowData.list("l", ArrowData.field("item", new ArrowType.Int(64, true))),
        ArrowData.fsl("f", 3, ArrowData.field("item", ArrowType.Bool.INSTANCE))));
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      rows.add(new Object[] {null, i % 2 == 0 ? null : List.of(), null});
    }
    roundTrip(schema, rows, 32 << 20);
  }

  @Test
  void veryLargePages() throws Exception {
    Schema schema = new Schema(List.of(ArrowData.field("x", new ArrowType.Int(64, true)),
        ArrowData.field("s", ArrowType.LargeUtf8.INSTANCE)));
    ArrowData.Gen g = new ArrowData.Gen(5);
    g.maxString = 40;
    List<Object[]> rows = ArrowData.randomRows(schema, 400_000, g);
    try (VectorSchemaRoot root = ArrowData.root(schema, rows, allocator)) {
      Path f = V21Fixtures.write(dir.resolve("big.lance"), V21Fixtures.v21(), root);
      assertThat(layouts(f)).hasSize(2);
      List<List<Object>> expected = V21Fixtures.rows(root);
      assertThat(V21Fixtures.readAll(allocator, f, 65536)).isEqualTo(expected);
      try (LanceFileReader r = LanceFileReader.open(f, allocator);
          VectorSchemaRoot t = r.take(new long[] {399_999, 0, 200_001, 200_001}, null)) {
        assertThat(V21Fixtures.rows(t)).containsExactly(expected.get(399_999), expected.get(0), expected.get(200_001),
            expected.get(200_001));
      }
    }
  }

  @Test
  void manyEmptyListsBeforeAValueFallBackToFullZip() throws Exception {
    Field f = ArrowData.list("ll", ArrowData.list("item", ArrowData.field("item", new ArrowType.Int(32, true))));
    Schema schema = new Schema(List.of(f));
    List<Object> outer = new ArrayList<>(Collections.nCopies(40_000, List.of()));
    outer.add(one(bytes(5)));
    List<Object[]> rows = new ArrayList<>();
    rows.add(new Object[] {one(one(bytes(1)))});
    rows.add(new Object[] {outer});
    rows.add(new Object[] {one(Arrays.asList(bytes(2), bytes(3)))});
    try (VectorSchemaRoot root = ArrowData.root(schema, rows, allocator)) {
      Path file = V21Fixtures.write(dir.resolve("fallback.lance"), V21Fixtures.v21(), root);
      assertThat(layouts(file)).containsExactly("FULL_ZIP_LAYOUT");
      assertThat(V21Fixtures.readAll(allocator, file, 2)).isEqualTo(V21Fixtures.rows(root));
    }
  }

  /** Rows whose lists span many chunks: chunks that are all continuation, ranges cutting them. */
  @Test
  void rowsSpanningManyChunks() throws Exception {
    Schema schema = new Schema(List.of(
        ArrowData.list("l", ArrowData.field("item", new ArrowType.Int(32, true))),
        ArrowData.list("s", ArrowData.field("item", ArrowType.Utf8.INSTANCE)),
        ArrowData.list("ll", ArrowData.list("item", ArrowData.field("item", new ArrowType.Int(8, true))))));
    java.util.Random r = new java.util.Random(3);
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      int n = i % 7 == 3 ? 3000 + r.nextInt(9000) : r.nextInt(5);
      Object[] row = new Object[3];
      for (int c = 0; c < 3; c++) {
        if (r.nextInt(10) == 0) {
          row[c] = null;
          continue;
        }
        List<Object> items = new ArrayList<>();
        for (int k = 0; k < n; k++) {
          if (r.nextInt(20) == 0) {
            items.add(null);
          } else if (c == 0) {
            items.add(bytes(r.nextInt()));
          } else if (c == 1) {
            items.add(("v" + r.nextInt(1000)).getBytes());
          } else {
            items.add(r.nextInt(50) == 0 ? List.of() : one(new byte[] {(byte) k}));
          }
        }
        row[c] = items;
      }
      rows.add(row);
    }
    try (VectorSchemaRoot root = ArrowData.root(schema, rows, allocator)) {
      List<List<Object>> expected = V21Fixtures.rows(root);
      for (long pageBytes : new long[] {32 << 20, 50_000}) {
        Path f = V21Fixtures.write(dir.resolve("span" + pageBytes + ".lance"), V21Fixtures.v21(pageBytes), root);
        assertThat(V21Fixtures.readAll(allocator, f, 1)).isEqualTo(expected);
        assertThat(V21Fixtures.readAll(allocator, f, 7)).isEqualTo(expected);
        try (LanceFileReader reader = LanceFileReader.open(f, allocator)) {
          for (int a = 0; a < 60; a += 5) {
            for (int b = a + 1; b <= 60; b += 13) {
              List<List<Object>> got = new ArrayList<>();
              try (org.apache.arrow.vector.ipc.ArrowReader it = reader.read(
                  dev.javelin.format.ReadOptions.builder().rows(a, b).batchSize(3).build())) {
                while (it.loadNextBatch()) {
                  got.addAll(V21Fixtures.rows(it.getVectorSchemaRoot()));
                }
              }
              assertThat(got).as("rows %s..%s", a, b).isEqualTo(expected.subList(a, b));
            }
          }
          long[] take = {3, 10, 11, 17, 24, 31, 38, 45, 52, 59};
          try (VectorSchemaRoot t = reader.take(take, null)) {
            List<List<Object>> want = new ArrayList<>();
            for (long x : take) {
              want.add(expected.get((int) x));
            }
            assertThat(V21Fixtures.rows(t)).isEqualTo(want);
          }
        }
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 7, 8, 16, 63, 64, 65, 128, 300, 768, 1024, 1536})
  void fixedSizeListWidths(int dim) throws Exception {
    Field floats = ArrowData.fsl("v", dim,
        ArrowData.field("item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)));
    Field bools = ArrowData.fsl("b", dim, ArrowData.field("item", ArrowType.Bool.INSTANCE));
    Field bytes = ArrowData.fsl("u", dim, ArrowData.field("item", new ArrowType.Int(8, false)));
    Schema schema = new Schema(List.of(floats, bools, bytes));
    ArrowData.Gen g = new ArrowData.Gen(dim);
    g.nullRate = 0.05;
    roundTrip(schema, ArrowData.randomRows(schema, 300, g), 32 << 20);
    roundTrip(schema, ArrowData.randomRows(schema, 300, g), 20_000);
  }
}
