package dev.javelin.index.internal.ivf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.index.DistanceType;
import dev.javelin.index.IvfParams;
import dev.javelin.index.RowAddressMap;
import dev.javelin.index.exceptions.UnsupportedIndexKindException;
import dev.javelin.index.exceptions.VectorIndexException;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** IVF_FLAT and IVF_SQ built, written, opened and searched; the IVF layer they share with IVF_PQ. */
class IvfFlatAndSqIndexTest {
  static final int DIM = IvfPqIndexTest.DIM;
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  IvfIndex build(boolean flat, float[] v, int rows, IvfParams params, String uuid) throws Exception {
    LocalObjectStore store = new LocalObjectStore(dir);
    IvfBuilder b;
    if (flat) {
      IvfFlatBuilder f = new IvfFlatBuilder(DIM, params);
      f.train(v, Math.min(rows, params.sampleSize()));
      b = f;
    } else {
      IvfSqBuilder s = new IvfSqBuilder(DIM, params);
      s.train(v, Math.min(rows, params.sampleSize()));
      b = s;
    }
    b.add(v, rows, IvfPqIndexTest.ids(rows));
    b.write(store, "_indices/" + uuid, allocator);
    return IvfIndex.open(store, uuid, allocator);
  }

  static float[] query(float[] v, int rows, Random r) {
    float[] q = new float[DIM];
    int base = r.nextInt(rows);
    for (int j = 0; j < DIM; j++) {
      q[j] = v[base * DIM + j] + (float) r.nextGaussian() * 0.1f;
    }
    return q;
  }

  @ParameterizedTest
  @EnumSource(DistanceType.class)
  void flatWithEveryPartitionProbedIsExactSearch(DistanceType dt) throws Exception {
    int rows = 6000;
    float[] v = IvfPqIndexTest.data(rows, true, 11);
    IvfIndex index = build(true, v, rows, IvfParams.of(8, dt).withIterations(10), "flat-" + dt);
    assertThat(index.kind()).isEqualTo("IVF_FLAT");
    assertThat(index.approximate()).isFalse();
    assertThat(index.numRows()).isEqualTo(rows);
    assertThat(index.numPartitions()).isEqualTo(8);
    assertThat(index.distanceType()).isEqualTo(dt);
    Random r = new Random(3);
    long[] ids = IvfPqIndexTest.ids(rows);
    for (int s = 0; s < 20; s++) {
      float[] q = query(v, rows, r);
      FlatSearch exact = new FlatSearch(q, dt, 10);
      exact.add(v, 0, rows, ids);
      Neighbors truth = exact.result();
      Neighbors got = index.search(q, 10, 8, null);
      assertThat(got.rowIds()).as("query " + s).containsExactly(truth.rowIds());
      for (int i = 0; i < got.size(); i++) {
        // L2 and DOT are computed on the very vectors; cosine on the normalised ones.
        if (dt == DistanceType.COSINE) {
          assertThat(got.distances()[i]).isCloseTo(truth.distances()[i], org.assertj.core.data.Offset.offset(1e-5f));
        } else {
          assertThat(got.distances()[i]).isEqualTo(truth.distances()[i]);
        }
      }
      // A prefilter: only accepted rows take places.
      Neighbors even = index.search(q, 10, 8, id -> (id & 1) == 0);
      FlatSearch evenExact = new FlatSearch(q, dt, 10);
      for (int row = 0; row < rows; row++) {
        if ((ids[row] & 1) == 0) {
          evenExact.add(v, row * DIM, ids[row]);
        }
      }
      assertThat(even.rowIds()).containsExactly(evenExact.result().rowIds());
    }
  }

  @Test
  void flatWithFewProbesFindsMostOfTheNearest() throws Exception {
    int rows = 20000;
    float[] v = IvfPqIndexTest.data(rows, true, 12);
    IvfIndex index = build(true, v, rows, IvfParams.of(32, DistanceType.L2).withIterations(20), "flat");
    assertThat(recall(index, v, rows, DistanceType.L2, 4)).isGreaterThan(0.95);
    // On uniform data one probe misses neighbours in other partitions; all probes miss none.
    float[] u = IvfPqIndexTest.data(rows, false, 12);
    IvfIndex uniform = build(true, u, rows, IvfParams.of(32, DistanceType.L2).withIterations(20), "uniform");
    assertThat(recall(uniform, u, rows, DistanceType.L2, 1)).isLessThan(0.9);
    assertThat(recall(uniform, u, rows, DistanceType.L2, 32)).isEqualTo(1.0);
  }

