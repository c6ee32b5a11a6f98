package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.index.DistanceType;
import dev.javelin.index.IvfPqParams;
import dev.javelin.index.internal.ivf.Neighbors;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Re-ranking ({@code refineFactor}) gives exactly the brute-force answer over its candidates,
 * distances bit for bit, ties by row id: vectors wide enough for full-zip pages (read straight
 * into floats) in fragments without nulls, and through the general take in a fragment with null
 * vectors and in 2.0 files; with deleted rows.
 */
class VectorRefineTest {
  static final int DIM = 64;
  static final int PER_FRAGMENT = 600;
  static final int ROWS = 3 * PER_FRAGMENT;
  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(DIM)), List.of(
          new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null)))));

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  /** Row r's vector, or null; rows 1500.. repeat rows 0.. (ties across fragments). */
  static float[] vector(long r) {
    if (r >= PER_FRAGMENT && r < 2 * PER_FRAGMENT && r % 9 == 4) {
      return null; // nulls in the middle fragment only
    }
    long base = r % 1500;
    Random c = new Random(base % 8);
    Random n = new Random(1000 + base);
    float[] v = new float[DIM];
    for (int j = 0; j < DIM; j++) {
      v[j] = c.nextFloat() * 8 + (float) n.nextGaussian() * 0.6f;
    }
    return v;
  }

  static long address(long r) {
    return ((r / PER_FRAGMENT) << 32) | (r % PER_FRAGMENT);
  }

  static long row(long address) {
    return (address >>> 32) * PER_FRAGMENT + (address & 0xFFFFFFFFL);
  }

  Dataset create(LanceFileVersion version) {
    List<VectorSchemaRoot> data = new ArrayList<>();
    try {
      for (int b = 0; b < ROWS; b += 300) {
        VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
        data.add(root);
        root.allocateNew();
        FixedSizeListVector v = (FixedSizeListVector) root.getVector("v");
        Float4Vector f = (Float4Vector) v.getDataVector();
        for (int i = 0; i < 300; i++) {
          long r = b + i;
          ((BigIntVector) root.getVector("id")).setSafe(i, r);
          float[] x = vector(r);
          if (x == null) {
            v.setNull(i);
            continue;
          }
          v.setNotNull(i);
          for (int j = 0; j < DIM; j++) {
            f.setSafe(i * DIM + j, x[j]);
          }
        }
        root.setRowCount(300);
      }
      return Dataset.create(dir.resolve("ds-" + version), data,
          WriteParams.builder().maxRowsPerFile(PER_FRAGMENT).fileVersion(version).build(), allocator);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  static float[] query(long seed) {
    Random r = new Random(seed);
    float[] q = vector(r.nextInt(PER_FRAGMENT)).clone();
    for (int j = 0; j < DIM; j++) {
      q[j] += (float) r.nextGaussian() * 0.3f;
    }
    return q;
  }

  /** The k nearest live rows with vectors among {@code rows}, by (distance, address). */
  static Neighbors brute(float[] q, DistanceType dt, int k, Iterable<Long> rows) {
    List<long[]> all = new ArrayList<>();
    List<Float> dist = new ArrayList<>();
    for (long r : rows) {
      float[] v = vector(r);
      if (v != null) {
        all.add(new long[] {address(r), dist.size()});
        dist.add(dt.distance(q, 0, v, 0, DIM));
      }
    }
    all.sort(Comparator.<long[]>comparingDouble(a -> dist.get((int) a[1])).thenComparingLong(a -> a[0]));
    int n = Math.min(k, all.size());
    long[] ids = new long[n];
    float[] d = new float[n];
    for (int i = 0; i < n; i++) {
      ids[i] = all.get(i)[0];
      d[i] = dist.get((int) all.get(i)[1]);
    }
    return new Neighbors(ids, d);
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void refineEqualsBruteForceOverItsCandidates(LanceFileVersion version) {
    Dataset ds = create(version);
    Set<Long> deleted = Set.of(7L, 100L, 599L, 605L, 1203L, 1500L, 1799L);
    ds = ds.deleteRows(deleted.stream().mapToLong(VectorRefineTest::address).toArray());
    List<Long> live = new ArrayList<>();
    for (long r = 0; r < ROWS; r++) {
      if (!deleted.contains(r)) {
        live.add(r);
      }
    }
    for (DistanceType dt : new DistanceType[] {DistanceType.L2, DistanceType.COSINE}) {
      VectorQuery.clearCache();
      Dataset indexed = ds.createIndex("v").ivfPq(IvfPqParams.of(4, 8, dt).withIterations(5, 4).withSeed(3))
          .name("idx_" + dt).replace().commit().dataset();
      assertThat(indexed.indices().get(0).fragments()).containsExactly(0L, 1L, 2L);
      for (int s = 0; s < 6; s++) {
        float[] q = query(s);
        // Every live row a candidate: the exact answer, bit for bit.
        Neighbors all = indexed.nearest("v", q).k(10).nprobes(4).refineFactor(ROWS).neighbors();
        Neighbors want = brute(q, dt, 10, live);
        assertThat(all.rowIds()).as("%s %s query %d", version, dt, s).containsExactly(want.rowIds());
        assertThat(all.distances()).as("%s %s query %d", version, dt, s).containsExactly(want.distances());
        Neighbors flat = indexed.nearest("v", q).k(10).useIndex(false).distanceType(dt).neighbors();
        assertThat(flat.rowIds()).containsExactly(want.rowIds());
        assertThat(flat.distances()).containsExactly(want.distances());
        // Some rows candidates: the brute-force answer over them (the PQ candidates, found
        // without refining, are k * refine nearest by PQ distance).
        Neighbors pq = indexed.nearest("v", q).k(30).nprobes(2).neighbors();
        Set<Long> candidates = new HashSet<>();
        for (long a : pq.rowIds()) {
          candidates.add(row(a));
        }
        Neighbors refined = indexed.nearest("v", q).k(10).nprobes(2).refineFactor(3).neighbors();
        Neighbors over = brute(q, dt, 10, candidates);
        assertThat(refined.rowIds()).as("%s %s query %d", version, dt, s).containsExactly(over.rowIds());
        assertThat(refined.distances()).containsExactly(over.distances());
      }
      ds = indexed.dropIndex("idx_" + dt);
    }
  }
}
