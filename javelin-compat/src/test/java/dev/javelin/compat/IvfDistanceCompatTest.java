package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.javelin.core.Dataset;
import dev.javelin.core.VectorQuery;
import dev.javelin.index.IvfParams;
import dev.javelin.index.internal.ivf.Neighbors;
import dev.javelin.index.proto.IndexProtos;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.lance.index.DistanceType;
import org.lance.index.IndexParams;
import org.lance.index.vector.HnswBuildParams;
import org.lance.index.vector.IvfBuildParams;
import org.lance.index.vector.SQBuildParams;
import org.lance.index.vector.VectorIndexParams;
import org.lance.ipc.Query;

/**
 * IVF_FLAT, IVF_SQ and IVF_HNSW_SQ by cosine and dot distance, both ways with lance-core 7.0.0:
 * each side searches the other's index with the same distances (IVF_FLAT: the vectors', IVF_SQ:
 * the codes'; IVF_HNSW_SQ: the codes' for the rows both find, at the same recall) and, re-ranked
 * over every partition, finds the exact answer; the manifest records the metric as lance-core does.
 */
class IvfDistanceCompatTest {
  static final int ROWS = 2000;
  static final int PARTITIONS = 4;
  static final int QUERIES = 10;
  static final VectorCompatData DATA = new VectorCompatData(ROWS, 53);

  enum Kind { IVF_FLAT, IVF_SQ, IVF_HNSW_SQ }

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  static List<Arguments> cases() {
    return IntStream.range(0, 6).mapToObj(i -> Arguments.of(Kind.values()[i / 2],
        i % 2 == 0 ? DistanceType.Cosine : DistanceType.Dot)).toList();
  }

  private static dev.javelin.index.DistanceType javelins(DistanceType d) {
    return d == DistanceType.Cosine ? dev.javelin.index.DistanceType.COSINE : dev.javelin.index.DistanceType.DOT;
  }

