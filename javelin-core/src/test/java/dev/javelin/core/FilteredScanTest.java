package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.exceptions.ExpressionSyntaxException;
import dev.javelin.core.exceptions.ExpressionTypeException;
import dev.javelin.core.exceptions.UnknownColumnException;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.testing.MixedBatches;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Filtered scans through the public API against the same filter applied in Java to a full scan. */
class FilteredScanTest {
  static final int ROWS = 3000;

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  /** Filters on MixedBatches with the same condition in Java, as a function of the row number. */
  record Case(String sql, LongPredicate java) {}

  static boolean xNull(long r) {
    return r % 7 == 3;
  }

  static boolean sNull(long r) {
    return r % 5 == 1;
  }

  static String s(long r) {
    return "s" + r + "x".repeat((int) (r % 13));
  }

  static final List<Case> CASES = List.of(
      new Case("id < 100", r -> r < 100),
      new Case("x > 200 AND id % 2 = 0", r -> !xNull(r) && r * 0.5 > 200 && r % 2 == 0),
      new Case("s LIKE 's1%'", r -> !sNull(r) && s(r).startsWith("s1")),
      new Case("s LIKE '%xxxxxxxxxxxx'", r -> !sNull(r) && s(r).endsWith("xxxxxxxxxxxx")),
      new Case("s IS NULL OR st.a > 6000", r -> sNull(r) || (r % 9 != 2 && r * 3 > 6000)),
      new Case("NOT (x < 100)", r -> !xNull(r) && !(r * 0.5 < 100)),
      new Case("st.b IN ('b5', 'b77', 'b2999', 'nope')", r -> r == 5 || r == 77 || r == 2999),
      new Case("l IS NULL", r -> r % 11 == 4),
      new Case("id BETWEEN 650 AND 760 OR id >= 2990", r -> (r >= 650 && r <= 760) || r >= 2990),
      new Case("st.a IS NULL AND x IS NOT NULL", r -> r % 9 == 2 && !xNull(r)),
      new Case("x * 2 = id", r -> !xNull(r)),
      new Case("s >= 's2' AND s < 's3'", r -> !sNull(r) && s(r).compareTo("s2") >= 0 && s(r).compareTo("s3") < 0),
      new Case("id = -1", r -> false),
      new Case("TRUE", r -> true));

