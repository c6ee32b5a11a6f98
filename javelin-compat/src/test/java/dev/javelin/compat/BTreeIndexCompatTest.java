package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.IndexInfo;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.index.IndexType;
import dev.javelin.index.internal.btree.BTreeIndex;
import dev.javelin.index.internal.btree.ScalarQuery;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.testing.Readers;
import dev.javelin.testing.TestAllocator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.index.IndexParams;
import org.lance.index.OptimizeOptions;
import org.lance.index.scalar.BTreeIndexParams;
import org.lance.ipc.ScanOptions;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/** BTree indices built by lance-core 7.0.0 and queried by Javelin, and the other way round. */
class BTreeIndexCompatTest {
  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      Field.nullable("n", new ArrowType.Int(32, true)),
      Field.nullable("s", ArrowType.Utf8.INSTANCE)));
  static final int ROWS_PER_FILE = 1000;

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  // Row r: n = r % 97 - 40 (null when r % 11 == 0), s = "k" + r % 53 (null when r % 7 == 0).
  static Integer n(long r) {
    return r % 11 == 0 ? null : (int) (r % 97) - 40;
  }

  static String s(long r) {
    return r % 7 == 0 ? null : "k" + r % 53;
  }

  private List<VectorSchemaRoot> batches(long start, int total) {
    List<VectorSchemaRoot> out = new ArrayList<>();
    for (long b = start; b < start + total; b += 500) {
      int count = (int) Math.min(500, start + total - b);
      VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
      root.allocateNew();
      for (int i = 0; i < count; i++) {
        long r = b + i;
        ((BigIntVector) root.getVector("id")).setSafe(i, r);
        if (n(r) != null) {
          ((IntVector) root.getVector("n")).setSafe(i, n(r));
        } else {
          ((IntVector) root.getVector("n")).setNull(i);
        }
        if (s(r) != null) {
          ((VarCharVector) root.getVector("s")).setSafe(i, s(r).getBytes(StandardCharsets.UTF_8));
        } else {
          ((VarCharVector) root.getVector("s")).setNull(i);
        }
      }
      root.setRowCount(count);
      out.add(root);
    }
    return out;
  }

  private void lanceWrite(Path path, org.lance.WriteParams.WriteMode mode, long start, int rows) throws Exception {
    List<VectorSchemaRoot> data = batches(start, rows);
    try (ArrowReader reader = readerOf(data)) {
      org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString()).mode(mode)
          .maxRowsPerFile(ROWS_PER_FILE).execute().close();
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  /** An ArrowReader of this test's schema over batches it does not own, to feed lance-core. */
  private ArrowReader readerOf(List<VectorSchemaRoot> batches) {
    return Readers.readerOf(allocator, SCHEMA, batches);
  }

  /** Predicates with their brute-force meaning (nulls never match a comparison). */
  record Case<T>(String sql, ScalarQuery query, Predicate<T> test, boolean matchesNull) {}

  static final List<Case<Integer>> INT_CASES = List.of(
      new Case<>("n = 5", ScalarQuery.equalTo(5), x -> x == 5, false),
      new Case<>("n = -40", ScalarQuery.equalTo(-40), x -> x == -40, false),
      new Case<>("n = 1000", ScalarQuery.equalTo(1000), x -> x == 1000, false),
      new Case<>("n < 0", ScalarQuery.lessThan(0), x -> x < 0, false),
      new Case<>("n <= 0", ScalarQuery.lessOrEqual(0), x -> x <= 0, false),
      new Case<>("n > 50", ScalarQuery.greaterThan(50), x -> x > 50, false),
      new Case<>("n >= 56", ScalarQuery.greaterOrEqual(56), x -> x >= 56, false),
      new Case<>("n BETWEEN -5 AND 5", ScalarQuery.between(-5, 5), x -> x >= -5 && x <= 5, false),
      new Case<>("n IN (1, 2, 99)", ScalarQuery.in(List.of(1, 2, 99)), x -> x == 1 || x == 2 || x == 99, false),
      new Case<>("n IS NULL", ScalarQuery.isNull(), x -> false, true));

  static final List<Case<String>> STRING_CASES = List.of(
      new Case<>("s = 'k7'", ScalarQuery.equalTo("k7"), x -> x.equals("k7"), false),
      new Case<>("s < 'k2'", ScalarQuery.lessThan("k2"), x -> x.compareTo("k2") < 0, false),
      new Case<>("s > 'k5'", ScalarQuery.greaterThan("k5"), x -> x.compareTo("k5") > 0, false),
      new Case<>("s BETWEEN 'k1' AND 'k3'", ScalarQuery.between("k1", "k3"),
          x -> x.compareTo("k1") >= 0 && x.compareTo("k3") <= 0, false),
      new Case<>("s IN ('k0', 'k52', 'zz')", ScalarQuery.in(List.of("k0", "k52", "zz")),
          x -> x.equals("k0") || x.equals("k52"), false),
      new Case<>("s IS NULL", ScalarQuery.isNull(), x -> false, true));

  private static <T> TreeSet<Long> bruteIds(long rows, java.util.function.LongFunction<T> column, Case<T> c) {
    TreeSet<Long> out = new TreeSet<>();
    for (long r = 0; r < rows; r++) {
      T v = column.apply(r);
      if (v == null ? c.matchesNull() : c.test().test(v)) {
        out.add(r);
      }
    }
    return out;
  }

  private static Roaring64NavigableMap addresses(TreeSet<Long> ids) {
    Roaring64NavigableMap out = new Roaring64NavigableMap();
    for (long r : ids) {
      out.addLong(((r / ROWS_PER_FILE) << 32) | (r % ROWS_PER_FILE));
    }
    return out;
  }

  @Test
  void javelinQueriesBTreesLanceBuilt() throws Exception {
    Path path = dir.resolve("ds");
    lanceWrite(path, org.lance.WriteParams.WriteMode.CREATE, 0, 3000);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      IndexParams params = IndexParams.builder().setScalarIndexParams(BTreeIndexParams.builder().build()).build();
      lance.createIndex(List.of("n"), org.lance.index.IndexType.BTREE, Optional.of("n_idx"), params, false);
      lance.createIndex(List.of("s"), org.lance.index.IndexType.BTREE, Optional.of("s_idx"), params, false);
    }
    Dataset ds = Dataset.open(path, allocator);
    assertThat(ds.indices()).extracting(IndexInfo::name, IndexInfo::type, IndexInfo::fields)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("n_idx", IndexType.BTREE, List.of("n")),
            org.assertj.core.groups.Tuple.tuple("s_idx", IndexType.BTREE, List.of("s")));
    assertThat(ds.indices().get(0).fragments()).containsExactly(0L, 1L, 2L);
    LocalObjectStore store = new LocalObjectStore(path);
    try (BTreeIndex n = BTreeIndex.open(store, ds.indices().get(0).uuid(), allocator);
        BTreeIndex s = BTreeIndex.open(store, ds.indices().get(1).uuid(), allocator)) {
      for (Case<Integer> c : INT_CASES) {
        assertThat(n.search(c.query())).as(c.sql()).isEqualTo(addresses(bruteIds(3000, BTreeIndexCompatTest::n, c)));
      }
      for (Case<String> c : STRING_CASES) {
        assertThat(s.search(c.query())).as(c.sql()).isEqualTo(addresses(bruteIds(3000, BTreeIndexCompatTest::s, c)));
      }
    }
  }

  private TreeSet<Long> lanceIds(org.lance.Dataset lance, String filter, boolean useIndex) throws Exception {
    TreeSet<Long> out = new TreeSet<>();
    try (var scanner = lance.newScan(new ScanOptions.Builder().columns(List.of("id")).filter(filter)
        .useScalarIndex(useIndex).collectStats(true).build());
        ArrowReader r = scanner.scanBatches()) {
      while (r.loadNextBatch()) {
        BigIntVector id = (BigIntVector) r.getVectorSchemaRoot().getVector("id");
        for (int i = 0; i < id.getValueCount(); i++) {
          assertThat(out.add(id.get(i))).as("duplicate id %d for %s", id.get(i), filter).isTrue();
        }
      }
    }
    return out;
  }

  private void checkLanceFilters(org.lance.Dataset lance, long rows) throws Exception {
    for (Case<Integer> c : INT_CASES) {
      assertThat(lanceIds(lance, c.sql(), true)).as(c.sql()).isEqualTo(bruteIds(rows, BTreeIndexCompatTest::n, c));
    }
    for (Case<String> c : STRING_CASES) {
      assertThat(lanceIds(lance, c.sql(), true)).as(c.sql()).isEqualTo(bruteIds(rows, BTreeIndexCompatTest::s, c));
    }
  }

  @Test
  void lanceUsesBTreesJavelinBuiltAndUpdatesThem() throws Exception {
    Path path = dir.resolve("ds");
    List<VectorSchemaRoot> data = batches(0, 3000);
    Dataset ds;
    try {
      ds = Dataset.create(path, data, WriteParams.builder().fileVersion(LanceFileVersion.V2_1)
          .maxRowsPerFile(ROWS_PER_FILE).build(), allocator);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
    ds = ds.createIndex("n", IndexType.BTREE).createIndex("s", IndexType.BTREE, "by_s");
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      List<org.lance.index.Index> indexes = lance.getIndexes();
      assertThat(indexes).extracting(org.lance.index.Index::name).containsExactly("n_idx", "by_s");
      assertThat(indexes).extracting(i -> i.uuid().toString())
          .containsExactly(ds.indices().get(0).uuid(), ds.indices().get(1).uuid());
      assertThat(indexes).extracting(org.lance.index.Index::fields).containsExactly(List.of(1), List.of(2));
      assertThat(indexes).extracting(org.lance.index.Index::indexType)
          .containsOnly(org.lance.index.IndexType.BTREE);
      assertThat(indexes.get(0).fragments()).contains(List.of(0, 1, 2));
      Map<String, Object> stats = lance.getIndexStatistics("n_idx");
      assertThat(((Number) stats.get("num_indexed_rows")).longValue()).isEqualTo(3000L);
      assertThat(((Number) stats.get("num_unindexed_rows")).longValue()).isEqualTo(0L);
      // The index is used: a scan with it compares index values and reads only matching rows.
      try (var scanner = lance.newScan(new ScanOptions.Builder().columns(List.of("id")).filter("n = 5")
          .collectStats(true).build());
          ArrowReader r = scanner.scanBatches()) {
        while (r.loadNextBatch()) {
          // drain
        }
        assertThat(scanner.getStats()).isPresent();
        // Only the matching rows are read: the index answered (a full scan reads all 3000).
        assertThat(scanner.getStats().get().getIndexComparisons()).isGreaterThan(0);
        assertThat(scanner.getStats().get().getAllCounts()).containsEntry("rows_scanned",
            (long) bruteIds(3000, BTreeIndexCompatTest::n, INT_CASES.get(0)).size());
      }
      checkLanceFilters(lance, 3000);
    }
    // lance-core appends (the new fragment is not covered), then folds it into the index.
    lanceWrite(path, org.lance.WriteParams.WriteMode.APPEND, 3000, 700);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      checkLanceFilters(lance, 3700);
      lance.optimizeIndices(OptimizeOptions.builder().build());
    }
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.getIndexes()).extracting(i -> i.fragments().orElseThrow())
          .containsOnly(List.of(0, 1, 2, 3));
      checkLanceFilters(lance, 3700);
      // And rebuilds one from scratch over it.
      IndexParams params = IndexParams.builder().setScalarIndexParams(BTreeIndexParams.builder().build()).build();
      lance.createIndex(List.of("s"), org.lance.index.IndexType.BTREE, Optional.of("by_s"), params, true);
      checkLanceFilters(lance, 3700);
    }
    // Javelin reads lance-core's merged index too.
    ds = Dataset.open(path, allocator);
    assertThat(ds.indices()).extracting(IndexInfo::name).containsExactlyInAnyOrder("n_idx", "by_s");
    IndexInfo merged = ds.indices().stream().filter(i -> i.name().equals("n_idx")).findFirst().orElseThrow();
    assertThat(merged.fragments()).containsExactly(0L, 1L, 2L, 3L);
    try (BTreeIndex n = BTreeIndex.open(new LocalObjectStore(path), merged.uuid(), allocator)) {
      for (Case<Integer> c : INT_CASES) {
        TreeSet<Long> ids = bruteIds(3700, BTreeIndexCompatTest::n, c);
        Roaring64NavigableMap want = new Roaring64NavigableMap();
        for (long r : ids) {
          want.addLong(r < 3000 ? ((r / 1000) << 32) | (r % 1000) : (3L << 32) | (r - 3000));
        }
        assertThat(n.search(c.query())).as(c.sql()).isEqualTo(want);
      }
    }
  }
}