  private void lanceBuild(Path path, Kind kind, DistanceType d) throws Exception {
    IvfBuildParams ivf = new IvfBuildParams.Builder().setNumPartitions(PARTITIONS).setMaxIters(20).build();
    VectorIndexParams params = switch (kind) {
      case IVF_FLAT -> VectorIndexParams.ivfFlat(PARTITIONS, d);
      case IVF_SQ -> new VectorIndexParams.Builder(ivf).setDistanceType(d)
          .setSqParams(new SQBuildParams.Builder().build()).build();
      case IVF_HNSW_SQ -> VectorIndexParams.withIvfHnswSqParams(d, ivf, new HnswBuildParams.Builder().build(),
          new SQBuildParams.Builder().build());
    };
    org.lance.index.IndexType type = switch (kind) {
      case IVF_FLAT -> org.lance.index.IndexType.IVF_FLAT;
      case IVF_SQ -> org.lance.index.IndexType.IVF_SQ;
      case IVF_HNSW_SQ -> org.lance.index.IndexType.IVF_HNSW_SQ;
    };
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.createIndex(List.of("v"), type, Optional.of("v_idx"),
          IndexParams.builder().setVectorIndexParams(params).build(), false);
    }
  }

  private Dataset javelinBuild(Path path, Kind kind, DistanceType d) {
    var b = Dataset.open(path, allocator).createIndex("v");
    return (switch (kind) {
      case IVF_FLAT -> b.ivfFlat(PARTITIONS, javelins(d));
      case IVF_SQ -> b.ivfSq(PARTITIONS, javelins(d));
      case IVF_HNSW_SQ -> b.ivfHnswSq(IvfParams.of(PARTITIONS, javelins(d)), 20, 150);
    }).commit().dataset();
  }

  // Every partition, and for HNSW a wide graph search; a refine factor re-ranks by true distance.
  static Neighbors lance(org.lance.Dataset lance, float[] q, int k, DistanceType d, Integer refine)
      throws Exception {
    Query.Builder qb = new Query.Builder().setColumn("v").setKey(q).setK(k).setNprobes(PARTITIONS)
        .setDistanceType(d).setEf(300);
    if (refine != null) {
      qb.setRefineFactor(refine);
    }
    return VectorCompatData.lanceNearest(lance, qb.build(), null, false, null);
  }

  static Neighbors javelin(Dataset ds, float[] q, int k, DistanceType d, Integer refine) {
    VectorQuery query = ds.nearest("v", q).k(k).nprobes(PARTITIONS).maximumNprobes(PARTITIONS)
        .distanceType(javelins(d)).ef(300);
    if (refine != null) {
      query.refineFactor(refine);
    }
    return VectorCompatData.javelinNearest(query);
  }

  /** The ids of the k rows nearest q by this distance (ties by id). */
  static long[] truth(float[] q, int k, DistanceType d) {
    dev.javelin.index.DistanceType dt = javelins(d);
    float[] dist = new float[ROWS];
    for (int i = 0; i < ROWS; i++) {
      dist[i] = dt.distance(q, 0, DATA.vectors[i], 0, VectorCompatData.DIM);
    }
    return IntStream.range(0, ROWS).boxed()
        .sorted(Comparator.<Integer>comparingDouble(i -> dist[i]).thenComparing(i -> i))
        .limit(k).mapToLong(Integer::longValue).toArray();
  }

  /**
   * Javelin and lance-core on the same index: IVF_FLAT and IVF_SQ give the same answer over every
   * partition; IVF_HNSW_SQ the same nearest row, the same code distances for the rows both find,
   * and the same recall; re-ranked, both the exact answer.
   */
  private void assertAlike(Dataset ds, org.lance.Dataset lance, Kind kind, DistanceType d, boolean exact)
      throws Exception {
    double jr = 0;
    double lr = 0;
    double exactRecall = 0;
    for (int s = 0; s < QUERIES; s++) {
      float[] q = DATA.query(s);
      long[] truth = truth(q, 10, d);
      Neighbors j = javelin(ds, q, 10, d, null);
      Neighbors l = lance(lance, q, 10, d, null);
      if (kind == Kind.IVF_HNSW_SQ) {
        assertThat(j.rowIds()[0]).isEqualTo(l.rowIds()[0]);
        for (int a = 0; a < j.size(); a++) {
          for (int b = 0; b < l.size(); b++) {
            if (j.rowIds()[a] == l.rowIds()[b]) {
              assertThat(j.distances()[a]).isCloseTo(l.distances()[b], within(1e-5f));
            }
          }
        }
      } else {
        IvfFlatSqCompatTest.assertSameAnswer(j, l);
      }
      jr += VectorCompatData.recall(j.rowIds(), truth);
      lr += VectorCompatData.recall(l.rowIds(), truth);
      long[] refined = javelin(ds, q, 10, d, 30).rowIds();
      assertThat(lance(lance, q, 10, d, 30).rowIds()).containsExactly(refined);
      if (exact) {
        assertThat(refined).containsExactly(truth);
      }
      exactRecall += VectorCompatData.recall(refined, truth);
    }
    System.out.printf("%s %s recall@10: javelin %.3f, lance-core %.3f; re-ranked %.3f%n", kind, d, jr / QUERIES,
        lr / QUERIES, exactRecall / QUERIES);
    assertThat(jr / QUERIES).isCloseTo(lr / QUERIES, within(0.02));
    assertThat(exactRecall / QUERIES).isGreaterThanOrEqualTo(0.85);
  }

  /**
   * Whether a wide, re-ranked search over every partition must find the exact answer. Not for
   * HNSW by dot distance: with a distance that is no metric, the neighbour heuristic keeps few
   * links per node, and some rows are reached by no walk; seen on lance-core's graphs and on
   * Javelin's alike (one query of ten then misses half its rows, on both sides the same).
   */
  private static boolean exactWhenReRanked(Kind kind, DistanceType d) {
    return !(kind == Kind.IVF_HNSW_SQ && d == DistanceType.Dot);
  }

  @ParameterizedTest
  @MethodSource("cases")
  void bothSearchTheIndexLanceBuilt(Kind kind, DistanceType d) throws Exception {
    Path path = dir.resolve("ds");
    DATA.lanceWrite(allocator, path, 0, ROWS, 1000, false);
    lanceBuild(path, kind, d);
    Dataset ds = Dataset.open(path, allocator);
    // Without a distance given, the index's is used, as lance-core does.
    dev.javelin.core.VectorSearchPlan plan = ds.nearest("v", DATA.query(0)).explain();
    assertThat(plan.index().kind()).isEqualTo(kind.name());
    assertThat(plan.distanceType()).isEqualTo(javelins(d).lanceName());
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertAlike(ds, lance, kind, d, exactWhenReRanked(kind, d));
    }
  }

  @ParameterizedTest
  @MethodSource("cases")
  void bothSearchTheIndexJavelinBuilt(Kind kind, DistanceType d) throws Exception {
    Path javelins = dir.resolve("javelin");
    Path lances = dir.resolve("lance");
    DATA.lanceWrite(allocator, javelins, 0, ROWS, 1000, false);
    DATA.lanceWrite(allocator, lances, 0, ROWS, 1000, false);
    Dataset ds = javelinBuild(javelins, kind, d);
    lanceBuild(lances, kind, d);
    IndexProtos.VectorIndexDetails mine = IvfFlatSqCompatTest.details(ds);
    IndexProtos.VectorIndexDetails theirs = IvfFlatSqCompatTest.details(Dataset.open(lances, allocator));
    assertThat(mine.getMetricType()).isEqualTo(theirs.getMetricType())
        .isEqualTo(d == DistanceType.Cosine ? IndexProtos.VectorMetricType.Cosine : IndexProtos.VectorMetricType.Dot);
    try (org.lance.Dataset lance = org.lance.Dataset.open(javelins.toString(), allocator)) {
      assertThat(lance.getIndexStatistics("v_idx").get("index_type")).isEqualTo(kind.name());
      assertAlike(ds, lance, kind, d, exactWhenReRanked(kind, d));
    }
  }
}
