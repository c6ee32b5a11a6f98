package dev.javelin.compat;

import static dev.javelin.compat.IvfPqIndexCompatTest.DIM;
import static dev.javelin.compat.IvfPqIndexCompatTest.PARTITIONS;
import static dev.javelin.compat.IvfPqIndexCompatTest.SCHEMA;
import static dev.javelin.compat.IvfPqIndexCompatTest.VECTORS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.javelin.core.Dataset;
import dev.javelin.core.IndexInfo;
import dev.javelin.core.IndexOptimizeResult;
import dev.javelin.core.OptimizedIndex;
import dev.javelin.index.IndexType;
import dev.javelin.index.IvfPqParams;
import dev.javelin.index.internal.ivf.Neighbors;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.index.DistanceType;
import org.lance.index.IndexDescription;
import org.lance.index.IndexParams;
import org.lance.index.OptimizeOptions;
import org.lance.index.vector.VectorIndexParams;

/**
 * Javelin's {@code optimizeIndices} on IVF_PQ indices, judged by lance-core 7.0.0: an index
 * lance-core built and one Javelin built get an appended fragment and deletions; Javelin extends
 * the index on one copy of the dataset, lance-core optimizes another copy itself. lance-core then
 * searches both: with every partition probed and no re-ranking the same rows at the same PQ
 * distances (Javelin put the new rows into the same partitions with the same codes), the same
 * recall against brute force at the usual settings, and its index statistics and descriptions
 * count every fragment and live row as indexed by one segment. Stable row ids too.
 *
 * <p>The referee is lance-core's optimize in append mode ({@code numIndicesToMerge(0)}: a delta
 * index under the existing centroids and codebook, which is what Javelin computes, merged into one
 * index). lance-core's default options on these small indices re-partition instead (8 partitions
 * become 7, the smallest one joined into others), so its PQ distances are not comparable.
 */
