package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.ScanPlan;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.index.IndexType;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexedScanTest {
  static final Schema SCHEMA = new Schema(List.of(
      Field.nullable("i", new ArrowType.Int(64, true)),
      Field.nullable("d", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      Field.nullable("s", ArrowType.Utf8.INSTANCE),
      Field.nullable("k", new ArrowType.Int(32, true))));
  static final double[] SPECIAL = {0.0, -0.0, Double.NaN, 1.5, -1.5, Double.POSITIVE_INFINITY};

  @TempDir Path dir;
  @TestAllocator RootAllocator allocator;

  private VectorSchemaRoot batch(Random rnd, int n) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    root.allocateNew();
    BigIntVector i = (BigIntVector) root.getVector("i");
    Float8Vector d = (Float8Vector) root.getVector("d");
    VarCharVector s = (VarCharVector) root.getVector("s");
    IntVector k = (IntVector) root.getVector("k");
    for (int r = 0; r < n; r++) {
      if (rnd.nextInt(10) == 0) {
        i.setNull(r);
      } else {
        i.setSafe(r, rnd.nextInt(40) - 20);
      }
      if (rnd.nextInt(10) == 0) {
        d.setNull(r);
      } else {
        d.setSafe(r, rnd.nextBoolean() ? SPECIAL[rnd.nextInt(SPECIAL.length)] : rnd.nextInt(20) - 10);
      }
      if (rnd.nextInt(10) == 0) {
        s.setNull(r);
      } else {
        s.setSafe(r, ("s" + rnd.nextInt(30)).getBytes(StandardCharsets.UTF_8));
      }
      k.setSafe(r, rnd.nextInt(1000));
    }
    root.setRowCount(n);
    return root;
  }

  private Dataset write(Dataset ds, Path path, Random rnd, int rows, int perFile) {
    List<VectorSchemaRoot> batches = List.of(batch(rnd, rows));
    try {
      WriteParams p = WriteParams.builder().fileVersion(LanceFileVersion.V2_1).maxRowsPerFile(perFile).build();
      return ds == null ? Dataset.create(path, batches, p, allocator) : ds.append(batches, p);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  private List<String> rows(Dataset ds, String filter, long offset, long limit) throws IOException {
    return rows(ds.newScan(), filter, offset, limit);
  }

  // Fragment by fragment, as a distributed reader scans (the indices still answer for each).
  private List<String> rowsByFragment(Dataset ds, String filter) throws IOException {
    List<String> out = new ArrayList<>();
    for (dev.javelin.table.Fragment f : ds.manifest().fragments()) {
      out.addAll(rows(ds.newScan().fragments(List.of(f)), filter, 0, -1));
    }
    return out;
  }

  private List<String> rows(ScanBuilder scan, String filter, long offset, long limit) throws IOException {
    ScanBuilder b = scan.filter(filter).withRowAddress().batchSize(64).offset(offset);
    if (limit >= 0) {
      b.limit(limit);
    }
    List<String> out = new ArrayList<>();
    try (ArrowReader r = b.build()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot root = r.getVectorSchemaRoot();
        for (int row = 0; row < root.getRowCount(); row++) {
          StringBuilder sb = new StringBuilder();
          for (var v : root.getFieldVectors()) {
            Object o = v.getObject(row);
            sb.append(o instanceof Double x ? Double.doubleToRawLongBits(x) + "" : String.valueOf(o)).append('|');
          }
          out.add(sb.toString());
        }
      }
    }
    return out;
  }

  private static String filter(Random rnd) {
    String[] leaves = {
        "i = " + (rnd.nextInt(44) - 22), "i < " + (rnd.nextInt(44) - 22), "i <= " + (rnd.nextInt(44) - 22),
        "i > " + (rnd.nextInt(44) - 22), "i >= " + (rnd.nextInt(44) - 22), (rnd.nextInt(44) - 22) + " < i",
        "i BETWEEN " + (rnd.nextInt(30) - 20) + " AND " + (rnd.nextInt(30) - 10),
        "i IN (" + (rnd.nextInt(40) - 20) + ", " + (rnd.nextInt(40) - 20) + ", NULL)", "i IS NULL",
        "i = 99999999999", "d = 0.0", "d = -0.0", "d >= 0", "d <= -0.0", "d < 0.0", "d > 1", "d IN (0.0, 1.5)",
        "d BETWEEN 0 AND 3", "d IS NULL", "d = " + (rnd.nextInt(20) - 10), "i = 2.0",
        "s = 's" + rnd.nextInt(30) + "'", "s < 's" + rnd.nextInt(30) + "'", "s IN ('s1', 's22')", "s IS NULL",
        "s LIKE 's1%'", "k % 3 = 0", "k < 500", "NOT (i = 3)", "i IS NOT NULL", "i + 1 = 5"};
    int parts = 1 + rnd.nextInt(3);
    StringBuilder b = new StringBuilder(leaves[rnd.nextInt(leaves.length)]);
    for (int p = 1; p < parts; p++) {
      b.insert(0, "(").append(rnd.nextBoolean() ? " AND " : " OR ").append(leaves[rnd.nextInt(leaves.length)])
          .append(")");
    }
    return b.toString();
  }

  // The same rows in a copy of the dataset without indices (dropping them here would commit).
  private Dataset withoutIndices(Dataset indexed) throws IOException {
    Path from = Path.of(indexed.location());
    Path to = dir.resolve("plain" + System.nanoTime());
    try (var files = java.nio.file.Files.walk(from)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        java.nio.file.Files.copy(p, to.resolve(from.relativize(p).toString()));
      }
    }
    Dataset ds = Dataset.open(to, allocator).checkout(indexed.version());
    for (IndexInfo i : ds.indices()) {
      ds = ds.dropIndex(i.name());
    }
    return ds;
  }

  private void assertSameAsFullScan(Dataset indexed, Random rnd, int filters) throws IOException {
    Dataset plain = withoutIndices(indexed);
    assertThat(plain.indices()).isEmpty();
    int used = 0;
    for (int n = 0; n < filters; n++) {
      String f = filter(rnd);
      List<String> want = rows(plain, f, 0, -1);
      assertThat(rows(indexed, f, 0, -1)).as(f).isEqualTo(want);
      assertThat(rowsByFragment(indexed, f)).as(f).isEqualTo(want);
      assertThat(indexed.countRows(f)).as(f).isEqualTo(want.size());
      long offset = rnd.nextInt(5);
      long limit = rnd.nextInt(10);
      assertThat(rows(indexed, f, offset, limit)).as(f)
          .isEqualTo(want.subList((int) Math.min(offset, want.size()), (int) Math.min(offset + limit, want.size())));
      if (indexed.explain(f).usesIndex()) {
        used++;
      }
    }
    assertThat(used).isGreaterThan(filters / 4);
  }

  @Test
  void indexedScansEqualFullScansWithDeletesAppendsAndReplacedIndices() throws IOException {
    Random rnd = new Random(42);
    Path path = dir.resolve("d");
    Dataset ds = write(null, path, rnd, 2000, 600);
    ds = ds.delete("k < 100");
    ds = ds.createIndex("i", IndexType.BTREE);
    ds = ds.createIndex("d", IndexType.BTREE);
    ds = ds.createIndex("s", IndexType.BTREE, "by_s");
    assertSameAsFullScan(ds, rnd, 60);
    // Deletes after the index, and an appended fragment the indices do not cover.
    ds = ds.delete("k > 900");
    ds = write(ds, path, rnd, 500, 600);
    assertThat(ds.explain("i = 3").scannedFragments()).as(ds.explain("i = 3").describe() + ds.indices()).containsExactly(4L);
    assertSameAsFullScan(ds, rnd, 60);
    // Re-created index: covers every fragment again.
    ds = ds.dropIndex("i_idx").createIndex("i", IndexType.BTREE, "i2");
    assertThat(ds.explain("i = 3").scannedFragments()).isEmpty();
    assertSameAsFullScan(ds, rnd, 40);
  }

  // The index kinds beyond the BTree, each on every filtered column.
  enum Kind {
    BITMAP(b -> b.bitmap()),
    ZONEMAP(b -> b.zonemap(64)),
    BLOOM_FILTER(b -> b.bloomFilter(64, 0.01));

    final java.util.function.UnaryOperator<IndexBuilder> choose;

    Kind(java.util.function.UnaryOperator<IndexBuilder> choose) {
      this.choose = choose;
    }
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.EnumSource(Kind.class)
  void otherScalarKindsAnswerAsFullScansThroughDeletesAppendsAndOptimize(Kind kind) throws IOException {
    Random rnd = new Random(11 + kind.ordinal());
    Path path = dir.resolve("d");
    Dataset ds = write(null, path, rnd, 2000, 600).delete("k < 100");
    for (String column : List.of("i", "d", "s")) {
      ds = kind.choose.apply(ds.createIndex(column)).commit().dataset();
    }
    assertThat(ds.indices()).extracting(IndexInfo::type).containsOnly(IndexType.valueOf(kind.name()));
    assertSameAsFullScan(ds, rnd, 60);
    ds = ds.delete("k > 900");
    ds = write(ds, path, rnd, 500, 600);
    assertThat(ds.explain("i IS NULL").scannedFragments()).containsExactly(4L);
    assertSameAsFullScan(ds, rnd, 40);
    IndexOptimizeResult optimized = ds.optimizeIndices();
    ds = optimized.dataset();
    assertThat(ds.indices()).extracting(IndexInfo::type).containsOnly(IndexType.valueOf(kind.name()));
    assertThat(ds.explain("i IS NULL").scannedFragments()).isEmpty();
    assertSameAsFullScan(ds, rnd, 40);
    ds = ds.compact().targetRowsPerFragment(5000).commit().dataset();
    assertThat(ds.manifest().fragments()).hasSize(1);
    // Compaction remaps a bitmap to the new fragment, and builds a zone index's zones of it again.
    assertThat(ds.indices()).extracting(IndexInfo::type).containsOnly(IndexType.valueOf(kind.name()));
    assertThat(ds.explain("i IS NULL").scannedFragments()).isEmpty();
    assertSameAsFullScan(ds, rnd, 30);
    // A clustering's row maps answer for the new fragments until settled; then the indices do directly.
    ds = ds.cluster().by("s").targetRowsPerFragment(700).commit().dataset();
    assertSameAsFullScan(ds, rnd, 20);
    IndexSettleResult settled = ds.settleIndices();
    assertThat(settled.remapped()).contains("i_idx", "d_idx"); // (a clustering refreshes a zone map on its key itself)
    ds = settled.dataset();
    ScanPlan plan = ds.explain("i IS NULL OR s = 'x'");
    assertThat(plan.scannedFragments()).isEmpty();
    assertThat(plan.indices()).allSatisfy(u -> assertThat(u.throughRowMaps()).isEmpty());
    ds = ds.optimizeIndices().dataset();
    assertThat(ds.explain("i IS NULL").scannedFragments()).isEmpty();
    assertSameAsFullScan(ds, rnd, 30);
  }

  @Test
  void zoneMapsSkipZonesOfSortedDataAndExplainSaysHowMany() throws IOException {
    Schema schema = new Schema(List.of(Field.nullable("t", new ArrowType.Int(64, true)),
        Field.nullable("pad", ArrowType.Utf8.INSTANCE)));
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
    root.allocateNew();
    for (int r = 0; r < 4000; r++) {
      ((BigIntVector) root.getVector("t")).setSafe(r, r);
      ((VarCharVector) root.getVector("pad")).setSafe(r, ("row " + r).getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(4000);
    Dataset ds;
    try {
      ds = Dataset.create(dir.resolve("z"), List.of(root), WriteParams.builder().maxRowsPerFile(1000).build(),
          allocator);
    } finally {
      root.close();
    }
    ds = ds.createIndex("t").zonemap(100).commit().dataset();
    ScanPlan plan = ds.explain("t BETWEEN 1450 AND 1520");
    assertThat(plan.indices()).singleElement().satisfies(u -> {
      assertThat(u.type()).isEqualTo(IndexType.ZONEMAP);
      assertThat(u.zones()).isEqualTo(40);
      assertThat(u.zonesSkipped()).isEqualTo(38);
    });
    assertThat(plan.rowsFromIndex()).isEqualTo(200);
    assertThat(plan.rowsSkipped()).isEqualTo(3800);
    assertThat(plan.bytesSkipped()).isPositive();
    assertThat(plan.describe()).contains("index: t_idx (zonemap on t) answers t BETWEEN 1450 AND 1520\n",
        "  zones skipped: 38 of 40\n", "rows skipped: 3800, bytes skipped: about ");
    assertThat(ds.countRows("t BETWEEN 1450 AND 1520")).isEqualTo(71);
    assertThat(rows(ds, "t >= 3990 OR t < 3", 0, -1)).hasSize(13);
  }

  @Test
  void clusteringBuildsAZoneMapOnItsKeyThatScansUse() throws IOException {
    Schema schema = new Schema(List.of(Field.nullable("t", new ArrowType.Int(64, true))));
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
    root.allocateNew();
    for (int r = 0; r < 4000; r++) {
      ((BigIntVector) root.getVector("t")).setSafe(r, r * 1237L % 4000);
    }
    root.setRowCount(4000);
    Dataset ds;
    try {
      ds = Dataset.create(dir.resolve("c"), List.of(root), WriteParams.builder().maxRowsPerFile(1000).build(),
          allocator);
    } finally {
      root.close();
    }
    assertThat(ds.explain("t < 100").usesIndex()).isFalse();
    dev.javelin.core.cluster.ClusterResult r = ds.cluster().by("t").targetRowsPerFragment(1000)
        .zoneMapRowsPerZone(100).commit();
    assertThat(r.zoneMaps()).containsExactly("t_zonemap");
    assertThat(r.version()).isEqualTo(r.clusteredVersion() + 1);
    ds = r.dataset();
    ScanPlan plan = ds.explain("t < 100");
    assertThat(plan.indices()).singleElement().satisfies(u -> {
      assertThat(u.type()).isEqualTo(IndexType.ZONEMAP);
      // A destination holds its rows in source order, so zones skip by fragment: the 30 zones of
      // the three fragments above t = 999.
      assertThat(u.zonesSkipped()).isEqualTo(30);
    });
    assertThat(plan.rowsFromIndex()).isEqualTo(1000);
    assertThat(rows(ds, "t < 100", 0, -1)).hasSize(100);
    // Clustering again rebuilds the same zone map with its zone size (replaced, not doubled).
    ds = ds.cluster().by("t").targetRowsPerFragment(2000).commit().dataset();
    List<IndexInfo> zoneMaps = ds.indices().stream().filter(i -> i.type() == IndexType.ZONEMAP).toList();
    assertThat(zoneMaps).extracting(IndexInfo::name).containsExactly("t_zonemap");
    assertThat(ds.explain("t < 100").indices().get(0).zones()).isEqualTo(40);
    assertThat(zoneMaps.get(0).fragments()).containsExactlyInAnyOrderElementsOf(
        ds.manifest().fragments().stream().map(dev.javelin.table.Fragment::id).toList());
    assertThat(ds.cluster().by("t").noZoneMaps().commit().zoneMaps()).isEmpty();
  }

  @Test
  void buildLeavesOutDeletedRows() throws IOException {
    Random rnd = new Random(7);
    Dataset ds = write(null, dir.resolve("d"), rnd, 1000, 400).delete("i = 5");
    ds = ds.createIndex("i", IndexType.BTREE);
    ScanPlan plan = ds.explain("i = 5");
    assertThat(plan.usesIndex()).isTrue();
    assertThat(plan.rowsFromIndex()).isZero();
    try (var index = dev.javelin.index.internal.btree.BTreeIndex.open(ds.store(), ds.indices().get(0).uuid(), allocator)) {
      assertThat(index.search(dev.javelin.index.internal.btree.ScalarQuery.equalTo(5L)).isEmpty()).isTrue();
      assertThat(index.search(dev.javelin.index.internal.btree.ScalarQuery.equalTo(6L)).getLongCardinality())
          .isEqualTo(ds.countRows("i = 6"));
    }
  }

  @Test
  void explainNamesIndexFragmentsAndRows() throws IOException {
    Random rnd = new Random(3);
    Path path = dir.resolve("d");
    Dataset before = write(null, path, rnd, 900, 300).createIndex("i", IndexType.BTREE);
    Dataset ds = write(before, path, rnd, 100, 300);
    ScanPlan plan = ds.newScan().filter("i = 4 AND k < 500").explain();
    assertThat(plan.indices()).containsExactly(new ScanPlan.IndexUse("i_idx", "i", List.of("i = 4")));
    assertThat(plan.indexedFragments()).containsExactly(0L, 1L, 2L);
    assertThat(plan.scannedFragments()).containsExactly(3L);
    assertThat(plan.rowsFromIndex()).isEqualTo(before.countRows("i = 4"));
    assertThat(plan.describe()).contains("index: i_idx (btree on i) answers i = 4",
        "fragments from index: 3 [0, 1, 2]", "fragments scanned: 1 [3]");
    ScanPlan none = ds.explain("k < 5 OR i = 3");
    assertThat(none.usesIndex()).isFalse();
    assertThat(none.note()).isEqualTo("no part of the filter is a predicate an index answers");
    assertThat(none.scannedFragments()).containsExactly(0L, 1L, 2L, 3L);
  }

  @Test
  void optimizeAddsAppendedFragments() throws IOException {
    Random rnd = new Random(11);
    Path path = dir.resolve("d");
    Dataset ds = write(null, path, rnd, 900, 300).createIndex("i", IndexType.BTREE)
        .createIndex("s", IndexType.BTREE);
    ds = write(ds, path, rnd, 500, 300).delete("k < 50");
    Dataset opt = ds.optimizeIndices().dataset();
    assertThat(opt.indices()).extracting(IndexInfo::fragments).containsOnly(java.util.Set.of(0L, 1L, 2L, 3L, 4L));
    assertThat(opt.version()).isEqualTo(ds.version() + 1);
    assertThat(opt.indices()).extracting(IndexInfo::name).containsExactlyInAnyOrder("i_idx", "s_idx");
    assertThat(opt.optimizeIndices().dataset()).isSameAs(opt);
    assertThat(opt.explain("i = 1").scannedFragments()).isEmpty();
    assertSameAsFullScan(opt, rnd, 40);
    try (var index = dev.javelin.index.internal.btree.BTreeIndex.open(opt.store(), opt.indices().get(0).uuid(), allocator)) {
      assertThat(index.search(dev.javelin.index.internal.btree.ScalarQuery.greaterOrEqual(-100L)).getLongCardinality())
          .isEqualTo(opt.countRows("i IS NOT NULL"));
    }
  }

  @Test
  void datesBooleansAndNarrowIntegersMatchAFullScan() throws IOException {
    Schema schema = new Schema(List.of(
        Field.nullable("day", new ArrowType.Date(org.apache.arrow.vector.types.DateUnit.DAY)),
        Field.nullable("flag", ArrowType.Bool.INSTANCE),
        Field.nullable("small", new ArrowType.Int(16, true)),
        Field.nullable("u", new ArrowType.Int(32, false))));
    Random rnd = new Random(5);
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
    Dataset ds;
    try {
      root.allocateNew();
      for (int r = 0; r < 1500; r++) {
        boolean nul = rnd.nextInt(8) == 0;
        if (nul) {
          ((org.apache.arrow.vector.DateDayVector) root.getVector("day")).setNull(r);
          ((org.apache.arrow.vector.BitVector) root.getVector("flag")).setNull(r);
          ((org.apache.arrow.vector.SmallIntVector) root.getVector("small")).setNull(r);
          ((org.apache.arrow.vector.UInt4Vector) root.getVector("u")).setNull(r);
        } else {
          ((org.apache.arrow.vector.DateDayVector) root.getVector("day")).setSafe(r, 18000 + rnd.nextInt(60));
          ((org.apache.arrow.vector.BitVector) root.getVector("flag")).setSafe(r, rnd.nextInt(2));
          ((org.apache.arrow.vector.SmallIntVector) root.getVector("small")).setSafe(r, rnd.nextInt(200) - 100);
          ((org.apache.arrow.vector.UInt4Vector) root.getVector("u")).setSafe(r, rnd.nextInt(50));
        }
      }
      root.setRowCount(1500);
      ds = Dataset.create(dir.resolve("t"), List.of(root), WriteParams.builder()
          .fileVersion(LanceFileVersion.V2_1).maxRowsPerFile(500).build(), allocator);
    } finally {
      root.close();
    }
    for (String c : List.of("day", "flag", "small", "u")) {
      ds = ds.createIndex(c, IndexType.BTREE);
    }
    ds = ds.delete("small > 90");
    List<String> used = List.of("day = DATE '2019-04-01'", "day < DATE '2019-04-10'",
        "day BETWEEN DATE '2019-04-01' AND DATE '2019-04-20'", "flag = true", "flag IS NULL", "small = -5",
        "small < -50", "small IN (1, 2, 3)", "u = 7", "u >= 45", "u BETWEEN 10 AND 12", "small = 5 OR u = 3");
    List<String> unused = List.of("small = 100000", "u = -1", "u < 5000000000", "day = '2019-04-01'",
        "small = 5 OR flag");
    for (String f : concat(used, unused)) {
      List<String> want = rowsWithIndex(ds, f, false);
      assertThat(rowsWithIndex(ds, f, true)).as(f).isEqualTo(want);
      assertThat(ds.explain(f).usesIndex()).as(f).isEqualTo(used.contains(f));
    }
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  private List<String> rowsWithIndex(Dataset ds, String filter, boolean useIndex) throws IOException {
    List<String> out = new ArrayList<>();
    try (ArrowReader r = ds.newScan().filter(filter).useIndex(useIndex).withRowAddress().build()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot root = r.getVectorSchemaRoot();
        for (int row = 0; row < root.getRowCount(); row++) {
          StringBuilder sb = new StringBuilder();
          for (var v : root.getFieldVectors()) {
            sb.append(v.getObject(row)).append('|');
          }
          out.add(sb.toString());
        }
      }
    }
    return out;
  }
}
