package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.ScanPlan;
import dev.javelin.core.cluster.ClusterResult;
import dev.javelin.core.internal.index.IndexCoverage;
import dev.javelin.core.internal.index.RowMapCache;
import dev.javelin.index.DistanceType;
import dev.javelin.index.IndexType;
import dev.javelin.index.IvfPqParams;
import dev.javelin.index.internal.ivf.Neighbors;
import dev.javelin.table.stablepartition.StablePartitionEntry;
import dev.javelin.table.stablepartition.StablePartitionTransition;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** After a reordered rewrite, indices built before it answer for the moved rows through the row map. */
class IndexTranslationTest {
  static final int DIM = 8;
  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      Field.nullable("a", new ArrowType.Int(32, true)),
      Field.nullable("x", new ArrowType.Int(64, true)),
      Field.nullable("s", ArrowType.Utf8.INSTANCE),
      new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(DIM)), List.of(
          new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null)))));
  static final List<String> FILTERS = List.of(
      "x = 17", "x < 100", "x >= 900 AND x < 950", "x IN (1, 5, 999, 500)", "a IS NULL", "a = 3 OR x = 17",
      "a = 3 AND s = 'k017'", "(a < 5 OR a > 45) AND x > 500", "s = 'k100'", "x BETWEEN 10 AND 20",
      "a = 7 AND id > 100");

  @TempDir
  Path dir;
  @TestAllocator BufferAllocator allocator;

  // Rows [start, start + n): id, a in 0..49 (every 13th null), x in 0..999, s "k" + 3 digits, v.
  VectorSchemaRoot batch(long start, int n) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    root.allocateNew();
    Random r = new Random(start);
    FixedSizeListVector v = (FixedSizeListVector) root.getVector("v");
    Float4Vector f = (Float4Vector) v.getDataVector();
    for (int i = 0; i < n; i++) {
      long id = start + i;
      ((BigIntVector) root.getVector("id")).setSafe(i, id);
      if (id % 13 == 5) {
        ((IntVector) root.getVector("a")).setNull(i);
      } else {
        ((IntVector) root.getVector("a")).setSafe(i, r.nextInt(50));
      }
      ((BigIntVector) root.getVector("x")).setSafe(i, r.nextInt(1000));
      ((VarCharVector) root.getVector("s")).setSafe(i,
          String.format("k%03d", r.nextInt(300)).getBytes(StandardCharsets.UTF_8));
      v.setNotNull(i);
      for (int j = 0; j < DIM; j++) {
        f.setSafe(i * DIM + j, (float) (r.nextGaussian() * 4 + (id % 16)));
      }
    }
    v.setValueCount(n);
    root.setRowCount(n);
    return root;
  }

  Dataset create(int rows, int perFragment, boolean stableRowIds) {
    List<VectorSchemaRoot> batches = new ArrayList<>();
    try {
      for (int start = 0; start < rows; start += perFragment) {
        batches.add(batch(start, Math.min(perFragment, rows - start)));
      }
      return Dataset.create(dir, batches, WriteParams.builder().maxRowsPerFile(perFragment)
          .enableStableRowIds(stableRowIds).build(), allocator);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  Dataset append(Dataset ds, long start, int n) {
    try (VectorSchemaRoot b = batch(start, n)) {
      return ds.append(List.of(b), WriteParams.builder().maxRowsPerFile(n).build());
    }
  }

  static Dataset indexed(Dataset ds) {
    ds = ds.createIndex("x", IndexType.BTREE, "x_idx");
    ds = ds.createIndex("a", IndexType.BTREE, "a_idx");
    return ds.createIndex("s", IndexType.BTREE, "s_idx");
  }

  // The ids a scan with the filter returns, sorted.
  static List<Long> ids(Dataset ds, String filter, boolean useIndex) {
    List<Long> out = new ArrayList<>();
    try (ArrowReader r = ds.newScan().columns(List.of("id")).filter(filter).useIndex(useIndex).build()) {
      while (r.loadNextBatch()) {
        BigIntVector v = (BigIntVector) r.getVectorSchemaRoot().getVector("id");
        for (int i = 0; i < v.getValueCount(); i++) {
          out.add(v.get(i));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.sort(null);
    return out;
  }

  // Every filter: the indexed answer (scan and count) equals the plain scan's.
  static void assertIndexedEqualsScan(Dataset ds) {
    for (String f : FILTERS) {
      List<Long> expected = ids(ds, f, false);
      assertThat(ids(ds, f, true)).as(f).isEqualTo(expected);
      assertThat(ds.countRows(f)).as(f).isEqualTo(expected.size());
    }
  }

  static List<Long> live(Dataset ds) {
    return ds.manifest().fragments().stream().map(dev.javelin.table.Fragment::id).toList();
  }

  @Test
  void btreeQueriesAfterClusteringEqualScansAndExplainShowsTheDestinations() {
    Dataset ds = indexed(create(4000, 1000, false).delete("x >= 400 AND x < 420"));
    List<List<Long>> before = FILTERS.stream().map(f -> ids(ds, f, false)).toList();
    ClusterResult r = ds.cluster().noZoneMaps().by("a").targetRowsPerFragment(1500).commit();
    Dataset after = r.dataset();
    assertIndexedEqualsScan(after);
    assertThat(FILTERS.stream().map(f -> ids(after, f, true)).toList()).isEqualTo(before);

    ScanPlan plan = after.explain("x = 17");
    assertThat(plan.indexedFragments()).containsExactlyElementsOf(r.destinationIds());
    assertThat(plan.scannedFragments()).isEmpty();
    assertThat(plan.indices()).singleElement().satisfies(u -> {
      assertThat(u.name()).isEqualTo("x_idx");
      assertThat(u.throughRowMaps()).containsExactlyElementsOf(r.destinationIds());
    });
    assertThat(plan.rowsFromIndex()).isEqualTo(before.get(0).size());
    assertThat(plan.describe()).contains("through row maps for fragments: " + r.destinationIds());
    IndexInfo info = after.indices().stream().filter(i -> i.name().equals("x_idx")).findFirst().orElseThrow();
    assertThat(info.throughRowMaps()).containsExactlyElementsOf(r.destinationIds());
    assertThat(info.fragments()).containsExactlyElementsOf(r.sourceIds());
    // A delete through the index finds the moved rows too.
    Dataset deleted = after.delete("x = 17");
    assertThat(ids(deleted, "x = 17", false)).isEmpty();
    assertThat(deleted.countRows()).isEqualTo(after.countRows() - before.get(0).size());
  }

  @Test
  void deletesAfterClusteringAreHonoured() {
    Dataset ds = indexed(create(3000, 1000, false));
    Dataset after = ds.cluster().noZoneMaps().by("x").targetRowsPerFragment(1000).commit().dataset();
    Dataset deleted = after.delete("a < 10 OR x = 17");
    assertThat(ids(deleted, "x = 17", true)).isEmpty();
    assertIndexedEqualsScan(deleted);
    assertThat(deleted.explain("a = 3").scannedFragments()).isEmpty();
  }

  @Test
  void appendedFragmentsAfterClusteringAreScanned() {
    Dataset ds = indexed(create(3000, 1000, false));
    Dataset after = ds.cluster().noZoneMaps().by("s").targetRowsPerFragment(1000).commit().dataset();
    Dataset grown = append(after, 3000, 700);
    long added = live(grown).get(live(grown).size() - 1);
    ScanPlan plan = grown.explain("x < 100");
    assertThat(plan.scannedFragments()).containsExactly(added);
    assertThat(plan.indexedFragments()).containsExactlyElementsOf(live(after));
    assertIndexedEqualsScan(grown);
  }

  @Test
  void aSecondClusteringChainsTheTranslation() {
    Dataset ds = indexed(create(3000, 1000, false).delete("x < 50"));
    ClusterResult first = ds.cluster().noZoneMaps().by("a").targetRowsPerFragment(1200).commit();
    Dataset middle = first.dataset().delete("x > 950");
    ClusterResult second = middle.cluster().noZoneMaps().by("x", "a").curve(dev.javelin.core.cluster.Curve.ZORDER)
        .targetRowsPerFragment(800).commit();
    Dataset after = second.dataset();
    assertThat(IndexCoverage.transitions(after)).hasSize(2);
    ScanPlan plan = after.explain("x < 100");
    assertThat(plan.indexedFragments()).containsExactlyElementsOf(second.destinationIds());
    assertThat(plan.indices().get(0).throughRowMaps()).containsExactlyElementsOf(second.destinationIds());
    assertIndexedEqualsScan(after);
  }

  @Test
  void clusteringSomeFragmentsCoversOnlyWhatTheIndexCoveredWhole() {
    Dataset ds = indexed(create(3000, 1000, false)); // fragments 0, 1, 2 indexed
    ds = append(ds, 3000, 1000); // fragment 3 unindexed
    // 0 and 1: wholly covered, so their destinations are answered by the indices.
    ClusterResult covered = ds.cluster().noZoneMaps().by("x").fragments(List.of(0L, 1L)).targetRowsPerFragment(700).commit();
    // 2 and 3: partly covered, so their destinations are scanned.
    ClusterResult partial = covered.dataset().cluster().noZoneMaps().by("x").fragments(List.of(2L, 3L))
        .targetRowsPerFragment(700).commit();
    Dataset after = partial.dataset();
    ScanPlan plan = after.explain("x = 17");
    assertThat(plan.indexedFragments()).containsExactlyElementsOf(covered.destinationIds());
    assertThat(plan.scannedFragments()).containsExactlyElementsOf(partial.destinationIds());
    assertIndexedEqualsScan(after);
  }

  @Test
  void anIndexBuiltAfterClusteringNeedsNoTranslationAndIsPreferred() {
    Dataset ds = indexed(create(3000, 1000, false));
    Dataset after = ds.cluster().noZoneMaps().by("a").targetRowsPerFragment(1000).commit().dataset();
    Dataset rebuilt = after.createIndex("x", IndexType.BTREE, "x_fresh");
    ScanPlan plan = rebuilt.explain("x = 17");
    assertThat(plan.indices()).singleElement().satisfies(u -> {
      assertThat(u.name()).isEqualTo("x_fresh");
      assertThat(u.throughRowMaps()).isEmpty();
    });
    assertThat(plan.indexedFragments()).containsExactlyElementsOf(live(after));
    assertThat(rebuilt.explain("a = 3").indices().get(0).throughRowMaps()).isNotEmpty();
    assertThat(rebuilt.indices().stream().filter(i -> i.name().equals("x_fresh")).findFirst().orElseThrow()
        .throughRowMaps()).isEmpty();
    // A mix of the fresh index and a translated one agrees with the scan.
    assertIndexedEqualsScan(rebuilt);
    for (String f : List.of("x = 17 AND a = 3", "x = 17 OR a = 3", "x < 300 AND s > 'k200'")) {
      assertThat(ids(rebuilt, f, true)).as(f).isEqualTo(ids(rebuilt, f, false));
    }
  }

  @Test
  void stableRowIdDatasetsStayCorrect() {
    Dataset ds = indexed(create(3000, 1000, true));
    Dataset after = ds.cluster().noZoneMaps().by("a").targetRowsPerFragment(1000).commit().dataset();
    assertIndexedEqualsScan(after);
    assertThat(after.explain("x = 17").note()).contains("stable row ids");
  }

  @Test
  void ivfPqFindsTheSameNeighboursAfterClusteringAndHonoursLaterDeletes() {
    Dataset ds = create(4000, 1000, false).createIndex("v",
        IvfPqParams.of(8, 4, DistanceType.L2).withIterations(10, 5), "v_idx");
    Random r = new Random(7);
    List<float[]> queries = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      float[] q = new float[DIM];
      for (int j = 0; j < DIM; j++) {
        q[j] = (float) (r.nextGaussian() * 4 + i * 3);
      }
      queries.add(q);
    }
    Dataset after = ds.cluster().noZoneMaps().by("x").targetRowsPerFragment(1500).commit().dataset();
    Dataset deleted = after.delete("x < 300");
    for (float[] q : queries) {
      Neighbors b = ds.nearest("v", q).k(10).nprobes(3).neighbors();
      Neighbors a = after.nearest("v", q).k(10).nprobes(3).neighbors();
      assertThat(idsOf(after, a)).isEqualTo(idsOf(ds, b));
      assertThat(a.distances()).containsExactly(b.distances());
      // Re-ranking reads the vectors at the translated addresses.
      assertThat(idsOf(after, after.nearest("v", q).k(5).nprobes(3).refineFactor(4).neighbors()))
          .isEqualTo(idsOf(ds, ds.nearest("v", q).k(5).nprobes(3).refineFactor(4).neighbors()));
      // A prefilter gives the same rows as before clustering.
      assertThat(idsOf(after, after.nearest("v", q).k(10).nprobes(3).filter("a < 20").prefilter(true).neighbors()))
          .isEqualTo(idsOf(ds, ds.nearest("v", q).k(10).nprobes(3).filter("a < 20").prefilter(true).neighbors()));
      // Rows deleted after the clustering are gone; the k nearest of the rest are as a prefilter
      // leaving them out found them before clustering.
      Neighbors d = deleted.nearest("v", q).k(10).nprobes(3).neighbors();
      assertThat(d.size()).isEqualTo(10);
      assertThat(idsOf(deleted, d))
          .isEqualTo(idsOf(ds, ds.nearest("v", q).k(10).nprobes(3).filter("x >= 300").prefilter(true).neighbors()));
    }
  }

  // The id column of the rows at these addresses, in order.
  List<Long> idsOf(Dataset ds, Neighbors n) {
    List<Long> out = new ArrayList<>();
    try (VectorSchemaRoot rows = ds.takeRows(n.rowIds(), List.of("id"))) {
      BigIntVector v = (BigIntVector) rows.getVector("id");
      for (int i = 0; i < rows.getRowCount(); i++) {
        out.add(v.get(i));
      }
    }
    return out;
  }

  @Test
  void translationReadsEachRowMapChunkOnce() throws IOException {
    Dataset ds = create(3 * 65536, 3 * 65536, false).createIndex("x", IndexType.BTREE, "x_idx");
    ClusterResult r = ds.cluster().noZoneMaps().by("a").targetRowsPerFragment(70000).commit();
    Dataset after = r.dataset();
    StablePartitionTransition t = StablePartitionEntry.transitions(after.manifest(), after.store()).get(0);
    try (RowMapCache.Lease lease = RowMapCache.acquire(after.store(), t.rowMapPath())) {
      long chunks = (lease.reader().rows() + 65535) / 65536;
      assertThat(chunks).isEqualTo(3);
      long start = lease.reader().chunksRead();
      // About 1,000 rows spread over every chunk of the row map.
      long found = after.countRows("x < 5");
      assertThat(found).isBetween(800L, 1200L).isEqualTo(ids(after, "x < 5", false).size());
      assertThat(after.explain("x < 5").indexedFragments()).containsExactlyElementsOf(r.destinationIds());
      assertThat(lease.reader().chunksRead() - start).isLessThanOrEqualTo(chunks);
      long once = lease.reader().chunksRead();
      assertThat(after.countRows("x < 5")).isEqualTo(found);
      assertThat(lease.reader().chunksRead()).isEqualTo(once);
    }
  }
}