  static double recall(IvfIndex index, float[] v, int rows, DistanceType dt, int nprobes) {
    Random r = new Random(7);
    long[] ids = IvfPqIndexTest.ids(rows);
    int hits = 0;
    for (int s = 0; s < 50; s++) {
      float[] q = query(v, rows, r);
      FlatSearch exact = new FlatSearch(q, dt, 10);
      exact.add(v, 0, rows, ids);
      Set<Long> truth = new HashSet<>();
      for (long id : exact.result().rowIds()) {
        truth.add(id);
      }
      for (long id : index.search(q, 10, new IvfIndex.Probes(nprobes, nprobes, 1), null).rowIds()) {
        hits += truth.contains(id) ? 1 : 0;
      }
    }
    return hits / 500.0;
  }

  @ParameterizedTest
  @EnumSource(DistanceType.class)
  void sqDistancesAreLanceCodeDistances(DistanceType dt) throws Exception {
    int rows = 6000;
    float[] v = IvfPqIndexTest.data(rows, true, 13);
    // Sampling every row, in order: the sample is the data.
    IvfIndex index = build(false, v, rows, new IvfParams(8, dt, 10, 1000, 42L), "sq-" + dt);
    assertThat(index.kind()).isEqualTo("IVF_SQ");
    assertThat(index.approximate()).isTrue();
    ScalarQuantizer sq = IvfSqIndex.storage(new LocalObjectStore(dir), "_indices/sq-" + dt, allocator);
    float[] normalised = v.clone();
    if (dt == DistanceType.COSINE) {
      VectorMath.normalize(normalised, rows, DIM);
    }
    // The bounds are the sample's (here every row) smallest and largest values.
    float lo = Float.MAX_VALUE;
    float hi = -Float.MAX_VALUE;
    for (float x : normalised) {
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
    assertThat(sq.start()).isEqualTo(lo);
    assertThat(sq.end()).isEqualTo(hi);
    Random r = new Random(5);
    long[] ids = IvfPqIndexTest.ids(rows);
    float[] q = query(v, rows, r);
    float[] qn = q.clone();
    if (dt == DistanceType.COSINE) {
      VectorMath.normalize(qn, 1, DIM);
    }
    byte[] qc = new byte[DIM];
    sq.encode(qn, 0, DIM, qc, 0);
    byte[] codes = new byte[rows * DIM];
    sq.encode(normalised, 0, rows * DIM, codes, 0);
    Neighbors all = index.search(q, rows, 8, null);
    assertThat(all.size()).isEqualTo(rows);
    java.util.Map<Long, Integer> rowOf = new java.util.HashMap<>();
    for (int i = 0; i < rows; i++) {
      rowOf.put(ids[i], i);
    }
    for (int i = 0; i < rows; i++) {
      int row = rowOf.get(all.rowIds()[i]);
      float code = dt == DistanceType.DOT ? 1f - ScalarQuantizer.dot(qc, codes, row * DIM, DIM)
          : ScalarQuantizer.l2(qc, codes, row * DIM, DIM);
      assertThat(all.distances()[i]).isEqualTo(code * sq.distanceScale());
    }
    if (dt == DistanceType.L2) {
      // Codes keep most of the ranking on clustered data.
      assertThat(recall(index, v, rows, dt, 8)).isGreaterThan(0.8);
    }
  }

  @Test
  void scalarQuantizerScalesAndSaturatesAsLance() {
    ScalarQuantizer sq = new ScalarQuantizer(0, 15);
    float[] v = new float[16];
    for (int i = 0; i < 16; i++) {
      v[i] = i;
    }
    byte[] out = new byte[16];
    sq.encode(v, 0, 16, out, 0);
    for (int i = 0; i < 16; i++) {
      assertThat(out[i] & 0xFF).isEqualTo(i * 17);
    }
    ScalarQuantizer narrow = new ScalarQuantizer(0, 3);
    narrow.encode(new float[] {-1f, 1f, 4f, Float.NaN}, 0, 4, out, 0);
    assertThat(Arrays.copyOf(out, 4)).containsExactly(0, 85, (byte) 255, 0);
    new ScalarQuantizer(2, 2).encode(new float[] {2f, 5f}, 0, 2, out, 0);
    assertThat(Arrays.copyOf(out, 2)).containsExactly(0, 0);
  }

  @ParameterizedTest
  @EnumSource(names = {"FLAT", "SQ"})
  void extendingKeepsTheModelAndAddsRowsToItsPartitions(Kind kind) throws Exception {
    int rows = 4000;
    float[] v = IvfPqIndexTest.data(rows, true, 14);
    LocalObjectStore store = new LocalObjectStore(dir);
    IvfIndex first = build(kind == Kind.FLAT, v, 3000, IvfParams.of(4, DistanceType.L2).withIterations(10), "a");
    // Every fifth row dropped; the last 1000 rows added.
    IvfBuilder ext = IvfBuilder.extending(store, "a", id -> id % 5 != 0, allocator);
    assertThat(ext.rows()).isEqualTo(2400);
    assertThat(ext.rowsDropped()).isEqualTo(600);
    long[] ids = IvfPqIndexTest.ids(rows);
    ext.add(Arrays.copyOfRange(v, 3000 * DIM, rows * DIM), 1000, Arrays.copyOfRange(ids, 3000, rows));
    ext.write(store, "_indices/b", allocator);
    IvfIndex second = IvfIndex.open(store, "b", allocator);
    assertThat(second.kind()).isEqualTo(first.kind());
    assertThat(second.numRows()).isEqualTo(3400);
    assertThat(second.numPartitions()).isEqualTo(4);
    // A delta of the same model is carried over as it is; the rows it holds search the same.
    IvfBuilder merged = IvfBuilder.extending(store, "a", id -> true, allocator);
    assertThat(merged.addRowsOf(store, "b", id -> id >= ids[3000], allocator)).isTrue();
    merged.write(store, "_indices/c", allocator);
    IvfIndex third = IvfIndex.open(store, "c", allocator);
    assertThat(third.numRows()).isEqualTo(rows);
    float[] q = Arrays.copyOfRange(v, 3500 * DIM, 3501 * DIM);
    Neighbors fromSecond = second.search(q, 10, 4, id -> id % 5 != 0 || id >= ids[3000]);
    assertThat(third.search(q, 10, 4, id -> id % 5 != 0 || id >= ids[3000]).distances())
        .containsExactly(fromSecond.distances());
    // Remapping works the same for every kind.
    RowAddressMap map = a -> (a & 1) == 1 ? RowAddressMap.DELETED : a | (9L << 32);
    IvfIndex.remap(store, "c", "d", map, allocator);
    IvfIndex moved = IvfIndex.open(store, "d", allocator);
    assertThat(moved.numRows()).isEqualTo(rows / 2);
    assertThat(Arrays.stream(moved.rowIds()).allMatch(id -> (id >>> 32) >= 9)).isTrue();
  }

  enum Kind { FLAT, SQ }

  @Test
  void anotherKindsDeltaIsNotCarriedOver() throws Exception {
    int rows = 3000;
    float[] v = IvfPqIndexTest.data(rows, true, 15);
    LocalObjectStore store = new LocalObjectStore(dir);
    build(true, v, rows, IvfParams.of(4, DistanceType.L2).withIterations(10), "flat");
    build(false, v, rows, IvfParams.of(4, DistanceType.L2).withIterations(10), "sq");
    IvfBuilder b = IvfBuilder.extending(store, "flat", id -> true, allocator);
    assertThat(b.addRowsOf(store, "sq", id -> true, allocator)).isFalse();
    assertThat(b.rows()).isEqualTo(rows);
  }

  @Test
  void badInputsAreRefused() throws Exception {
    assertThatThrownBy(() -> new IvfFlatBuilder(0, IvfParams.of(4, DistanceType.L2)))
        .isInstanceOf(VectorIndexException.class)
        .hasMessage("Vector dimension must be positive, got 0");
    IvfSqBuilder b = new IvfSqBuilder(DIM, IvfParams.of(40, DistanceType.L2));
    assertThatThrownBy(() -> b.train(new float[10 * DIM], 10))
        .isInstanceOf(VectorIndexException.class)
        .hasMessage("Cannot train 40 IVF partitions on 10 rows");
    assertThatThrownBy(() -> IvfParams.of(0, DistanceType.L2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("numPartitions must be at least 1, got 0");
    // A query of the wrong width.
    IvfIndex index = build(true, IvfPqIndexTest.data(500, true, 16), 500, IvfParams.of(2, DistanceType.L2), "w");
    assertThatThrownBy(() -> index.search(new float[3], 10, 2, null))
        .isInstanceOf(VectorIndexException.class)
        .hasMessage("Query has 3 dimensions but the index has " + DIM);
    // A kind Javelin does not read.
    LocalObjectStore store = new LocalObjectStore(dir);
    IvfFiles.writeHeader(store, "_indices/rq", "IVF_RQ", DistanceType.L2, new float[DIM * 2], DIM, 0);
    assertThatThrownBy(() -> IvfIndex.open(store, "rq", allocator))
        .isInstanceOf(UnsupportedIndexKindException.class)
        .hasMessage("Index _indices/rq is an IVF_RQ index, which Javelin cannot read yet");
  }
}
