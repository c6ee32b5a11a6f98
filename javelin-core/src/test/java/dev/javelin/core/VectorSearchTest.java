package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.index.DistanceType;
import dev.javelin.index.IndexType;
import dev.javelin.index.IvfPqParams;
import dev.javelin.index.exceptions.VectorIndexException;
import dev.javelin.index.internal.ivf.Neighbors;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VectorSearchTest {
  static final int DIM = 16;
  static final int PER_FRAGMENT = 4000;
  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      Field.nullable("cat", new ArrowType.Int(32, true)),
      new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(DIM)), List.of(
          new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null)))));

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  /** Row r's vector: around one of 32 centres (fixed seed), so the data is clustered. */
  static float[] vector(long r) {
    Random c = new Random(r % 32);
    Random n = new Random(1000 + r);
    float[] v = new float[DIM];
    for (int j = 0; j < DIM; j++) {
      v[j] = c.nextFloat() * 8 + (float) n.nextGaussian() * 0.6f;
    }
    return v;
  }

  List<VectorSchemaRoot> batches(long start, int rows) {
    List<VectorSchemaRoot> out = new ArrayList<>();
    for (long b = start; b < start + rows; b += 2000) {
      int n = (int) Math.min(2000, start + rows - b);
      VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
      root.allocateNew();
      FixedSizeListVector v = (FixedSizeListVector) root.getVector("v");
      Float4Vector f = (Float4Vector) v.getDataVector();
      for (int i = 0; i < n; i++) {
        long r = b + i;
        ((BigIntVector) root.getVector("id")).setSafe(i, r);
        ((IntVector) root.getVector("cat")).setSafe(i, (int) (r % 5));
        v.setNotNull(i);
        float[] x = vector(r);
        for (int j = 0; j < DIM; j++) {
          f.setSafe(i * DIM + j, x[j]);
        }
      }
      root.setRowCount(n);
      out.add(root);
    }
    return out;
  }

  Dataset create(int rows) {
    List<VectorSchemaRoot> data = batches(0, rows);
    try {
      return Dataset.create(dir.resolve("ds"), data, WriteParams.builder().maxRowsPerFile(PER_FRAGMENT).build(),
          allocator);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  static long address(long r) {
    return ((r / PER_FRAGMENT) << 32) | (r % PER_FRAGMENT);
  }

  /** The brute-force answer over rows [0, rows) that {@code keep} accepts (by row number). */
  static List<Long> brute(float[] q, long rows, DistanceType dt, int k, LongPredicate keep) {
    List<Long> ids = new ArrayList<>();
    java.util.Map<Long, Float> dist = new java.util.HashMap<>();
    for (long r = 0; r < rows; r++) {
      if (keep.test(r)) {
        ids.add(r);
        dist.put(r, dt.distance(q, 0, VECTORS.get((int) r), 0, DIM));
      }
    }
    ids.sort(Comparator.<Long>comparingDouble(dist::get).thenComparing(r -> r));
    return ids.subList(0, Math.min(k, ids.size())).stream().map(VectorSearchTest::address).toList();
  }

  static float[] query(long seed) {
    Random r = new Random(seed);
    float[] q = vector(r.nextInt(100000));
    for (int j = 0; j < DIM; j++) {
      q[j] += (float) r.nextGaussian() * 0.3f;
    }
    return q;
  }

  static final List<float[]> VECTORS = new ArrayList<>();

  static {
    for (int r = 0; r < 12000; r++) {
      VECTORS.add(vector(r));
    }
  }

  static List<Long> ids(Neighbors n) {
    return java.util.Arrays.stream(n.rowIds()).boxed().toList();
  }

  @Test
  void flatSearchIsExactForEveryDistance() {
    Dataset ds = create(6000);
    for (DistanceType dt : DistanceType.values()) {
      for (int s = 0; s < 3; s++) {
        float[] q = query(s);
        Neighbors n = ds.nearest("v", q).k(7).distanceType(dt).neighbors();
        assertThat(ids(n)).as(dt + " " + s).isEqualTo(brute(q, 6000, dt, 7, r -> true));
        for (int i = 0; i < n.size(); i++) {
          long r = (n.rowIds()[i] >>> 32) * PER_FRAGMENT + (n.rowIds()[i] & 0xFFFFFFFFL);
          assertThat(n.distances()[i]).isEqualTo(dt.distance(q, 0, vector(r), 0, DIM));
        }
      }
    }
  }

  @Test
  void indexRecallAndExactWithAllPartitions() {
    Dataset ds = create(12000).createIndex("v", IvfPqParams.of(16, 8, DistanceType.L2).withIterations(20, 10));
    assertThat(ds.indices()).extracting(IndexInfo::name, IndexInfo::type, IndexInfo::fields)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("v_idx", IndexType.VECTOR, List.of("v")));
    int hits = 0;
    for (int s = 0; s < 30; s++) {
      float[] q = query(s);
      List<Long> truth = brute(q, 12000, DistanceType.L2, 10, r -> true);
      Neighbors approx = ds.nearest("v", q).k(10).nprobes(6).refineFactor(10).neighbors();
      hits += (int) ids(approx).stream().filter(truth::contains).count();
      if (s < 3) {
        // Every partition and every row re-ranked: the exact answer.
        Neighbors all = ds.nearest("v", q).k(10).nprobes(16).refineFactor(1200).neighbors();
        assertThat(ids(all)).isEqualTo(truth);
      }
    }
    assertThat(hits / 300.0).isGreaterThanOrEqualTo(0.9);
  }

  @Test
  void aShallowCloneSearchesThroughTheSourcesIndex() {
    Dataset ds = create(4000).createIndex("v", IvfPqParams.of(8, 4, DistanceType.L2).withIterations(10, 5));
    Dataset clone = ds.shallowClone(dir.resolve("clone"));
    assertThat(clone.manifest().indices().get(0).baseId()).isPresent();
    for (int s = 0; s < 3; s++) {
      float[] q = query(s);
      // Index distances of 2 probed partitions: equal answers mean the clone read the same index.
      Neighbors want = ds.nearest("v", q).k(10).nprobes(2).neighbors();
      Neighbors got = clone.nearest("v", q).k(10).nprobes(2).neighbors();
      assertThat(got.rowIds()).isEqualTo(want.rowIds());
      assertThat(got.distances()).isEqualTo(want.distances());
    }
  }

  @Test
  void filtersBeforeAndAfter() {
    Dataset ds = create(8000).createIndex("v", IvfPqParams.of(8, 4, DistanceType.L2).withIterations(10, 5));
    float[] q = query(3);
    Neighbors pre = ds.nearest("v", q).k(10).nprobes(8).refineFactor(800).filter("cat = 2").prefilter(true)
        .neighbors();
    assertThat(ids(pre)).isEqualTo(brute(q, 8000, DistanceType.L2, 10, r -> r % 5 == 2));
    // Postfilter: the rows of the unfiltered nearest 10 that pass.
    List<Long> top = brute(q, 8000, DistanceType.L2, 10, r -> true);
    Neighbors post = ds.nearest("v", q).k(10).nprobes(8).refineFactor(800).filter("cat = 2").neighbors();
    assertThat(post.size()).isBetween(1, 9);
    assertThat(ids(post)).isEqualTo(top.stream()
        .filter(a -> ((a >>> 32) * PER_FRAGMENT + (a & 0xFFFFFFFFL)) % 5 == 2).toList());
    // Flat search obeys both too.
    assertThat(ids(ds.nearest("v", q).k(10).filter("cat = 2").prefilter(true).useIndex(false).neighbors()))
        .isEqualTo(brute(q, 8000, DistanceType.L2, 10, r -> r % 5 == 2));
  }

  @Test
  void uncoveredFragmentsAndDeletedRows() {
    Dataset ds = create(8000).createIndex("v", IvfPqParams.of(8, 4, DistanceType.L2).withIterations(10, 5));
    List<VectorSchemaRoot> more = batches(8000, 4000);
    try {
      ds = ds.append(more, WriteParams.builder().maxRowsPerFile(PER_FRAGMENT).build());
    } finally {
      more.forEach(VectorSchemaRoot::close);
    }
    assertThat(ds.indices().get(0).fragments()).containsExactly(0L, 1L);
    float[] q = vector(9001);
    Neighbors n = ds.nearest("v", q).k(5).nprobes(8).refineFactor(4).neighbors();
    assertThat(n.rowIds()[0]).isEqualTo(address(9001));
    assertThat(n.distances()[0]).isZero();
    // Delete the nearest rows of an indexed and an unindexed fragment: never returned.
    float[] q2 = vector(123);
    long nearest = ds.nearest("v", q2).k(1).nprobes(8).neighbors().rowIds()[0];
    assertThat(nearest).isEqualTo(address(123));
    ds = ds.deleteRows(new long[] {address(123), address(9001)});
    assertThat(ids(ds.nearest("v", q2).k(50).nprobes(8).neighbors())).doesNotContain(address(123));
    assertThat(ids(ds.nearest("v", q).k(50).nprobes(8).neighbors())).doesNotContain(address(9001));
    assertThat(ids(ds.nearest("v", q2).k(10).nprobes(8).refineFactor(1200).neighbors()))
        .isEqualTo(brute(q2, 12000, DistanceType.L2, 10, r -> r != 123 && r != 9001));
  }

  @Test
  void cosineAndDotIndices() {
    Dataset base = create(8000);
    for (DistanceType dt : new DistanceType[] {DistanceType.COSINE, DistanceType.DOT}) {
      Dataset ds = base.createIndex("v").ivfPq(IvfPqParams.of(8, 4, dt).withIterations(10, 5)).name("v_" + dt)
          .replace().commit().dataset();
      int hits = 0;
      for (int s = 0; s < 20; s++) {
        float[] q = query(s);
        List<Long> truth = brute(q, 8000, dt, 10, r -> true);
        hits += (int) ids(ds.nearest("v", q).k(10).nprobes(8).refineFactor(10).neighbors()).stream()
            .filter(truth::contains).count();
      }
      assertThat(hits / 200.0).as(dt.toString()).isGreaterThanOrEqualTo(0.9);
      base = ds.dropIndex("v_" + dt);
    }
  }

  @Test
  void executeReturnsColumnsAndSortedDistances() {
    Dataset ds = create(4000);
    float[] q = vector(17);
    try (VectorSchemaRoot r = ds.nearest("v", q).k(5).columns(List.of("id")).withRowId(true).execute()) {
      assertThat(r.getSchema().getFields()).extracting(Field::getName).containsExactly("id", "_rowid", "_distance");
      assertThat(r.getRowCount()).isEqualTo(5);
      assertThat(((BigIntVector) r.getVector("id")).get(0)).isEqualTo(17L);
      Float4Vector d = (Float4Vector) r.getVector("_distance");
      for (int i = 1; i < 5; i++) {
        assertThat(d.get(i)).isGreaterThanOrEqualTo(d.get(i - 1));
      }
    }
  }

  @Test
  void badQueriesAreRefused() {
    Dataset ds = create(2000);
    assertThatThrownBy(() -> ds.nearest("v", new float[3]).neighbors())
        .isInstanceOf(VectorIndexException.class)
        .hasMessage("Query vector has 3 dimensions but column 'v' has 16: " + ds.location());
    assertThatThrownBy(() -> ds.nearest("id", new float[3]).neighbors())
        .isInstanceOf(VectorIndexException.class)
        .hasMessageStartingWith("Column 'id' is Int(64, true), not a fixed_size_list<float32> vector column");
    assertThatThrownBy(() -> ds.createIndex("v", IvfPqParams.of(4, 3, DistanceType.L2)))
        .isInstanceOf(VectorIndexException.class)
        .hasMessageContaining("Vector dimension 16 is not divisible by 3 sub-vectors");
    assertThat(ds.indices()).isEmpty();
  }
}