class IvfPqOptimizeCompatTest {
  static final int FIRST = 4000;
  static final int ROWS = 6000;
  static final int PER_FILE = 2000;
  static final String DELETED = "id % 10 = 3 OR id = 4444";

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private void lanceWrite(Path path, int start, int end, org.lance.WriteParams.WriteMode mode, boolean stable)
      throws IOException {
    List<VectorSchemaRoot> batches = new ArrayList<>();
    for (int b = start; b < end; b += 1000) {
      VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
      root.allocateNew();
      FixedSizeListVector v = (FixedSizeListVector) root.getVector("v");
      Float4Vector f = (Float4Vector) v.getDataVector();
      for (int i = 0; i < 1000; i++) {
        ((BigIntVector) root.getVector("id")).setSafe(i, b + i);
        v.setNotNull(i);
        for (int j = 0; j < DIM; j++) {
          f.setSafe(i * DIM + j, VECTORS[b + i][j]);
        }
      }
      root.setRowCount(1000);
      batches.add(root);
    }
    try (ArrowReader reader = DatasetCompatSupport.readerOf(allocator, SCHEMA, batches)) {
      org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString()).mode(mode)
          .maxRowsPerFile(PER_FILE).enableStableRowIds(stable).execute().close();
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  private static boolean deleted(long id) {
    return id % 10 == 3 || id == 4444;
  }

  /** The row id lance-core reports for row {@code id}: its stable id, or its address. */
  private static long rowId(long id, boolean stable) {
    return stable ? id : (id / PER_FILE) << 32 | id % PER_FILE;
  }

  private static Set<Long> truth(float[] q, int k, boolean stable) {
    List<Long> live = new ArrayList<>();
    for (long id = 0; id < ROWS; id++) {
      if (!deleted(id)) {
        live.add(id);
      }
    }
    live.sort(Comparator.<Long>comparingDouble(
        id -> dev.javelin.index.DistanceType.L2.distance(q, 0, VECTORS[(int) (long) id], 0, DIM)));
    Set<Long> out = new HashSet<>();
    live.subList(0, k).forEach(id -> out.add(rowId(id, stable)));
    return out;
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : all.toList()) {
        Files.copy(p, to.resolve(from.relativize(p).toString()));
      }
    }
  }

  /**
   * Two copies of a dataset with an index on fragments 0 and 1, fragment 2 appended, rows deleted;
   * returns [the copy Javelin optimizes, the copy lance-core optimizes].
   */
  private Path[] setUp(boolean lanceBuilds, boolean stable) throws IOException {
    Path path = dir.resolve("javelin");
    lanceWrite(path, 0, FIRST, org.lance.WriteParams.WriteMode.CREATE, stable);
    if (lanceBuilds) {
      try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
        IndexParams p = IndexParams.builder()
            .setVectorIndexParams(VectorIndexParams.ivfPq(PARTITIONS, 8, 4, DistanceType.L2, 20)).build();
        lance.createIndex(List.of("v"), org.lance.index.IndexType.IVF_PQ, Optional.of("v_idx"), p, false);
      }
    } else {
      Dataset.open(path, allocator).createIndex("v",
          IvfPqParams.of(PARTITIONS, 4, dev.javelin.index.DistanceType.L2).withIterations(20, 20));
    }
    lanceWrite(path, FIRST, ROWS, org.lance.WriteParams.WriteMode.APPEND, stable);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.delete(DELETED);
    }
    Path own = dir.resolve("lance");
    copy(path, own);
    // Append mode: the new rows in a delta index under the existing model (see the class comment).
    try (org.lance.Dataset lance = org.lance.Dataset.open(own.toString(), allocator)) {
      lance.optimizeIndices(OptimizeOptions.builder().numIndicesToMerge(0).build());
    }
    return new Path[] {path, own};
  }

  /** Javelin's optimize of setUp's dataset: fragment 2 merged into the existing partitions. */
  private Dataset javelinOptimize(Path path) {
    Dataset ds = Dataset.open(path, allocator);
    assertThat(ds.indices()).extracting(IndexInfo::fragments).containsExactly(Set.of(0L, 1L));
    IndexOptimizeResult r = ds.optimizeIndices();
    long deletedIndexed = Stream.iterate(0L, i -> i + 1).limit(FIRST).filter(IvfPqOptimizeCompatTest::deleted).count();
    long appendedLive = Stream.iterate((long) FIRST, i -> i + 1).limit(ROWS - FIRST).filter(id -> !deleted(id)).count();
    assertThat(r.indices()).containsExactly(new OptimizedIndex("v_idx", IndexType.VECTOR,
        OptimizedIndex.Outcome.MERGED, List.of(2L), appendedLive, deletedIndexed, 1, ""));
    assertThat(r.dataset().indices()).extracting(IndexInfo::fragments).containsExactly(Set.of(0L, 1L, 2L));
    return r.dataset();
  }

  /** lance-core counts every fragment and live row of the dataset as indexed by one segment. */
  private static void assertLanceSeesEverythingIndexed(org.lance.Dataset lance, long liveRows) {
    Map<String, Object> stats = lance.getIndexStatistics("v_idx");
    assertThat(((Number) stats.get("num_unindexed_fragments")).longValue()).as(stats.toString()).isZero();
    assertThat(((Number) stats.get("num_unindexed_rows")).longValue()).as(stats.toString()).isZero();
    assertThat(((Number) stats.get("num_indexed_fragments")).longValue()).as(stats.toString()).isEqualTo(3);
    assertThat(((Number) stats.get("num_indexed_rows")).longValue()).as(stats.toString()).isEqualTo(liveRows);
    assertThat(((Number) stats.get("num_indices")).longValue()).as(stats.toString()).isEqualTo(1);
    IndexDescription d = lance.describeIndices().stream().filter(i -> i.getName().equals("v_idx")).findFirst()
        .orElseThrow();
    assertThat(d.getSegments()).hasSize(1);
    assertThat(d.getSegments().get(0).fragments().orElseThrow()).containsExactlyInAnyOrder(0, 1, 2);
    assertThat(lance.getIndexes()).extracting(i -> i.fragments().orElseThrow()).containsExactly(List.of(0, 1, 2));
  }

  /**
   * lance-core on Javelin's optimized index answers as on its own optimize: same PQ distances at
   * every partition, and recall at 2 probes (refine 5) as close as two runs of lance-core's own.
   */
  private void assertLanceAnswersAlike(org.lance.Dataset javelins, org.lance.Dataset lances, boolean stable)
      throws Exception {
    double jr = 0;
    double lr = 0;
    int queries = 20;
    for (int s = 0; s < queries; s++) {
      float[] q = IvfPqIndexCompatTest.query(s);
      Neighbors all = IvfPqIndexCompatTest.lanceNearest(javelins, q, 20, PARTITIONS, null);
      IvfPqIndexCompatTest.assertSameApproximation(all,
          IvfPqIndexCompatTest.lanceNearest(lances, q, 20, PARTITIONS, null));
      Set<Long> truth = truth(q, 10, stable);
      Neighbors exact = IvfPqIndexCompatTest.lanceNearest(javelins, q, 10, PARTITIONS, ROWS / 10);
      assertThat(IvfPqIndexCompatTest.recall(exact, truth)).isEqualTo(1.0);
      jr += IvfPqIndexCompatTest.recall(IvfPqIndexCompatTest.lanceNearest(javelins, q, 10, 2, 5), truth);
      lr += IvfPqIndexCompatTest.recall(IvfPqIndexCompatTest.lanceNearest(lances, q, 10, 2, 5), truth);
    }
    jr /= queries;
    lr /= queries;
    System.out.printf("lance-core recall@10 at nprobes 2, refine 5: on Javelin's optimize %.3f, on its own %.3f%n",
        jr, lr);
    assertThat(jr).isCloseTo(lr, within(0.02));
    assertThat(jr).isGreaterThanOrEqualTo(0.8);
  }

  private void check(boolean lanceBuilds, boolean stable) throws Exception {
    Path[] copies = setUp(lanceBuilds, stable);
    Dataset ds = javelinOptimize(copies[0]);
    long live = ds.countRows();
    try (org.lance.Dataset javelins = org.lance.Dataset.open(copies[0].toString(), allocator);
        org.lance.Dataset lances = org.lance.Dataset.open(copies[1].toString(), allocator)) {
      assertThat(javelins.version()).isEqualTo(ds.version());
      assertLanceSeesEverythingIndexed(javelins, live);
      assertThat(((Number) lances.getIndexStatistics("v_idx").get("num_unindexed_rows")).longValue()).isZero();
      assertLanceAnswersAlike(javelins, lances, stable);
      if (!stable) {
        // Javelin's own search of the optimized index agrees with lance-core's on the same files.
        for (int s = 0; s < 5; s++) {
          float[] q = IvfPqIndexCompatTest.query(s);
          IvfPqIndexCompatTest.assertSameApproximation(ds.nearest("v", q).k(20).nprobes(PARTITIONS).neighbors(),
              IvfPqIndexCompatTest.lanceNearest(javelins, q, 20, PARTITIONS, null));
        }
      }
    }
    // Javelin merges lance-core's delta into its index: one segment, answers unchanged.
    Dataset own = Dataset.open(copies[1], allocator);
    List<String> names = own.indices().stream().map(IndexInfo::name).toList();
    IndexOptimizeResult merged = own.optimizeIndices();
    OptimizedIndex v = merged.index("v_idx");
    assertThat(v.outcome()).isEqualTo(OptimizedIndex.Outcome.MERGED);
    assertThat(v.entriesReplaced()).isEqualTo(names.size());
    assertThat(v.fragmentsAdded()).isEmpty();
    try (org.lance.Dataset lances = org.lance.Dataset.open(copies[1].toString(), allocator);
        org.lance.Dataset javelins = org.lance.Dataset.open(copies[0].toString(), allocator)) {
      assertLanceSeesEverythingIndexed(lances, live);
      for (int s = 0; s < 5; s++) {
        float[] q = IvfPqIndexCompatTest.query(s);
        IvfPqIndexCompatTest.assertSameApproximation(
            IvfPqIndexCompatTest.lanceNearest(lances, q, 20, PARTITIONS, null),
            IvfPqIndexCompatTest.lanceNearest(javelins, q, 20, PARTITIONS, null));
      }
    }
  }

  @Test
  void javelinExtendsAnIndexLanceBuilt() throws Exception {
    check(true, false);
  }

  @Test
  void javelinExtendsAnIndexJavelinBuilt() throws Exception {
    check(false, false);
  }

  @Test
  void javelinExtendsAnIndexLanceBuiltWithStableRowIds() throws Exception {
    check(true, true);
  }

  @Test
  void javelinExtendsAnIndexJavelinBuiltWithStableRowIds() throws Exception {
    check(false, true);
  }

  /**
   * A BTree Javelin builds and optimizes on a dataset with stable row ids holds stable row ids (as
   * lance-core's do): lance-core's indexed answers equal its unindexed scan, for rows of the first
   * fragment (where ids and addresses coincide), the second, and the appended one.
   */
  @Test
  void lanceReadsABTreeJavelinBuiltAndOptimizedWithStableRowIds() throws Exception {
    Path path = dir.resolve("btree");
    lanceWrite(path, 0, FIRST, org.lance.WriteParams.WriteMode.CREATE, true);
    Dataset.open(path, allocator).createIndex("id", IndexType.BTREE);
    lanceWrite(path, FIRST, ROWS, org.lance.WriteParams.WriteMode.APPEND, true);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.delete(DELETED);
    }
    Dataset ds = Dataset.open(path, allocator);
    OptimizedIndex r = ds.optimizeIndices().index("id_idx");
    long deletedIndexed = Stream.iterate(0L, i -> i + 1).limit(FIRST).filter(IvfPqOptimizeCompatTest::deleted).count();
    long appendedLive = Stream.iterate((long) FIRST, i -> i + 1).limit(ROWS - FIRST).filter(id -> !deleted(id)).count();
    assertThat(r).isEqualTo(new OptimizedIndex("id_idx", IndexType.BTREE, OptimizedIndex.Outcome.MERGED,
        List.of(2L), appendedLive, deletedIndexed, 1, ""));
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      Map<String, Object> stats = lance.getIndexStatistics("id_idx");
      assertThat(((Number) stats.get("num_unindexed_rows")).longValue()).as(stats.toString()).isZero();
      assertThat(((Number) stats.get("num_indexed_rows")).longValue()).as(stats.toString())
          .isEqualTo(ds.checkoutLatest().countRows());
      for (String f : List.of("id = 1500", "id = 2500", "id = 4500", "id >= 1990 AND id < 2010",
          "id IN (7, 13, 3999, 4444, 5999)")) {
        List<List<String>> indexed = lanceIds(lance, f, true);
        assertThat(indexed).as(f).isNotEmpty().isEqualTo(lanceIds(lance, f, false));
      }
    }
  }

  private static List<List<String>> lanceIds(org.lance.Dataset lance, String filter, boolean index) throws Exception {
    try (var scanner = lance.newScan(new org.lance.ipc.ScanOptions.Builder().columns(List.of("id")).filter(filter)
        .useScalarIndex(index).build())) {
      List<List<String>> rows = new ArrayList<>(DatasetCompatSupport.readAll(scanner.scanBatches()));
      rows.sort(Comparator.comparingLong(row -> Long.parseLong(row.get(0))));
      return rows;
    }
  }
}
