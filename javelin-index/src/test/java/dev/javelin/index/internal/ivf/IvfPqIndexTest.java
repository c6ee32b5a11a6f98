package dev.javelin.index.internal.ivf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.index.DistanceType;
import dev.javelin.index.IvfPqParams;
import dev.javelin.index.RowAddressMap;
import dev.javelin.index.exceptions.VectorIndexException;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IvfPqIndexTest {
  static final int DIM = 32;
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  /** {@code rows} vectors: uniform in [0,1), or around 64 random centres when clustered. */
  static float[] data(int rows, boolean clustered, long seed) {
    Random r = new Random(seed);
    float[] centres = new float[64 * DIM];
    for (int i = 0; i < centres.length; i++) {
      centres[i] = r.nextFloat() * 10;
    }
    float[] v = new float[rows * DIM];
    for (int i = 0; i < rows; i++) {
      int c = r.nextInt(64);
      for (int j = 0; j < DIM; j++) {
        v[i * DIM + j] = clustered ? centres[c * DIM + j] + (float) r.nextGaussian() * 0.5f : r.nextFloat();
      }
    }
    return v;
  }

  static long[] ids(int rows) {
    long[] ids = new long[rows];
    for (int i = 0; i < rows; i++) {
      ids[i] = ((long) (i / 5000) << 32) | (i % 5000);
    }
    return ids;
  }

  IvfPqIndex build(float[] v, int rows, IvfPqParams params, String uuid) throws Exception {
    IvfPqBuilder b = new IvfPqBuilder(DIM, params);
    b.train(v, Math.min(rows, params.sampleSize()));
    b.add(v, rows, ids(rows));
    LocalObjectStore store = new LocalObjectStore(dir);
    b.write(store, "_indices/" + uuid, allocator);
    return IvfPqIndex.open(store, uuid, allocator);
  }

  static double recall(IvfPqIndex index, float[] v, int rows, DistanceType dt, int nprobes, long seed) {
    Random r = new Random(seed);
    long[] ids = ids(rows);
    int hits = 0;
    int queries = 50;
    for (int q = 0; q < queries; q++) {
      float[] query = new float[DIM];
      int base = r.nextInt(rows);
      for (int j = 0; j < DIM; j++) {
        query[j] = v[base * DIM + j] + (float) r.nextGaussian() * 0.1f;
      }
      FlatSearch flat = new FlatSearch(query, dt, 10);
      flat.add(v, 0, rows, ids);
      Set<Long> truth = new HashSet<>();
      for (long id : flat.result().rowIds()) {
        truth.add(id);
      }
      // Re-rank 10x candidates with the true vectors, as refine_factor does.
      Neighbors approx = index.search(query, 100, nprobes, null);
      FlatSearch refine = new FlatSearch(query, dt, 10);
      for (long id : approx.rowIds()) {
        int row = (int) ((id >>> 32) * 5000 + (id & 0xFFFFFFFFL));
        refine.add(v, row * DIM, id);
      }
      for (long id : refine.result().rowIds()) {
        if (truth.contains(id)) {
          hits++;
        }
      }
    }
    return hits / (queries * 10.0);
  }

  @Test
  void recallOnClusteredAndRandomData() throws Exception {
    int rows = 20000;
    for (boolean clustered : new boolean[] {true, false}) {
      float[] v = data(rows, clustered, clustered ? 1 : 2);
      IvfPqIndex index = build(v, rows, IvfPqParams.of(32, 8, DistanceType.L2).withIterations(20, 10),
          "u" + clustered);
      assertThat(index.numRows()).isEqualTo(rows);
      assertThat(index.numPartitions()).isEqualTo(32);
      assertThat(index.numSubVectors()).isEqualTo(8);
      assertThat(recall(index, v, rows, DistanceType.L2, 16, 7)).as("clustered=" + clustered)
          .isGreaterThanOrEqualTo(0.9);
    }
  }

  /**
   * The search finds what the plain definition finds: nearest centroids by one l2 (or dot)
   * each, a row's distance the sum over its sub-vectors of one l2 (or dot) per sub-vector. For
   * DOT the kernels compute exactly that, bit for bit. For L2 and cosine the tables come from
   * precomputed per-partition terms (||q - C - c||^2 = ||q - C||^2 - 2 q.c + ||c||^2 + 2 C.c),
   * equal up to rounding: every returned distance is within 1e-4 (relative) of the row's
   * definition, and no probed row left out is nearer, by the definition, than the k-th returned.
   */
  @Test
  void searchEqualsTheDefinition() throws Exception {
    int rows = 6000;
    float[] v = data(rows, true, 8);
    LocalObjectStore store = new LocalObjectStore(dir);
    for (DistanceType dt : DistanceType.values()) {
      // Sub-vectors of 2, 4, 8 and 32 floats (dim 32): every kernel's remainder paths.
      for (int m : new int[] {16, 8, 4, 1}) {
        String uuid = "ref-" + dt + m;
        IvfPqIndex index = build(v, rows, IvfPqParams.of(16, m, dt).withIterations(5, 3), uuid);
        IvfPqFiles.Contents c = IvfPqFiles.read(store, "_indices/" + uuid, allocator);
        Random r = new Random(m);
        for (int q = 0; q < 5; q++) {
          float[] query = new float[DIM];
          for (int j = 0; j < DIM; j++) {
            query[j] = v[r.nextInt(rows) * DIM + j] + (float) r.nextGaussian();
          }
          for (int nprobes : new int[] {1, 5, 16}) {
            Neighbors got = index.search(query, 20, nprobes, null, Long.MAX_VALUE);
            java.util.Map<Long, Float> want = reference(c, query, nprobes);
            String what = dt + " m=" + m + " nprobes=" + nprobes;
            assertThat(got.size()).as(what).isEqualTo(Math.min(20, want.size()));
            float last = got.distances()[got.size() - 1];
            float tolerance = 1e-4f * Math.max(1f, Math.abs(last));
            for (int i = 0; i < got.size(); i++) {
              long id = got.rowIds()[i];
              assertThat(want).as(what).containsKey(id);
              if (dt == DistanceType.DOT) {
                assertThat(Float.floatToRawIntBits(got.distances()[i])).as("%s row %d", what, i)
                    .isEqualTo(Float.floatToRawIntBits(want.get(id)));
              } else {
                assertThat(got.distances()[i]).as("%s row %d", what, i)
                    .isCloseTo(want.get(id), org.assertj.core.data.Offset.offset(tolerance));
              }
              if (i > 0) {
                assertThat(got.distances()[i]).as(what).isGreaterThanOrEqualTo(got.distances()[i - 1]);
              }
            }
            Set<Long> returned = new HashSet<>();
            for (long id : got.rowIds()) {
              returned.add(id);
            }
            for (java.util.Map.Entry<Long, Float> e : want.entrySet()) {
              if (!returned.contains(e.getKey())) {
                assertThat(e.getValue()).as("%s row %d left out", what, e.getKey())
                    .isGreaterThanOrEqualTo(last - tolerance);
              }
            }
          }
        }
      }
    }
  }

  /**
   * Without precomputed terms (indices above the terms' memory limit) each partition's table is
   * computed directly, and the search gives exactly, bit for bit, what the plain definition gives,
   * in every distance type: the same rows in the same order, the same distances.
   */
  @Test
  void directTablesEqualTheDefinitionBitForBit() throws Exception {
    int rows = 3000;
    float[] v = data(rows, true, 9);
    LocalObjectStore store = new LocalObjectStore(dir);
    for (DistanceType dt : DistanceType.values()) {
      for (int m : new int[] {16, 4, 1}) {
        String uuid = "direct-" + dt + m;
        build(v, rows, IvfPqParams.of(16, m, dt).withIterations(5, 3), uuid);
        IvfPqIndex index = IvfPqIndex.open(store, uuid, allocator, 0);
        IvfPqFiles.Contents c = IvfPqFiles.read(store, "_indices/" + uuid, allocator);
        Random r = new Random(m);
        for (int q = 0; q < 3; q++) {
          float[] query = new float[DIM];
          for (int j = 0; j < DIM; j++) {
            query[j] = v[r.nextInt(rows) * DIM + j] + (float) r.nextGaussian();
          }
          for (int nprobes : new int[] {1, 16}) {
            Neighbors got = index.search(query, 20, nprobes, null, Long.MAX_VALUE);
            java.util.Map<Long, Float> want = reference(c, query, nprobes);
            TopK top = new TopK(20);
            want.forEach((id, d) -> top.offer(d, id));
            Neighbors nearest = top.result();
            String what = dt + " m=" + m + " nprobes=" + nprobes;
            assertThat(got.rowIds()).as(what).containsExactly(nearest.rowIds());
            for (int i = 0; i < got.size(); i++) {
              assertThat(Float.floatToRawIntBits(got.distances()[i])).as("%s row %d", what, i)
                  .isEqualTo(Float.floatToRawIntBits(nearest.distances()[i]));
            }
          }
        }
      }
    }
  }

  // Every probed row's distance by the definition, written out plainly.
  private static java.util.Map<Long, Float> reference(IvfPqFiles.Contents c, float[] query, int nprobes) {
    IvfPqModel model = c.model();
    int dim = model.dim;
    int m = model.pq.m;
    int sub = dim / m;
    boolean dot = model.distanceType == DistanceType.DOT;
    float[] q = query.clone();
    if (model.distanceType == DistanceType.COSINE) {
      VectorMath.normalize(q, 1, dim);
    }
    TopK probes = new TopK(nprobes);
    for (int p = 0; p < model.numPartitions; p++) {
      probes.offer(dot ? -VectorMath.dot(q, 0, model.centroids, p * dim, dim)
          : VectorMath.l2(q, 0, model.centroids, p * dim, dim), p);
    }
    java.util.Map<Long, Float> out = new java.util.HashMap<>();
    for (long p : probes.result().rowIds()) {
      float[] x = q.clone();
      if (!dot) {
        for (int i = 0; i < dim; i++) {
          x[i] = q[i] - model.centroids[(int) p * dim + i];
        }
      }
      int n = c.lengths()[(int) p];
      int base = (int) c.offsets()[(int) p];
      for (int row = 0; row < n; row++) {
        float d = 0;
        for (int j = 0; j < m; j++) {
          int code = c.codes()[base * m + j * n + row] & 0xFF;
          int at = (j * ProductQuantizer.CENTROIDS + code) * sub;
          d += dot ? -VectorMath.dot(x, j * sub, model.pq.codebook, at, sub)
              : VectorMath.l2(x, j * sub, model.pq.codebook, at, sub);
        }
        float scale = model.distanceType == DistanceType.COSINE ? 0.5f : 1f;
        out.put(c.rowIds()[base + row], (dot ? 1f : 0f) + scale * d);
      }
    }
    return out;
  }

  @Test
  void buildsOnOneAndSeveralThreadsWriteTheSameBytes() throws Exception {
    int rows = 8000;
    float[] v = data(rows, true, 6);
    LocalObjectStore store = new LocalObjectStore(dir);
    for (DistanceType dt : DistanceType.values()) {
      // Large enough that k-means assignment and encoding run in parallel (KMeans, add).
      IvfPqParams params = IvfPqParams.of(16, 8, dt).withIterations(10, 5).withSeed(99);
      for (int threads : new int[] {1, 4}) {
        java.util.concurrent.ForkJoinPool pool = new java.util.concurrent.ForkJoinPool(threads);
        try {
          // Parallel streams started in a pool's task run on that pool.
          pool.submit(() -> {
            IvfPqBuilder b = new IvfPqBuilder(DIM, params);
            b.train(v, rows);
            b.add(v, rows, ids(rows));
            b.write(store, "_indices/" + dt + threads, allocator);
            return null;
          }).get();
        } finally {
          pool.shutdown();
        }
      }
      for (String file : new String[] {"index.idx", "auxiliary.idx"}) {
        assertThat(java.nio.file.Files.readAllBytes(dir.resolve("_indices/" + dt + "4/" + file)))
            .as("%s %s", dt, file)
            .isEqualTo(java.nio.file.Files.readAllBytes(dir.resolve("_indices/" + dt + "1/" + file)));
      }
    }
  }

  @Test
  void searchOnSeveralThreadsFindsExactlyWhatOneThreadFinds() throws Exception {
    int rows = 8000;
    float[] v = data(rows, true, 4);
    for (DistanceType dt : DistanceType.values()) {
      IvfPqIndex index = build(v, rows, IvfPqParams.of(16, 8, dt).withIterations(10, 5), "p" + dt);
      Random r = new Random(8);
      for (int q = 0; q < 10; q++) {
        float[] query = new float[DIM];
        int base = r.nextInt(rows);
        for (int j = 0; j < DIM; j++) {
          query[j] = v[base * DIM + j] + (float) r.nextGaussian() * 0.1f;
        }
        java.util.function.LongPredicate odd = id -> (id & 1) == 1;
        for (java.util.function.LongPredicate accept : java.util.List.of(id -> true, odd)) {
          // 500: the top k keeps a buffer it cuts by selection (k * refine of a re-ranked query).
          for (int k : new int[] {50, 500}) {
            Neighbors one = index.search(query, k, 12, accept, Long.MAX_VALUE);
            Neighbors many = index.search(query, k, 12, accept, 0);
            assertThat(many.size()).isEqualTo(k);
            assertThat(many.rowIds()).as("%s query %d k %d", dt, q, k).containsExactly(one.rowIds());
            assertThat(many.distances()).containsExactly(one.distances());
          }
        }
      }
    }
  }

  @Test
  void cosineAndDot() throws Exception {
    int rows = 6000;
    float[] v = data(rows, true, 3);
    for (DistanceType dt : new DistanceType[] {DistanceType.COSINE, DistanceType.DOT}) {
      IvfPqIndex index = build(v, rows, IvfPqParams.of(8, 8, dt).withIterations(20, 10), "d" + dt);
      assertThat(index.distanceType()).isEqualTo(dt);
      assertThat(recall(index, v, rows, dt, 8, 9)).as(dt.toString()).isGreaterThanOrEqualTo(0.9);
    }
  }

  @Test
  void lateSearchProbesFurtherPartitionsUntilKRowsPass() throws Exception {
    int rows = 3000;
    float[] v = data(rows, true, 4);
    IvfPqIndex index = build(v, rows, IvfPqParams.of(8, 4, DistanceType.L2).withIterations(10, 5), "late");
    float[] q = java.util.Arrays.copyOfRange(v, 0, DIM);
    // Only rows of the partition whose centroid is farthest from the query pass: the one whose rows
    // a search of all 8 partitions finds and a search of the nearest 7 does not.
    java.util.Set<Long> passing = new java.util.HashSet<>();
    for (long id : index.search(q, rows, 8, null).rowIds()) {
      passing.add(id);
    }
    for (long id : index.search(q, rows, 7, null).rowIds()) {
      passing.remove(id);
    }
    assertThat(passing.size()).isGreaterThanOrEqualTo(10);
    // nprobes 1 (minimum = maximum): the nearest partition holds none of them.
    assertThat(index.search(q, 10, 1, passing::contains).size()).isZero();
    // Minimum 1, maximum all: further partitions until 10 pass.
    Neighbors late = index.search(q, 10, new IvfPqIndex.Probes(1, 8, 10), passing::contains);
    assertThat(late.size()).isEqualTo(10);
    assertThat(java.util.Arrays.stream(late.rowIds()).allMatch(passing::contains)).isTrue();
    // The same rows as a search of every partition.
    assertThat(late.rowIds()).containsExactly(index.search(q, 10, 8, passing::contains).rowIds());
    // Maximum 7 stops before the farthest partition.
    assertThat(index.search(q, 10, new IvfPqIndex.Probes(1, 7, 10), passing::contains).size()).isZero();
  }

  @Test
  void earlyPruningKeepsCentroidsNearlyAsNear() {
    float[] d = {1f, 2f, 6.9f, 7f, 7.1f, 80f, 82f};
    // k = 1: a factor below 1 adds nothing to the minimum.
    assertThat(IvfPqIndex.earlyPruning(d, false, 1)).isZero();
    assertThat(IvfPqIndex.earlyPruning(d, false, 10)).isEqualTo(4);
    assertThat(IvfPqIndex.earlyPruning(d, false, 11)).isEqualTo(6);
    // Dot: Lance compares 1 - a.b, the index sorts by -a.b.
    assertThat(IvfPqIndex.earlyPruning(new float[] {-0.5f, 2f, 2.5f, 3f}, true, 10)).isEqualTo(3);
    assertThat(IvfPqIndex.earlyPruning(new float[0], false, 10)).isZero();
  }

  @Test
  void acceptFilterAndAllPartitions() throws Exception {
    int rows = 3000;
    float[] v = data(rows, true, 4);
    IvfPqIndex index = build(v, rows, IvfPqParams.of(4, 4, DistanceType.L2).withIterations(10, 5), "f");
    float[] q = java.util.Arrays.copyOfRange(v, 0, DIM);
    Neighbors all = index.search(q, rows, 4, null);
    assertThat(all.size()).isEqualTo(rows);
    for (int i = 1; i < all.size(); i++) {
      assertThat(all.distances()[i]).isGreaterThanOrEqualTo(all.distances()[i - 1]);
    }
    Neighbors even = index.search(q, 10, 4, id -> (id & 1) == 0);
    assertThat(even.rowIds()).hasSize(10);
    assertThat(java.util.Arrays.stream(even.rowIds()).allMatch(id -> (id & 1) == 0)).isTrue();
  }

  @Test
  void remapMovesAndDropsRows() throws Exception {
    int rows = 3000;
    float[] v = data(rows, true, 5);
    LocalObjectStore store = new LocalObjectStore(dir);
    IvfPqIndex index = build(v, rows, IvfPqParams.of(4, 4, DistanceType.L2).withIterations(10, 5), "old");
    // Rows of fragment 0 move to fragment 7; every third row is deleted.
    RowAddressMap map = a -> (a & 0xFFFFFFFFL) % 3 == 0 ? RowAddressMap.DELETED : (7L << 32) | (a & 0xFFFFFFFFL);
    IvfPqIndex.remap(store, "old", "new", map, allocator);
    IvfPqIndex moved = IvfPqIndex.open(store, "new", allocator);
    assertThat(moved.numRows()).isEqualTo(2000);
    float[] q = java.util.Arrays.copyOfRange(v, 3 * DIM, 4 * DIM);
    Neighbors before = index.search(q, rows, 4, id -> (id & 0xFFFFFFFFL) % 3 != 0);
    Neighbors after = moved.search(q, rows, 4, null);
    assertThat(after.distances()).containsExactly(before.distances());
    for (int i = 0; i < after.size(); i++) {
      assertThat(after.rowIds()[i]).isEqualTo((7L << 32) | (before.rowIds()[i] & 0xFFFFFFFFL));
    }
  }

  @Test
  void badInputsAreRefused() {
    assertThatThrownBy(() -> new IvfPqBuilder(30, IvfPqParams.of(4, 8, DistanceType.L2)))
        .isInstanceOf(VectorIndexException.class)
        .hasMessage("Vector dimension 30 is not divisible by 8 sub-vectors");
    IvfPqBuilder b = new IvfPqBuilder(DIM, IvfPqParams.of(4, 8, DistanceType.L2));
    assertThatThrownBy(() -> b.train(new float[100 * DIM], 100))
        .isInstanceOf(VectorIndexException.class)
        .hasMessage("Not enough rows to train PQ: needs 256, got 100");
  }
}
