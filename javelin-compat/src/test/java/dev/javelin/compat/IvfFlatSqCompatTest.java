package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.javelin.core.Dataset;
import dev.javelin.core.IndexOptimizeResult;
import dev.javelin.core.OptimizedIndex;
import dev.javelin.core.VectorSearchPlan;
import dev.javelin.index.IndexType;
import dev.javelin.index.internal.ivf.Neighbors;
import dev.javelin.index.proto.IndexProtos;
import dev.javelin.table.IndexMetadata;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.lance.index.DistanceType;
import org.lance.index.IndexParams;
import org.lance.index.OptimizeOptions;
import org.lance.index.vector.IvfBuildParams;
import org.lance.index.vector.SQBuildParams;
import org.lance.index.vector.VectorIndexParams;
import org.lance.ipc.Query;

/**
 * IVF_FLAT and IVF_SQ both ways with lance-core 7.0.0. Javelin searches lance-core's index with the
 * same distances at every partition (the vectors' squared L2 for IVF_FLAT, the SQ codes' for
 * IVF_SQ) and the same recall at one probe; lance-core lists Javelin's index, searches it with
 * the distances Javelin computes and the recall of its own build, and optimizes it; each side
 * extends the other's index with appended rows, which the other then finds through the index.
 */
class IvfFlatSqCompatTest {
  static final int ROWS = 3000;
  static final int APPENDED = 500;
  static final int PARTITIONS = 40;
  static final int QUERIES = 20;
  static final VectorCompatData DATA = new VectorCompatData(ROWS + APPENDED, 31);

  enum Kind {
    IVF_FLAT, IVF_SQ;

    org.lance.index.IndexType lanceType() {
      return this == IVF_FLAT ? org.lance.index.IndexType.IVF_FLAT : org.lance.index.IndexType.IVF_SQ;
    }

    VectorIndexParams lanceParams() {
      IvfBuildParams ivf = new IvfBuildParams.Builder().setNumPartitions(PARTITIONS).setMaxIters(20).build();
      return this == IVF_FLAT ? VectorIndexParams.ivfFlat(PARTITIONS, DistanceType.L2)
          : new VectorIndexParams.Builder(ivf).setDistanceType(DistanceType.L2)
              .setSqParams(new SQBuildParams.Builder().build()).build();
    }

