package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.IndexBuilder;
import dev.javelin.core.IndexInfo;
import dev.javelin.core.ScanPlan;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.index.IndexType;
import dev.javelin.testing.TestAllocator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.LongPredicate;
import java.util.function.UnaryOperator;
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
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.lance.index.IndexParams;
import org.lance.index.scalar.BitmapIndexParams;
import org.lance.index.scalar.ScalarIndexParams;
import org.lance.index.scalar.ZoneMapIndexParams;
import org.lance.ipc.ScanOptions;

/**
 * Bitmap, zone map and bloom filter indices both ways between Javelin and lance-core 7.0.0: an
 * index lance-core built answers Javelin's filters as Javelin's unindexed scan does, and an index
 * Javelin built is listed by lance-core with its kind and answers lance-core's filters as its
 * unindexed scan does, before and after appends the index does not cover.
 */
class ScalarIndexKindsCompatTest {
  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      Field.nullable("n", new ArrowType.Int(32, true)),
      Field.nullable("s", ArrowType.Utf8.INSTANCE)));
  static final int ROWS_PER_FILE = 1000;

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  // Row r: n rises with r in runs (zones of sorted data skip) with nulls; s has 40 values and nulls.
  static Integer n(long r) {
    return r % 13 == 0 ? null : (int) (r / 20) - 40;
  }

  static String s(long r) {
    return r % 9 == 0 ? null : "k" + r % 40;
  }

  // Deleted before the appends (rows from 3000 on are appended later).
  static boolean deleted(long r) {
    return r < 3000 && r % 10 == 3;
  }

  enum Kind {
    BITMAP(org.lance.index.IndexType.BITMAP, new BitmapIndexParams.Builder().build(), b -> b.bitmap()),
    ZONEMAP(org.lance.index.IndexType.ZONEMAP, new ZoneMapIndexParams.Builder().rowsPerZone(64).build(),
        b -> b.zonemap(64)),
    BLOOM_FILTER(org.lance.index.IndexType.BLOOM_FILTER,
        ScalarIndexParams.create("bloomfilter", "{\"number_of_items\": 100, \"probability\": 0.01}"),
        b -> b.bloomFilter(100, 0.01));

    final org.lance.index.IndexType lanceType;
    final ScalarIndexParams lanceParams;
    final UnaryOperator<IndexBuilder> javelin;

    Kind(org.lance.index.IndexType lanceType, ScalarIndexParams lanceParams, UnaryOperator<IndexBuilder> javelin) {
      this.lanceType = lanceType;
      this.lanceParams = lanceParams;
      this.javelin = javelin;
    }
  }

  record Filter(String sql, LongPredicate matches) {}

  static final List<Filter> FILTERS = List.of(
      new Filter("n = 5", r -> n(r) != null && n(r) == 5),
      new Filter("n IN (-40, 3, 99, 1000)", r -> n(r) != null && List.of(-40, 3, 99, 1000).contains(n(r))),
      new Filter("n < -35", r -> n(r) != null && n(r) < -35),
      new Filter("n >= 140", r -> n(r) != null && n(r) >= 140),
      new Filter("n BETWEEN 10 AND 12", r -> n(r) != null && n(r) >= 10 && n(r) <= 12),
      new Filter("n IS NULL", r -> n(r) == null),
      new Filter("s = 'k7'", r -> "k7".equals(s(r))),
      new Filter("s IN ('k1', 'k22', 'zz')", r -> s(r) != null && List.of("k1", "k22", "zz").contains(s(r))),
      new Filter("s IS NULL", r -> s(r) == null),
      new Filter("s >= 'k35'", r -> s(r) != null && s(r).compareTo("k35") >= 0),
      new Filter("n = 7 OR s = 'k3'", r -> (n(r) != null && n(r) == 7) || "k3".equals(s(r))),
      new Filter("n > 100 AND s = 'k9'", r -> n(r) != null && n(r) > 100 && "k9".equals(s(r))));

  private List<VectorSchemaRoot> batches(long start, int total) {
    List<VectorSchemaRoot> out = new ArrayList<>();
    for (long b = start; b < start + total; b += 500) {
      int count = (int) Math.min(500, start + total - b);
      VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
      root.allocateNew();
      for (int i = 0; i < count; i++) {
        long r = b + i;
        ((BigIntVector) root.getVector("id")).setSafe(i, r);
        if (n(r) == null) {
          ((IntVector) root.getVector("n")).setNull(i);
        } else {
          ((IntVector) root.getVector("n")).setSafe(i, n(r));
        }
        if (s(r) == null) {
          ((VarCharVector) root.getVector("s")).setNull(i);
        } else {
          ((VarCharVector) root.getVector("s")).setSafe(i, s(r).getBytes(StandardCharsets.UTF_8));
        }
      }
      root.setRowCount(count);
      out.add(root);
    }
    return out;
  }

  private Dataset write(Dataset ds, Path path, long start, int rows) {
    List<VectorSchemaRoot> data = batches(start, rows);
    try {
      WriteParams p = WriteParams.builder().fileVersion(LanceFileVersion.V2_1).maxRowsPerFile(ROWS_PER_FILE).build();
      return ds == null ? Dataset.create(path, data, p, allocator) : ds.append(data, p);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  static TreeSet<Long> expected(long rows, LongPredicate matches) {
    TreeSet<Long> out = new TreeSet<>();
    for (long r = 0; r < rows; r++) {
      if (!deleted(r) && matches.test(r)) {
        out.add(r);
      }
    }
    return out;
  }

  static List<Long> javelinIds(Dataset ds, String filter, boolean useIndex) throws Exception {
    List<Long> out = new ArrayList<>();
    try (ArrowReader r = ds.newScan().columns("id").filter(filter).useIndex(useIndex).build()) {
      while (r.loadNextBatch()) {
        BigIntVector id = (BigIntVector) r.getVectorSchemaRoot().getVector("id");
        for (int i = 0; i < id.getValueCount(); i++) {
          out.add(id.get(i));
        }
      }
    }
    return out;
  }

  static List<Long> lanceIds(org.lance.Dataset lance, String filter, boolean useIndex) throws Exception {
    List<Long> out = new ArrayList<>();
    try (var scanner = lance.newScan(new ScanOptions.Builder().columns(List.of("id")).filter(filter)
        .useScalarIndex(useIndex).build()); ArrowReader r = scanner.scanBatches()) {
      while (r.loadNextBatch()) {
        BigIntVector id = (BigIntVector) r.getVectorSchemaRoot().getVector("id");
        for (int i = 0; i < id.getValueCount(); i++) {
          out.add(id.get(i));
        }
      }
    }
    return out;
  }

  // Javelin's answers with the indices equal its answers without them and the data; returns how
  // many filters an index of `type` answered.
  static int checkJavelin(Dataset ds, long rows, IndexType type, String when) throws Exception {
    int used = 0;
    for (Filter f : FILTERS) {
      List<Long> indexed = javelinIds(ds, f.sql(), true);
      assertThat(indexed).as("%s, Javelin indexed: %s", when, f.sql()).doesNotHaveDuplicates();
      assertThat(new TreeSet<>(indexed)).as("%s, Javelin indexed: %s", when, f.sql())
          .isEqualTo(new TreeSet<>(javelinIds(ds, f.sql(), false)))
          .isEqualTo(expected(rows, f.matches()));
      assertThat(ds.countRows(f.sql())).as("%s, count: %s", when, f.sql()).isEqualTo(indexed.size());
      ScanPlan plan = ds.explain(f.sql());
      if (plan.usesIndex()) {
        assertThat(plan.indices()).extracting(ScanPlan.IndexUse::type).containsOnly(type);
        used++;
      }
    }
    return used;
  }

  static void checkLance(org.lance.Dataset lance, long rows, String when) throws Exception {
    for (Filter f : FILTERS) {
      List<Long> indexed = lanceIds(lance, f.sql(), true);
      assertThat(indexed).as("%s, lance-core indexed: %s", when, f.sql()).doesNotHaveDuplicates();
      assertThat(new TreeSet<>(indexed)).as("%s, lance-core indexed: %s", when, f.sql())
          .isEqualTo(new TreeSet<>(lanceIds(lance, f.sql(), false)))
          .isEqualTo(expected(rows, f.matches()));
    }
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void javelinAnswersWithIndicesLanceCoreBuilt(Kind kind) throws Exception {
    Path path = dir.resolve("ds");
    Dataset ds = write(null, path, 0, 3000).delete("id % 10 = 3");
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      for (String column : List.of("n", "s")) {
        lance.createIndex(List.of(column), kind.lanceType, Optional.empty(),
            IndexParams.builder().setScalarIndexParams(kind.lanceParams).build(), false);
      }
    }
    ds = ds.checkoutLatest();
    assertThat(ds.indices()).extracting(IndexInfo::type).containsOnly(IndexType.valueOf(kind.name()));
    int used = checkJavelin(ds, 3000, IndexType.valueOf(kind.name()), "lance-core's " + kind);
    assertThat(used).as("filters answered by lance-core's %s", kind).isGreaterThanOrEqualTo(
        kind == Kind.BLOOM_FILTER ? 6 : 10);
    // An appended fragment the indices do not cover is scanned.
    ds = write(ds, path, 3000, 700);
    assertThat(ds.explain("n IS NULL").scannedFragments()).containsExactly(3L);
    checkJavelin(ds, 3700, IndexType.valueOf(kind.name()), "lance-core's " + kind + " after an append");
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void lanceCoreListsAndUsesIndicesJavelinBuilt(Kind kind) throws Exception {
    Path path = dir.resolve("ds");
    Dataset ds = write(null, path, 0, 3000).delete("id % 10 = 3");
    for (String column : List.of("n", "s")) {
      ds = kind.javelin.apply(ds.createIndex(column)).commit().dataset();
    }
    checkJavelin(ds, 3000, IndexType.valueOf(kind.name()), "Javelin's " + kind);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      List<org.lance.index.Index> indexes = lance.getIndexes();
      assertThat(indexes).extracting(org.lance.index.Index::name).containsExactly("n_idx", "s_idx");
      assertThat(indexes).extracting(org.lance.index.Index::indexType).containsOnly(kind.lanceType);
      checkLance(lance, 3000, "Javelin's " + kind);
      try (var scanner = lance.newScan(new ScanOptions.Builder().columns(List.of("id")).filter("n = 5")
          .useScalarIndex(true).collectStats(true).build()); ArrowReader r = scanner.scanBatches()) {
        while (r.loadNextBatch()) {
          // drain
        }
        // It searched the index and read only the rows it found (n = 5 holds 17 live rows).
        assertThat(scanner.getStats()).hasValueSatisfying(stats -> {
          assertThat(stats.getIndexComparisons()).as("%s", stats).isPositive();
          assertThat(stats.getAllCounts().get("rows_scanned")).as("%s", stats).isLessThan(1000L);
        });
      }
    }
    ds = write(ds.checkoutLatest(), path, 3000, 700);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      checkLance(lance, 3700, "Javelin's " + kind + " after an append");
    }
  }

  @org.junit.jupiter.api.Test
  void lanceCoreUsesTheZoneMapAClusteringBuilt() throws Exception {
    Path path = dir.resolve("ds");
    Dataset ds = write(null, path, 0, 3000).delete("id % 10 = 3");
    dev.javelin.core.cluster.ClusterResult r = ds.cluster().by("s").targetRowsPerFragment(1000).commit();
    assertThat(r.zoneMaps()).containsExactly("s_zonemap");
    ds = r.dataset();
    assertThat(ds.explain("s = 'k7'").indices()).extracting(ScanPlan.IndexUse::type)
        .containsExactly(IndexType.ZONEMAP);
    checkJavelin(ds, 3000, IndexType.ZONEMAP, "after clustering");
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.getIndexes()).extracting(org.lance.index.Index::indexType)
          .contains(org.lance.index.IndexType.ZONEMAP);
      checkLance(lance, 3000, "Javelin's clustering zone map");
    }
  }
}
