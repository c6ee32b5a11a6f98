package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.javelin.core.Dataset;
import dev.javelin.core.VectorQuery;
import dev.javelin.index.internal.ivf.Neighbors;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.IntPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.index.DistanceType;
import org.lance.index.IndexParams;
import org.lance.index.vector.VectorIndexParams;
import org.lance.ipc.Query;

/**
 * Javelin's and lance-core 7.0.0's vector search on one dataset and one IVF_PQ index (lance-core
 * builds it; an appended fragment stays unindexed): prefiltered searches at 0.01%, 1%, 50% and
 * 100% selectivity, filters independent of and correlated with the vectors, with minimum nprobes
 * (further partitions searched while fewer than k rows pass), and the kind of {@code _distance}
 * each returns with and without a refine factor.
 */
class VectorSearchCompatTest {
  static final int INDEXED = 20_000;
  static final int ROWS = 22_000;
  static final int K = 10;
  static final int PARTITIONS = 32;
  static final VectorCompatData DATA = new VectorCompatData(ROWS, 31);

  @TempDir static Path dir;
  static BufferAllocator allocator;
  static Path path;

  @BeforeAll
  static void create() throws Exception {
    allocator = new RootAllocator();
    path = dir.resolve("ds");
    DATA.lanceWrite(allocator, path, 0, INDEXED, 5000, false);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.createIndex(List.of("v"), org.lance.index.IndexType.IVF_PQ, Optional.of("v_idx"),
          IndexParams.builder().setVectorIndexParams(VectorIndexParams.ivfPq(PARTITIONS, 8, 4, DistanceType.L2, 20))
              .build(), false);
    }
    DATA.lanceWrite(allocator, path, INDEXED, ROWS, 5000, false);
  }

  @AfterAll
  static void close() {
    allocator.close();
  }

  private static Query lanceQuery(float[] q, int minimum, Integer maximum, Integer refine) {
    Query.Builder b = new Query.Builder().setColumn("v").setKey(q).setK(K).setMinimumNprobes(minimum);
    if (maximum != null) {
      b.setMaximumNprobes(maximum);
    }
    if (refine != null) {
      b.setRefineFactor(refine);
    }
    return b.build();
  }

  /**
   * Over a few queries: Javelin returns min(k, passing) rows, at least as many as lance-core, and
   * its recall is at least lance-core's (both without re-ranking, same minimum nprobes), less a
   * tolerance of two rows in the 160 asked for: the two sides sum PQ distances in different orders,
   * so a candidate whose distance ties the k-th (or k * refine-th) to within float rounding can go
   * either way, and lance-core's index (k-means from a random start) differs from run to run.
   */
  private void compare(org.lance.Dataset lance, Dataset ds, String filter, IntPredicate keep) throws Exception {
    double jr = 0;
    double lr = 0;
    double jrr = 0;
    double lrr = 0;
    int queries = 16;
    for (int s = 0; s < queries; s++) {
      float[] q = DATA.query(s);
      long[] truth = DATA.truth(q, K, keep);
      Neighbors l = VectorCompatData.lanceNearest(lance, lanceQuery(q, 1, null, null), filter, true, null);
      Neighbors j = VectorCompatData.javelinNearest(ds.nearest("v", q).k(K).nprobes(1).filter(filter)
          .prefilter(true));
      assertThat(j.size()).as(filter + " query " + s).isEqualTo(truth.length);
      assertThat(j.size()).as(filter + " query " + s + " vs lance-core").isGreaterThanOrEqualTo(l.size());
      assertThat(Arrays.stream(j.rowIds()).allMatch(id -> keep.test((int) id))).isTrue();
      jr += VectorCompatData.recall(j.rowIds(), truth);
      lr += VectorCompatData.recall(l.rowIds(), truth);
      // Re-ranked (refine factor 2), on both sides.
      jrr += VectorCompatData.recall(VectorCompatData.javelinNearest(ds.nearest("v", q).k(K).nprobes(1)
          .refineFactor(2).filter(filter).prefilter(true)).rowIds(), truth);
      lrr += VectorCompatData.recall(VectorCompatData.lanceNearest(lance, lanceQuery(q, 1, null, 2), filter, true,
          null).rowIds(), truth);
      // Lance's nprobes (minimum = maximum = 1) against Javelin's nprobes(1).maximumNprobes(1): no more rows.
      Neighbors lc = VectorCompatData.lanceNearest(lance, lanceQuery(q, 1, 1, null), filter, true, null);
      Neighbors jc = VectorCompatData.javelinNearest(ds.nearest("v", q).k(K).nprobes(1).maximumNprobes(1)
          .filter(filter).prefilter(true));
      assertThat(jc.size()).as(filter + " capped, query " + s).isGreaterThanOrEqualTo(lc.size());
    }
    System.out.printf("prefilter %-28s recall@%d at minimum nprobes 1: javelin %.3f, lance-core %.3f; refine 2: "
        + "javelin %.3f, lance-core %.3f%n", filter, K, jr / queries, lr / queries, jrr / queries, lrr / queries);
    double tolerance = 2.0 / (queries * K) + 1e-9;
    assertThat(jr / queries).as("recall of " + filter).isGreaterThanOrEqualTo(lr / queries - tolerance);
    assertThat(jrr / queries).as("recall of " + filter + ", refine 2").isGreaterThanOrEqualTo(lrr / queries - tolerance);
  }

  @Test
  void prefilterReturnsKRowsWithRecallAtLeastLanceCores() throws Exception {
    Dataset ds = Dataset.open(path, allocator);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      long[] rank = DATA.rank;
      // Independent of the vectors.
      compare(lance, ds, "id < 2", r -> r < 2);
      compare(lance, ds, "id < 220", r -> r < 220);
      compare(lance, ds, "id % 2 = 0", r -> r % 2 == 0);
      compare(lance, ds, "id >= 0", r -> true);
      // Correlated: whole clusters.
      compare(lance, ds, "rank < 2", r -> rank[r] < 2);
      compare(lance, ds, "rank < 220", r -> rank[r] < 220);
      compare(lance, ds, "rank < 11000", r -> rank[r] < 11_000);
      // Only in the fragment the index does not cover, and on both sides of it.
      compare(lance, ds, "id >= 21990", r -> r >= 21_990);
      compare(lance, ds, "id >= 19995 AND id < 20005", r -> r >= 19_995 && r < 20_005);
      compare(lance, ds, "id >= 20000 AND rank < 3000", r -> r >= 20_000 && rank[r] < 3000);
    }
  }

  /**
   * lance-core 7.0.0 returns (and ranks by) PQ distances when its index covers every fragment and
   * no refine factor is set, true distances with a refine factor (1 too) and when some fragments
   * are unindexed (it re-ranks the index's candidates then). Javelin does the same, and says which
   * in {@code _distance}'s metadata.
   */
  @Test
  void distancesAreApproximateExactlyWhenLanceCoresAre() throws Exception {
    VectorCompatData data = new VectorCompatData(6500, 41);
    Path p = dir.resolve("distances");
    data.lanceWrite(allocator, p, 0, 6000, 2000, false);
    try (org.lance.Dataset lance = org.lance.Dataset.open(p.toString(), allocator)) {
      lance.createIndex(List.of("v"), org.lance.index.IndexType.IVF_PQ, Optional.of("v_idx"),
          IndexParams.builder().setVectorIndexParams(VectorIndexParams.ivfPq(8, 8, 4, DistanceType.L2, 20)).build(),
          false);
    }
    for (boolean appended : new boolean[] {false, true}) {
      if (appended) {
        data.lanceWrite(allocator, p, 6000, 6500, 2000, false);
      }
      Dataset ds = Dataset.open(p, allocator);
      int approximate = 0;
      // Re-ranked results: the same rows, but for candidates whose PQ distances nearly tie at the
      // cut, which either side may pick.
      double same = 0;
      int compared = 0;
      try (org.lance.Dataset lance = org.lance.Dataset.open(p.toString(), allocator)) {
        for (int s = 0; s < 5; s++) {
          float[] q = data.query(s);
          for (Integer refine : new Integer[] {null, 1, 3}) {
            Neighbors l = VectorCompatData.lanceNearest(lance, lanceQuery(q, 8, 8, refine), null, false, null);
            VectorQuery query = ds.nearest("v", q).k(K).nprobes(8);
            if (refine != null) {
              query.refineFactor(refine);
            }
            Neighbors j = VectorCompatData.javelinNearest(query);
            String what = (appended ? "with an unindexed fragment" : "all indexed") + ", refine " + refine;
            assertThat(j.size()).isEqualTo(K);
            boolean pq = !appended && refine == null;
            if (!pq) {
              same += VectorCompatData.recall(j.rowIds(), l.rowIds());
              compared++;
            }
            for (int i = 0; i < K; i++) {
              float exact = trueDistance(data, q, j.rowIds()[i]);
              boolean off = Math.abs(j.distances()[i] - exact) > 1e-3f * Math.max(1f, exact);
              if (appended || refine != null) {
                assertThat(off).as(what + ": true distance of row " + j.rowIds()[i]).isFalse();
              }
              approximate += off ? 1 : 0;
              if (pq) {
                // The same PQ distances on both sides (rows may swap on near-ties only).
                assertThat(j.distances()[i]).as(what + ", distance " + i).isCloseTo(l.distances()[i],
                    within(1e-3f * Math.max(1f, l.distances()[i])));
              }
            }
          }
        }
      }
      assertThat(same / compared).as("rows shared with lance-core's re-ranked results").isGreaterThanOrEqualTo(0.9);
      assertThat(approximate > 0).as("PQ distances returned, " + (appended ? "appended" : "all indexed"))
          .isEqualTo(!appended);
      // The result says which kind of distance it holds.
      float[] q = data.query(0);
      assertThat(distanceField(ds.nearest("v", q).k(K)).getMetadata())
          .containsEntry(VectorQuery.DISTANCE_KIND_KEY, appended ? "exact" : "approximate")
          .containsEntry(VectorQuery.DISTANCE_TYPE_KEY, "l2");
      assertThat(ds.nearest("v", q).k(K).explain().approximateDistances()).isEqualTo(!appended);
      assertThat(distanceField(ds.nearest("v", q).k(K).refineFactor(1)).getMetadata())
          .containsEntry(VectorQuery.DISTANCE_KIND_KEY, "exact");
      assertThat(distanceField(ds.nearest("v", q).k(K).useIndex(false)).getMetadata())
          .containsEntry(VectorQuery.DISTANCE_KIND_KEY, "exact");
    }
  }

  private static float trueDistance(VectorCompatData data, float[] q, long id) {
    return dev.javelin.index.DistanceType.L2.distance(q, 0, data.vectors[(int) id], 0, VectorCompatData.DIM);
  }

  private static Field distanceField(VectorQuery q) {
    try (VectorSchemaRoot rows = q.columns(List.of("id")).execute()) {
      return rows.getSchema().findField(VectorQuery.DISTANCE);
    }
  }
}