    // IVF_SQ's code distances are re-ranked to true ones by a refine factor; IVF_FLAT's are true.
    Integer exactRefine() {
      return this == IVF_SQ ? ROWS / 10 : null;
    }
  }

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private void lanceBuild(Path path, Kind kind) throws Exception {
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.createIndex(List.of("v"), kind.lanceType(), Optional.of("v_idx"),
          IndexParams.builder().setVectorIndexParams(kind.lanceParams()).build(), false);
    }
  }

  private Dataset javelinBuild(Path path, Kind kind) {
    Dataset ds = Dataset.open(path, allocator);
    var b = ds.createIndex("v");
    return (kind == Kind.IVF_FLAT ? b.ivfFlat(PARTITIONS, dev.javelin.index.DistanceType.L2)
        : b.ivfSq(PARTITIONS, dev.javelin.index.DistanceType.L2)).commit().dataset();
  }

  static Neighbors lance(org.lance.Dataset lance, float[] q, int k, int nprobes, Integer refine) throws Exception {
    Query.Builder qb = new Query.Builder().setColumn("v").setKey(q).setK(k).setNprobes(nprobes);
    if (refine != null) {
      qb.setRefineFactor(refine);
    }
    return VectorCompatData.lanceNearest(lance, qb.build(), null, false, null);
  }

  /** Javelin at lance-core's {@code setNprobes(n)}: at least and at most n partitions. */
  static Neighbors javelin(Dataset ds, float[] q, int k, int nprobes, Integer refine) {
    var query = ds.nearest("v", q).k(k).nprobes(nprobes).maximumNprobes(nprobes);
    if (refine != null) {
      query.refineFactor(refine);
    }
    return VectorCompatData.javelinNearest(query);
  }

  static IndexProtos.VectorIndexDetails details(Dataset ds) throws Exception {
    IndexMetadata entry = ds.manifest().indices().get(0);
    assertThat(entry.details().typeUrl()).isEqualTo("/lance.index.pb.VectorIndexDetails");
    assertThat(entry.indexVersion()).hasValue(1);
    return IndexProtos.VectorIndexDetails.parseFrom(entry.details().value());
  }

  /** The same distances, row by row, and the same rows away from a tie at the cut-off. */
  static void assertSameAnswer(Neighbors javelin, Neighbors lance) {
    IvfPqIndexCompatTest.assertSameApproximation(javelin, lance);
    for (int i = 0; i < javelin.size(); i++) {
      assertThat(javelin.distances()[i]).as("distance " + i)
          .isCloseTo(lance.distances()[i], within(1e-4f * Math.max(1f, Math.abs(lance.distances()[i]))));
    }
  }

  /**
   * Javelin and lance-core on the same index (covering every fragment): at every partition the
   * same answer, with an exact re-rank the exact one, and at one probe the same recall.
   */
  private void assertAlike(Dataset ds, org.lance.Dataset lance, Kind kind, int rows) throws Exception {
    double jr = 0;
    double lr = 0;
    for (int s = 0; s < QUERIES; s++) {
      float[] q = DATA.query(s);
      long[] truth = DATA.truth(q, 10, r -> r < rows);
      assertSameAnswer(javelin(ds, q, 20, PARTITIONS, null), lance(lance, q, 20, PARTITIONS, null));
      assertThat(javelin(ds, q, 10, PARTITIONS, kind.exactRefine()).rowIds()).containsExactly(truth);
      assertThat(lance(lance, q, 10, PARTITIONS, kind.exactRefine()).rowIds()).containsExactly(truth);
      jr += VectorCompatData.recall(javelin(ds, q, 10, 1, null).rowIds(), truth);
      lr += VectorCompatData.recall(lance(lance, q, 10, 1, null).rowIds(), truth);
    }
    System.out.printf("%s recall@10 at nprobes 1: javelin %.3f, lance-core %.3f%n", kind, jr / QUERIES,
        lr / QUERIES);
    assertThat(jr / QUERIES).isCloseTo(lr / QUERIES, within(0.02));
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void javelinSearchesAndOptimizesTheIndexLanceBuilt(Kind kind) throws Exception {
    Path path = dir.resolve("ds");
    DATA.lanceWrite(allocator, path, 0, ROWS, 1000, false);
    lanceBuild(path, kind);
    Dataset ds = Dataset.open(path, allocator);
    VectorSearchPlan plan = ds.nearest("v", DATA.query(0)).k(10).explain();
    assertThat(plan.index().kind()).isEqualTo(kind.name());
    assertThat(plan.notes()).isEmpty();
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertAlike(ds, lance, kind, ROWS);
    }

    // Appended rows: searched exactly, then Javelin's optimize puts them in the index's partitions.
    DATA.lanceWrite(allocator, path, ROWS, ROWS + APPENDED, 1000, false);
    ds = Dataset.open(path, allocator);
    assertThat(ds.nearest("v", DATA.query(0)).k(10).explain().exactFragments()).containsExactly(3L);
    for (int s = 0; s < 5; s++) {
      float[] q = DATA.query(s);
      assertThat(javelin(ds, q, 10, PARTITIONS, kind.exactRefine()).rowIds())
          .containsExactly(DATA.truth(q, 10, r -> true));
    }
    IndexOptimizeResult r = ds.optimizeIndices();
    assertThat(r.indices()).containsExactly(new OptimizedIndex("v_idx", IndexType.VECTOR,
        OptimizedIndex.Outcome.MERGED, List.of(3L), APPENDED, 0, 1, ""));
    ds = r.dataset();
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      Map<String, Object> stats = lance.getIndexStatistics("v_idx");
      assertThat(((Number) stats.get("num_unindexed_rows")).longValue()).as(stats.toString()).isZero();
      assertThat(((Number) stats.get("num_indexed_rows")).longValue()).as(stats.toString())
          .isEqualTo(ROWS + APPENDED);
      assertThat(stats.get("index_type")).as(stats.toString()).isEqualTo(kind.name());
      assertAlike(ds, lance, kind, ROWS + APPENDED);
    }
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void lanceSearchesAndOptimizesTheIndexJavelinBuilt(Kind kind) throws Exception {
    Path javelins = dir.resolve("javelin");
    Path lances = dir.resolve("lance");
    DATA.lanceWrite(allocator, javelins, 0, ROWS, 1000, false);
    DATA.lanceWrite(allocator, lances, 0, ROWS, 1000, false);
    Dataset ds = javelinBuild(javelins, kind);
    lanceBuild(lances, kind);
    // The entry's details as lance-core records them: the metric, the kind's marker, the same build parameters.
    IndexProtos.VectorIndexDetails mine = details(ds);
    IndexProtos.VectorIndexDetails theirs = details(Dataset.open(lances, allocator));
    assertThat(mine.getMetricType()).isEqualTo(theirs.getMetricType());
    assertThat(mine.hasFlat()).isEqualTo(theirs.hasFlat()).isEqualTo(kind == Kind.IVF_FLAT);
    assertThat(mine.getSq()).isEqualTo(theirs.getSq());
    assertThat(mine.getBuildParamsMap().keySet()).isEqualTo(theirs.getBuildParamsMap().keySet());
    try (org.lance.Dataset lance = org.lance.Dataset.open(javelins.toString(), allocator);
        org.lance.Dataset own = org.lance.Dataset.open(lances.toString(), allocator)) {
      assertThat(lance.listIndexes()).containsExactly("v_idx");
      assertThat(lance.getIndexStatistics("v_idx").get("index_type")).isEqualTo(kind.name());
      assertAlike(ds, lance, kind, ROWS);
      // lance-core's recall on Javelin's index is that on its own (both trained from a random start,
      // so a few probes are needed before one split cluster more or less stops mattering).
      for (int nprobes : new int[] {1, 2, 4}) {
        double jr = 0;
        double lr = 0;
        for (int s = 0; s < QUERIES; s++) {
          float[] q = DATA.query(s);
          long[] truth = DATA.truth(q, 10, x -> x < ROWS);
          jr += VectorCompatData.recall(lance(lance, q, 10, nprobes, null).rowIds(), truth);
          lr += VectorCompatData.recall(lance(own, q, 10, nprobes, null).rowIds(), truth);
        }
        System.out.printf("%s recall@10 at nprobes %d by lance-core: on Javelin's index %.3f, on its own %.3f%n",
            kind, nprobes, jr / QUERIES, lr / QUERIES);
        if (nprobes == 4) {
          assertThat(jr / QUERIES).isCloseTo(lr / QUERIES, within(0.05));
        }
      }
    }

    // lance-core appends and optimizes Javelin's index; both then find the new rows through it.
    DATA.lanceWrite(allocator, javelins, ROWS, ROWS + APPENDED, 1000, false);
    try (org.lance.Dataset lance = org.lance.Dataset.open(javelins.toString(), allocator)) {
      lance.optimizeIndices(OptimizeOptions.builder().build());
    }
    ds = Dataset.open(javelins, allocator);
    VectorSearchPlan plan = ds.nearest("v", DATA.query(0)).k(10).explain();
    assertThat(plan.exactFragments()).isEmpty();
    assertThat(plan.index().kind()).isEqualTo(kind.name());
    try (org.lance.Dataset lance = org.lance.Dataset.open(javelins.toString(), allocator)) {
      Map<String, Object> stats = lance.getIndexStatistics("v_idx");
      assertThat(((Number) stats.get("num_unindexed_rows")).longValue()).as(stats.toString()).isZero();
      assertAlike(ds, lance, kind, ROWS + APPENDED);
    }
  }
}
