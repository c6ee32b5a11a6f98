package dev.javelin.index.internal.ivf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.index.DistanceType;
import dev.javelin.index.IvfParams;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** IVF_HNSW_SQ built, written, opened and searched: recall grows with ef, accept is honoured. */
class IvfHnswSqIndexTest {
  static final int DIM = IvfPqIndexTest.DIM;
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private IvfIndex build(float[] v, int rows, String uuid) throws Exception {
    LocalObjectStore store = new LocalObjectStore(dir);
    IvfParams params = IvfParams.of(4, DistanceType.L2).withIterations(10);
    IvfSqBuilder b = new IvfSqBuilder(DIM, params, new IvfHnswSqIndex.HnswParams(12, 60, 7));
    b.train(v, Math.min(rows, params.sampleSize()));
    b.add(v, rows, IvfPqIndexTest.ids(rows));
    b.write(store, "_indices/" + uuid, allocator);
    return IvfIndex.open(store, uuid, allocator);
  }

  /** Recall@10 against the SQ code ranking itself (what a graph search approximates). */
  private static double recall(IvfIndex hnsw, IvfIndex sq, float[] v, int rows, int ef) {
    Random r = new Random(9);
    int hits = 0;
    for (int s = 0; s < 30; s++) {
      float[] q = IvfFlatAndSqIndexTest.query(v, rows, r);
      Set<Long> truth = new HashSet<>();
      for (long id : sq.search(q, 10, 4, null).rowIds()) {
        truth.add(id);
      }
      for (long id : hnsw.search(q, 10, new IvfIndex.Probes(4, 4, 10, ef), null).rowIds()) {
        hits += truth.contains(id) ? 1 : 0;
      }
    }
    return hits / 300.0;
  }

  @Test
  void graphSearchFindsTheCodeNearestRows() throws Exception {
    int rows = 8000;
    float[] v = IvfPqIndexTest.data(rows, false, 21);
    IvfIndex hnsw = build(v, rows, "h");
    assertThat(hnsw.kind()).isEqualTo("IVF_HNSW_SQ");
    assertThat(hnsw.numRows()).isEqualTo(rows);
    LocalObjectStore store = new LocalObjectStore(dir);
    IvfParams params = IvfParams.of(4, DistanceType.L2).withIterations(10);
    IvfSqBuilder plain = new IvfSqBuilder(DIM, params);
    plain.train(v, Math.min(rows, params.sampleSize()));
    plain.add(v, rows, IvfPqIndexTest.ids(rows));
    plain.write(store, "_indices/s", allocator);
    IvfIndex sq = IvfIndex.open(store, "s", allocator);
    double narrow = recall(hnsw, sq, v, rows, 10);
    double wide = recall(hnsw, sq, v, rows, 200);
    assertThat(wide).isGreaterThanOrEqualTo(0.97);
    assertThat(wide).isGreaterThanOrEqualTo(narrow);
    // Every row is reachable: a wide enough search over one row's own vector finds it first.
    for (int row : new int[] {0, 17, 4321, 7999}) {
      float[] q = Arrays.copyOfRange(v, row * DIM, (row + 1) * DIM);
      Neighbors got = hnsw.search(q, 1, new IvfIndex.Probes(4, 4, 1, 100), null);
      assertThat(got.distances()[0]).isEqualTo(sq.search(q, 1, 4, null).distances()[0]);
    }
    // Only accepted rows are returned.
    float[] q = Arrays.copyOfRange(v, 0, DIM);
    Neighbors even = hnsw.search(q, 10, new IvfIndex.Probes(4, 4, 10, 100), id -> (id & 1) == 0);
    assertThat(even.size()).isEqualTo(10);
    assertThat(Arrays.stream(even.rowIds()).allMatch(id -> (id & 1) == 0)).isTrue();
  }

  @Test
  void selectivePrefilterSearchesPartitionsFlat() throws Exception {
    int rows = 8000;
    float[] v = IvfPqIndexTest.data(rows, false, 23);
    IvfIndex hnsw = build(v, rows, "h");
    LocalObjectStore store = new LocalObjectStore(dir);
    IvfParams params = IvfParams.of(4, DistanceType.L2).withIterations(10);
    IvfSqBuilder plain = new IvfSqBuilder(DIM, params);
    plain.train(v, Math.min(rows, params.sampleSize()));
    plain.add(v, rows, IvfPqIndexTest.ids(rows));
    plain.write(store, "_indices/s", allocator);
    IvfIndex sq = IvfIndex.open(store, "s", allocator);
    Random r = new Random(5);
    // 2% of the rows pass: below a tenth of every partition, so each probed partition ranks its
    // passing rows by their codes, exactly what a scan of the SQ codes finds, even at a narrow ef.
    java.util.function.LongPredicate rare = id -> id % 50 == 7;
    int graphHits = 0;
    for (int s = 0; s < 20; s++) {
      float[] q = IvfFlatAndSqIndexTest.query(v, rows, r);
      Neighbors want = sq.search(q, 10, 4, rare);
      Neighbors got = hnsw.search(q, 10, new IvfIndex.Probes(4, 4, 10, 10), rare);
      assertThat(got.rowIds()).containsExactly(want.rowIds());
      assertThat(got.distances()).containsExactly(want.distances());
      // Half the rows pass: the graph is walked (at ef 10 it need not find exactly the scan's rows).
      java.util.function.LongPredicate half = id -> (id & 1) == 0;
      Set<Long> truth = new HashSet<>();
      for (long id : sq.search(q, 10, 4, half).rowIds()) {
        truth.add(id);
      }
      Neighbors walked = hnsw.search(q, 10, new IvfIndex.Probes(4, 4, 10, 10), half);
      assertThat(Arrays.stream(walked.rowIds()).allMatch(id -> (id & 1) == 0)).isTrue();
      for (long id : walked.rowIds()) {
        graphHits += truth.contains(id) ? 1 : 0;
      }
    }
    assertThat(graphHits / 200.0).isGreaterThanOrEqualTo(0.8);
  }

  @Test
  void badGraphParametersAreRefused() {
    assertThatThrownBy(() -> new IvfHnswSqIndex.HnswParams(1, 150, 7))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("HNSW needs m >= 2, ef_construction >= 1 and max_level >= 1, got m 1, ef_construction 150, "
            + "max_level 7");
  }
}
