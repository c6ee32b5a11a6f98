package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.javelin.core.Dataset;
import dev.javelin.core.IndexInfo;
import dev.javelin.index.IndexType;
import dev.javelin.index.IvfPqParams;
import dev.javelin.index.internal.ivf.Neighbors;
import dev.javelin.testing.Readers;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.index.DistanceType;
import org.lance.index.IndexParams;
import org.lance.index.vector.VectorIndexParams;
import org.lance.ipc.Query;
import org.lance.ipc.ScanOptions;

/**
 * IVF_PQ indices built by lance-core 7.0.0 and searched by Javelin, and the other way round. With
 * every partition probed and no re-ranking both sides compute the same PQ distances from the same
 * files, so those are compared value by value; recall is compared on the usual settings.
 */
class IvfPqIndexCompatTest {
  static final int DIM = 16;
  static final int ROWS = 6000;
  static final int PER_FILE = 2000;
  static final int PARTITIONS = 8;
  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(DIM)), List.of(
          new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null)))));

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  static final float[][] VECTORS = new float[ROWS][];

  static {
    Random c = new Random(5);
    float[][] centres = new float[24][DIM];
    for (float[] x : centres) {
      for (int j = 0; j < DIM; j++) {
        x[j] = c.nextFloat() * 8;
      }
    }
    Random n = new Random(6);
    for (int r = 0; r < ROWS; r++) {
      float[] x = new float[DIM];
      float[] centre = centres[n.nextInt(centres.length)];
      for (int j = 0; j < DIM; j++) {
        x[j] = centre[j] + (float) n.nextGaussian() * 0.7f;
      }
      VECTORS[r] = x;
    }
  }

  private void lanceWrite(Path path) throws Exception {
    List<VectorSchemaRoot> batches = new ArrayList<>();
    for (int b = 0; b < ROWS; b += 1000) {
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
    try (ArrowReader reader = readerOf(batches)) {
      org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString())
          .mode(org.lance.WriteParams.WriteMode.CREATE).maxRowsPerFile(PER_FILE).execute().close();
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  /** An ArrowReader over batches it does not own, to feed lance-core. */
  private ArrowReader readerOf(List<VectorSchemaRoot> batches) {
    return Readers.readerOf(allocator, SCHEMA, batches);
  }

  static float[] query(int s) {
    Random r = new Random(100 + s);
    float[] q = VECTORS[r.nextInt(ROWS)].clone();
    for (int j = 0; j < DIM; j++) {
      q[j] += (float) r.nextGaussian() * 0.3f;
    }
    return q;
  }

  static Set<Long> truth(float[] q, int k) {
    Integer[] order = new Integer[ROWS];
    for (int i = 0; i < ROWS; i++) {
      order[i] = i;
    }
    float[] d = new float[ROWS];
    for (int i = 0; i < ROWS; i++) {
      d[i] = dev.javelin.index.DistanceType.L2.distance(q, 0, VECTORS[i], 0, DIM);
    }
    Arrays.sort(order, (a, b) -> Float.compare(d[a], d[b]));
    Set<Long> out = new HashSet<>();
    for (int i = 0; i < k; i++) {
      out.add(address(order[i]));
    }
    return out;
  }

  static long address(long r) {
    return ((r / PER_FILE) << 32) | (r % PER_FILE);
  }

  /** lance-core's answer: row ids and distances. */
  static Neighbors lanceNearest(org.lance.Dataset lance, float[] q, int k, int nprobes, Integer refine)
      throws Exception {
    Query.Builder qb = new Query.Builder().setColumn("v").setKey(q).setK(k).setNprobes(nprobes);
    if (refine != null) {
      qb.setRefineFactor(refine);
    }
    ScanOptions opts = new ScanOptions.Builder().columns(List.of("id", "_distance")).withRowId(true).nearest(qb.build()).build();
    List<Long> ids = new ArrayList<>();
    List<Float> dist = new ArrayList<>();
    try (var s = lance.newScan(opts); ArrowReader r = s.scanBatches()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot root = r.getVectorSchemaRoot();
        for (int i = 0; i < root.getRowCount(); i++) {
          ids.add(((UInt8Vector) root.getVector("_rowid")).get(i));
          dist.add(((Float4Vector) root.getVector("_distance")).get(i));
        }
      }
    }
    long[] a = ids.stream().mapToLong(Long::longValue).toArray();
    float[] b = new float[dist.size()];
    for (int i = 0; i < b.length; i++) {
      b[i] = dist.get(i);
    }
    return new Neighbors(a, b);
  }

  static double recall(Neighbors n, Set<Long> truth) {
    return Arrays.stream(n.rowIds()).filter(truth::contains).count() / (double) truth.size();
  }

  /** Same rows with the same PQ distances (ties may swap places). */
  static void assertSameApproximation(Neighbors javelin, Neighbors lance) {
    assertThat(javelin.size()).isEqualTo(lance.size());
    for (int i = 0; i < javelin.size(); i++) {
      assertThat(javelin.distances()[i]).as("distance " + i)
          .isCloseTo(lance.distances()[i], within(1e-3f * Math.max(1f, Math.abs(lance.distances()[i]))));
    }
    // Compare ids away from the cut-off, where a last-place tie may pick either row.
    Set<Long> j = new HashSet<>();
    Set<Long> l = new HashSet<>();
    float cut = lance.distances()[lance.size() - 1] - 1e-3f * Math.max(1f, Math.abs(lance.distances()[lance.size() - 1]));
    for (int i = 0; i < javelin.size(); i++) {
      if (lance.distances()[i] < cut) {
        l.add(lance.rowIds()[i]);
      }
      if (javelin.distances()[i] < cut) {
        j.add(javelin.rowIds()[i]);
      }
    }
    assertThat(j).isEqualTo(l);
  }

  private void checkBothAgree(Path path, Dataset ds, org.lance.Dataset lance) throws Exception {
    double jr = 0;
    double lr = 0;
    int queries = 20;
    for (int s = 0; s < queries; s++) {
      float[] q = query(s);
      Set<Long> truth = truth(q, 10);
      // Every partition, no re-ranking: the same PQ distances from the same files.
      assertSameApproximation(ds.nearest("v", q).k(20).nprobes(PARTITIONS).neighbors(),
          lanceNearest(lance, q, 20, PARTITIONS, null));
      // Re-ranked with the true vectors: the exact answer on both sides.
      Neighbors exact = ds.nearest("v", q).k(10).nprobes(PARTITIONS).refineFactor(ROWS / 10).neighbors();
      assertThat(recall(exact, truth)).isEqualTo(1.0);
      assertThat(recall(lanceNearest(lance, q, 10, PARTITIONS, ROWS / 10), truth)).isEqualTo(1.0);
      jr += recall(ds.nearest("v", q).k(10).nprobes(2).refineFactor(5).neighbors(), truth);
      lr += recall(lanceNearest(lance, q, 10, 2, 5), truth);
    }
    jr /= queries;
    lr /= queries;
    System.out.printf("IVF_PQ recall@10 at nprobes 2, refine 5: javelin %.3f, lance-core %.3f%n", jr, lr);
    assertThat(jr).isCloseTo(lr, within(0.05));
    // lance-core trains from a random start, so its index (and both recalls) vary a little run to run.
    assertThat(jr).isGreaterThanOrEqualTo(0.8);
  }

  @Test
  void javelinSearchesIndexLanceBuilt() throws Exception {
    Path path = dir.resolve("ds");
    lanceWrite(path);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      IndexParams p = IndexParams.builder()
          .setVectorIndexParams(VectorIndexParams.ivfPq(PARTITIONS, 8, 4, DistanceType.L2, 20)).build();
      lance.createIndex(List.of("v"), org.lance.index.IndexType.IVF_PQ, Optional.of("v_idx"), p, false);
    }
    Dataset ds = Dataset.open(path, allocator);
    assertThat(ds.indices()).extracting(IndexInfo::name, IndexInfo::type, IndexInfo::fields)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("v_idx", IndexType.VECTOR, List.of("v")));
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      checkBothAgree(path, ds, lance);
    }
  }

  @Test
  void lanceSearchesIndexJavelinBuilt() throws Exception {
    Path path = dir.resolve("ds");
    lanceWrite(path);
    Dataset ds = Dataset.open(path, allocator).createIndex("v",
        IvfPqParams.of(PARTITIONS, 4, dev.javelin.index.DistanceType.L2).withIterations(20, 20));
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.listIndexes()).containsExactly("v_idx");
      checkBothAgree(path, ds, lance);
    }
  }
}