  private Dataset create(LanceFileVersion v) {
    List<VectorSchemaRoot> batches = MixedBatches.batches(allocator, 0, ROWS, 700);
    try {
      // 5 fragments of 700 rows (the last shorter), read in batches of 256.
      return Dataset.create(dir.resolve("ds"), batches,
          WriteParams.builder().fileVersion(v).maxRowsPerFile(700).maxRowsPerGroup(300).build(), allocator);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  private static List<List<Object>> readAll(ArrowReader reader) throws IOException {
    try (reader) {
      List<List<Object>> out = new ArrayList<>();
      while (reader.loadNextBatch()) {
        out.addAll(MixedBatches.rows(reader.getVectorSchemaRoot()));
      }
      return out;
    }
  }

  /** The full scan's rows that pass, with the row number taken from column 0 (id). */
  private static List<List<Object>> expected(List<List<Object>> all, LongPredicate p, long offset, long limit) {
    List<List<Object>> out = new ArrayList<>();
    long skipped = 0;
    for (List<Object> row : all) {
      if (p.test(Long.parseLong((String) row.get(0)))) {
        if (skipped++ < offset) {
          continue;
        }
        if (limit >= 0 && out.size() >= limit) {
          break;
        }
        out.add(row);
      }
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void filteredScansMatchJavaFiltering(LanceFileVersion v) throws Exception {
    Dataset ds = create(v);
    List<List<Object>> all = readAll(ds.newScan().build());
    assertThat(all).hasSize(ROWS);
    Random random = new Random(42);
    for (Case c : CASES) {
      List<List<Object>> want = expected(all, c.java(), 0, -1);
      MixedBatches.assertSameRows(readAll(ds.newScan().filter(c.sql()).batchSize(256).build()), want);
      assertThat(ds.countRows(c.sql())).as(c.sql()).isEqualTo(want.size());
      // offset and limit apply after the filter, in scan order
      for (int k = 0; k < 2; k++) {
        long offset = random.nextInt(want.size() + 2);
        long limit = random.nextInt(Math.max(1, want.size())) + (k == 1 ? 1000 : 0);
        MixedBatches.assertSameRows(readAll(ds.newScan().filter(c.sql()).offset(offset).limit(limit).batchSize(256)
            .build()), expected(all, c.java(), offset, limit));
        assertThat(ds.newScan().filter(c.sql()).offset(offset).limit(limit).countRows())
            .isEqualTo(expected(all, c.java(), offset, limit).size());
      }
    }
  }

  @Test
  void filterColumnsAreReadButNotReturned() throws Exception {
    Dataset ds = create(LanceFileVersion.V2_1);
    try (ArrowReader r = ds.newScan().columns("l", "id").filter("st.a > 8000 AND s IS NOT NULL").build()) {
      assertThat(r.getVectorSchemaRoot().getSchema().getFields()).extracting(Field::getName)
          .containsExactly("l", "id");
      List<Long> ids = new ArrayList<>();
      while (r.loadNextBatch()) {
        VectorSchemaRoot root = r.getVectorSchemaRoot();
        assertThat(root.getFieldVectors()).hasSize(2);
        for (int i = 0; i < root.getRowCount(); i++) {
          ids.add((Long) root.getVector("id").getObject(i));
        }
      }
      List<Long> want = new ArrayList<>();
      for (long x = 0; x < ROWS; x++) {
        if (x % 9 != 2 && x * 3 > 8000 && !sNull(x)) {
          want.add(x);
        }
      }
      assertThat(ids).isEqualTo(want);
    }
  }

  @Test
  void offsetAndLimitEdgesWithoutAFilter() throws Exception {
    Dataset ds = create(LanceFileVersion.V2_1);
    List<List<Object>> all = readAll(ds.newScan().build());
    long[][] cases = {{0, 0}, {0, 1}, {699, 2}, {700, 700}, {2999, 5}, {3000, 5}, {5000, 1}, {0, 3000}, {1, -1}};
    for (long[] c : cases) {
      ScanBuilder scan = ds.newScan().offset(c[0]).batchSize(100);
      if (c[1] >= 0) {
        scan.limit(c[1]);
      }
      MixedBatches.assertSameRows(readAll(scan.build()), expected(all, r -> true, c[0], c[1]));
      assertThat(scan.countRows()).isEqualTo(expected(all, r -> true, c[0], c[1]).size());
    }
    assertThatThrownBy(() -> ds.newScan().limit(-1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("limit must not be negative: -1");
    assertThatThrownBy(() -> ds.newScan().offset(-2)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("offset must not be negative: -2");
  }

  @Test
  void countsWithoutColumns() {
    Dataset ds = create(LanceFileVersion.V2_1);
    assertThat(ds.countRows((String) null)).isEqualTo(ROWS);
    assertThat(ds.countRows("1 = 1")).isEqualTo(ROWS);
    assertThat(ds.countRows("1 = 0")).isZero();
    assertThat(ds.countRows("NULL")).isZero();
  }

  @Test
  void badFiltersNameTheProblem() {
    Dataset ds = create(LanceFileVersion.V2_1);
    assertThatThrownBy(() -> ds.newScan().filter("nope > 1").build())
        .isInstanceOf(UnknownColumnException.class)
        .hasMessage("Filter 'nope > 1' names column 'nope' which the dataset does not have");
    assertThatThrownBy(() -> ds.countRows("st.nope = 1"))
        .isInstanceOf(UnknownColumnException.class)
        .hasMessage("Filter 'st.nope = 1' names column 'st.nope' which the dataset does not have");
    assertThatThrownBy(() -> ds.countRows("s = 1"))
        .isInstanceOf(ExpressionTypeException.class)
        .hasMessage("Filter 's = 1' cannot compare s (string) with 1 (integer)");
    assertThatThrownBy(() -> ds.newScan().filter("id >"))
        .isInstanceOf(ExpressionSyntaxException.class)
        .hasMessage("Cannot parse 'id >' at position 5: expected a value but found the end");
  }
}
