package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.VectorSearchPlan;
import dev.javelin.index.DistanceType;
import dev.javelin.index.IvfPqParams;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prefiltered searches through an IVF_PQ index on clustered vectors: k rows come back whenever k
 * rows pass, at 0.01%, 1%, 50% and 100% selectivity, with filters independent of the vectors
 * ({@code id}) and correlated with them ({@code rank}: rows ordered by cluster, so a small range
 * is one cluster, in partitions a query far from it does not probe first), on the fragments the
 * index covers and on an appended one it does not.
 */
class VectorPrefilterTest {
  static final int DIM = 8;
  static final int INDEXED = 20_000;
  static final int ROWS = 22_000;
  static final int K = 10;
  static final float[][] VECTORS = new float[ROWS][];
  static final long[] RANK = new long[ROWS];
  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      new Field("rank", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(DIM)), List.of(
          new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null)))));

  @TempDir static Path dir;
  static BufferAllocator allocator;
  static Dataset ds;

  static {
    Random c = new Random(11);
    float[][] centres = new float[32][DIM];
    for (float[] x : centres) {
      for (int j = 0; j < DIM; j++) {
        x[j] = c.nextFloat() * 20;
      }
    }
    Random n = new Random(12);
    int[] cluster = new int[ROWS];
    for (int r = 0; r < ROWS; r++) {
      cluster[r] = n.nextInt(32);
      VECTORS[r] = new float[DIM];
      for (int j = 0; j < DIM; j++) {
        VECTORS[r][j] = centres[cluster[r]][j] + (float) n.nextGaussian() * 0.5f;
      }
    }
    Integer[] order = new Integer[ROWS];
    for (int i = 0; i < ROWS; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> cluster[a] != cluster[b] ? cluster[a] - cluster[b] : a - b);
    for (int i = 0; i < ROWS; i++) {
      RANK[order[i]] = i;
    }
  }

  static List<VectorSchemaRoot> batches(BufferAllocator allocator, int from, int to) {
    List<VectorSchemaRoot> out = new ArrayList<>();
    for (int b = from; b < to; b += 2000) {
      int n = Math.min(2000, to - b);
      VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
      root.allocateNew();
      FixedSizeListVector v = (FixedSizeListVector) root.getVector("v");
      Float4Vector f = (Float4Vector) v.getDataVector();
      for (int i = 0; i < n; i++) {
        ((BigIntVector) root.getVector("id")).setSafe(i, b + i);
        ((BigIntVector) root.getVector("rank")).setSafe(i, RANK[b + i]);
        v.setNotNull(i);
        for (int j = 0; j < DIM; j++) {
          f.setSafe(i * DIM + j, VECTORS[b + i][j]);
        }
      }
      root.setRowCount(n);
      out.add(root);
    }
    return out;
  }

  @BeforeAll
  static void create() {
    allocator = new RootAllocator();
    List<VectorSchemaRoot> first = batches(allocator, 0, INDEXED);
    List<VectorSchemaRoot> more = batches(allocator, INDEXED, ROWS);
    try {
      ds = Dataset.create(dir.resolve("ds"), first, WriteParams.builder().maxRowsPerFile(5000).build(), allocator)
          .createIndex("v", IvfPqParams.of(32, 4, DistanceType.L2))
          .append(more, WriteParams.defaults());
    } finally {
      first.forEach(VectorSchemaRoot::close);
      more.forEach(VectorSchemaRoot::close);
    }
  }

  @AfterAll
  static void close() {
    VectorQuery.clearCache();
    allocator.close();
  }

  static float[] query(int s) {
    Random r = new Random(500 + s);
    float[] q = VECTORS[r.nextInt(ROWS)].clone();
    for (int j = 0; j < DIM; j++) {
      q[j] += (float) r.nextGaussian() * 0.2f;
    }
    return q;
  }

  /** The ids of the k rows nearest q among those keep passes, by their true vectors. */
  static long[] truth(float[] q, LongPredicate keep) {
    List<Integer> passing = new ArrayList<>();
    float[] d = new float[ROWS];
    for (int r = 0; r < ROWS; r++) {
      if (keep.test(r)) {
        passing.add(r);
        d[r] = DistanceType.L2.distance(q, 0, VECTORS[r], 0, DIM);
      }
    }
    passing.sort((a, b) -> d[a] != d[b] ? Float.compare(d[a], d[b]) : a - b);
    return passing.stream().limit(K).mapToLong(Integer::longValue).toArray();
  }

  /** The {@code id}s of the result rows, in order. */
  static long[] ids(VectorQuery q) {
    try (VectorSchemaRoot rows = q.columns(List.of("id")).execute()) {
      long[] out = new long[rows.getRowCount()];
      for (int i = 0; i < out.length; i++) {
        out[i] = ((BigIntVector) rows.getVector("id")).get(i);
      }
      return out;
    }
  }

  static double recall(long[] got, long[] truth) {
    return truth.length == 0 ? 1 : Arrays.stream(got).filter(g -> Arrays.stream(truth).anyMatch(t -> t == g))
        .count() / (double) truth.length;
  }

  /**
   * For each filter: k rows (or every passing row when fewer pass), all passing, and with a refine
   * factor nearly the true nearest passing rows; with 1 probe the first partition rarely holds them.
   */
  private void check(String filter, LongPredicate keep) {
    double recall = 0;
    int queries = 6;
    for (int s = 0; s < queries; s++) {
      float[] q = query(s);
      long[] truth = truth(q, keep);
      long[] got = ids(ds.nearest("v", q).k(K).nprobes(1).filter(filter).prefilter(true));
      assertThat(got).as(filter + " query " + s).hasSize(truth.length);
      assertThat(Arrays.stream(got).allMatch(keep::test)).as(filter + " passes").isTrue();
      long[] refined = ids(ds.nearest("v", q).k(K).nprobes(1).refineFactor(4).filter(filter).prefilter(true));
      assertThat(refined).as(filter + " refined, query " + s).hasSize(truth.length);
      recall += recall(refined, truth);
      if (truth.length < K) {
        // Every passing row, in true order.
        assertThat(refined).as(filter).containsExactly(truth);
      }
    }
    assertThat(recall / queries).as("recall@" + K + " of " + filter).isGreaterThanOrEqualTo(0.75);
  }

  @Test
  void uncorrelatedFilters() {
    check("id < 2", r -> r < 2); // 0.01%
    check("id < 220", r -> r < 220); // 1%
    check("id % 2 = 0", r -> r % 2 == 0); // 50%
    check("id >= 0", r -> true); // 100%
  }

  @Test
  void correlatedFilters() {
    check("rank < 2", r -> RANK[(int) r] < 2);
    check("rank < 220", r -> RANK[(int) r] < 220);
    check("rank < 11000", r -> RANK[(int) r] < 11_000);
    check("rank >= 0", r -> true);
  }

  @Test
  void rowsOnlyInTheFragmentTheIndexDoesNotCover() {
    check("id >= 21990", r -> r >= 21_990);
    check("id >= 20000 AND rank < 2000", r -> r >= 20_000 && RANK[(int) r] < 2000);
    // Some passing rows on each side.
    check("id >= 19995 AND id < 20005", r -> r >= 19_995 && r < 20_005);
  }

  @Test
  void maximumNprobesBoundsTheSearch() {
    // Rows of one cluster pass; with 1 probe at most (Lance's nprobes) most queries miss them.
    int fewer = 0;
    for (int s = 0; s < 6; s++) {
      float[] q = query(s);
      long[] capped = ids(ds.nearest("v", q).k(K).nprobes(1).maximumNprobes(1).filter("rank < 220")
          .prefilter(true));
      assertThat(capped.length).isLessThanOrEqualTo(K);
      fewer += capped.length < K ? 1 : 0;
      assertThat(ids(ds.nearest("v", q).k(K).nprobes(1).maximumNprobes(32).filter("rank < 220")
          .prefilter(true))).hasSize(K);
    }
    assertThat(fewer).isPositive();
  }

  @Test
  void explainNamesTheProbes() {
    VectorSearchPlan plan = ds.nearest("v", query(0)).k(K).nprobes(3).filter("id < 5").prefilter(true).explain();
    assertThat(plan.index()).isEqualTo(new VectorSearchPlan.IndexUse("v_idx", "IVF_PQ", 32, 3, 32));
    assertThat(plan.indexedFragments()).containsExactly(0L, 1L, 2L, 3L);
    assertThat(plan.exactFragments()).containsExactly(4L);
    // As in lance-core, the index's candidates are re-ranked by their true vectors when some
    // fragments are searched exactly.
    assertThat(plan.approximateDistances()).isFalse();
    assertThat(plan.describe()).isEqualTo("""
        vector search: column v, k 10, l2
        filter: id < 5 (before the search)
        index: v_idx (IVF_PQ, 32 partitions) for fragments 0-3: probes 3 partitions, up to 32 while fewer than 10 \
        rows are found
        fragments searched exactly: 1 (4)
        distances: exact
        """);
    VectorSearchPlan exact = ds.nearest("v", query(0)).useIndex(false).explain();
    assertThat(exact.index()).isNull();
    assertThat(exact.notes()).containsExactly("indices turned off: every fragment searched exactly");
    assertThat(exact.approximateDistances()).isFalse();
  }
}
