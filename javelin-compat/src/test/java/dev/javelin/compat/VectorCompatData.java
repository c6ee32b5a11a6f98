package dev.javelin.compat;

import dev.javelin.index.internal.ivf.Neighbors;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.IntPredicate;
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
import org.lance.ipc.Query;
import org.lance.ipc.ScanOptions;

/**
 * Clustered vectors for the vector search compatibility tests, written by lance-core: rows
 * {@code id} (row number, independent of the vector), {@code rank} (the row's place when rows are
 * ordered by cluster, so {@code rank < n} selects whole clusters: a filter correlated with the
 * vectors) and {@code v}. Also lance-core's nearest neighbours and brute-force truth.
 */
final class VectorCompatData {
  static final int DIM = 16;
  static final int CLUSTERS = 32;
  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      new Field("rank", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(DIM)), List.of(
          new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null)))));

  final float[][] vectors;
  final long[] rank;

  /** {@code rows} vectors around {@link #CLUSTERS} well separated centres. */
  VectorCompatData(int rows, long seed) {
    Random c = new Random(seed);
    float[][] centres = new float[CLUSTERS][DIM];
    for (float[] x : centres) {
      for (int j = 0; j < DIM; j++) {
        x[j] = c.nextFloat() * 20;
      }
    }
    Random n = new Random(seed + 1);
    vectors = new float[rows][];
    int[] cluster = new int[rows];
    for (int r = 0; r < rows; r++) {
      cluster[r] = n.nextInt(CLUSTERS);
      float[] x = new float[DIM];
      for (int j = 0; j < DIM; j++) {
        x[j] = centres[cluster[r]][j] + (float) n.nextGaussian() * 0.6f;
      }
      vectors[r] = x;
    }
    Integer[] order = new Integer[rows];
    for (int i = 0; i < rows; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> cluster[a] != cluster[b] ? Integer.compare(cluster[a], cluster[b])
        : Integer.compare(a, b));
    rank = new long[rows];
    for (int i = 0; i < rows; i++) {
      rank[order[i]] = i;
    }
  }

  int rows() {
    return vectors.length;
  }

  /** Rows [from, to) as batches of at most 1,000. */
  List<VectorSchemaRoot> batches(BufferAllocator a, int from, int to) {
    List<VectorSchemaRoot> out = new ArrayList<>();
    for (int b = from; b < to; b += 1000) {
      int n = Math.min(1000, to - b);
      VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, a);
      root.allocateNew();
      FixedSizeListVector v = (FixedSizeListVector) root.getVector("v");
      Float4Vector f = (Float4Vector) v.getDataVector();
      for (int i = 0; i < n; i++) {
        ((BigIntVector) root.getVector("id")).setSafe(i, b + i);
        ((BigIntVector) root.getVector("rank")).setSafe(i, rank[b + i]);
        v.setNotNull(i);
        for (int j = 0; j < DIM; j++) {
          f.setSafe(i * DIM + j, vectors[b + i][j]);
        }
      }
      root.setRowCount(n);
      out.add(root);
    }
    return out;
  }

  /** lance-core writes rows [from, to): creating the dataset when {@code from} is 0, else appending. */
  void lanceWrite(BufferAllocator a, Path path, int from, int to, int perFile, boolean stableRowIds) {
    List<VectorSchemaRoot> data = batches(a, from, to);
    try (ArrowReader reader = DatasetCompatSupport.readerOf(a, SCHEMA, data)) {
      org.lance.Dataset.write().allocator(a).reader(reader).uri(path.toString())
          .mode(from == 0 ? org.lance.WriteParams.WriteMode.CREATE : org.lance.WriteParams.WriteMode.APPEND)
          .maxRowsPerFile(perFile).enableStableRowIds(stableRowIds).execute().close();
    } catch (Exception e) {
      throw new RuntimeException(e);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  /** A query near row {@code s}'s vector (random row, seeded). */
  float[] query(int s) {
    Random r = new Random(1000 + s);
    float[] q = vectors[r.nextInt(vectors.length)].clone();
    for (int j = 0; j < DIM; j++) {
      q[j] += (float) r.nextGaussian() * 0.3f;
    }
    return q;
  }

  /** The ids of the {@code k} rows nearest {@code q} (squared L2) among those {@code keep} passes. */
  long[] truth(float[] q, int k, IntPredicate keep) {
    List<Integer> passing = new ArrayList<>();
    float[] d = new float[vectors.length];
    for (int i = 0; i < vectors.length; i++) {
      if (keep.test(i)) {
        passing.add(i);
        d[i] = dev.javelin.index.DistanceType.L2.distance(q, 0, vectors[i], 0, DIM);
      }
    }
    passing.sort((a, b) -> d[a] != d[b] ? Float.compare(d[a], d[b]) : Integer.compare(a, b));
    return passing.stream().limit(k).mapToLong(Integer::longValue).toArray();
  }

  /** The fraction of {@code truth} found in {@code got} (1 when truth is empty). */
  static double recall(long[] got, long[] truth) {
    if (truth.length == 0) {
      return 1;
    }
    long hit = Arrays.stream(got).filter(g -> Arrays.stream(truth).anyMatch(t -> t == g)).count();
    return hit / (double) truth.length;
  }

  /**
   * lance-core's nearest rows: {@code id} values and {@code _distance}, in its order (and its
   * {@code _rowid}s in {@code rowIds} when not null).
   */
  static Neighbors lanceNearest(org.lance.Dataset lance, Query query, String filter, boolean prefilter,
      List<Long> rowIds) throws Exception {
    ScanOptions.Builder o = new ScanOptions.Builder().columns(List.of("id", "_distance")).withRowId(true).nearest(query);
    if (filter != null) {
      o.filter(filter).prefilter(prefilter);
    }
    List<Long> ids = new ArrayList<>();
    List<Float> dist = new ArrayList<>();
    try (var s = lance.newScan(o.build()); ArrowReader r = s.scanBatches()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot root = r.getVectorSchemaRoot();
        for (int i = 0; i < root.getRowCount(); i++) {
          ids.add(((BigIntVector) root.getVector("id")).get(i));
          dist.add(((Float4Vector) root.getVector("_distance")).get(i));
          if (rowIds != null) {
            rowIds.add(((UInt8Vector) root.getVector("_rowid")).get(i));
          }
        }
      }
    }
    float[] d = new float[dist.size()];
    for (int i = 0; i < d.length; i++) {
      d[i] = dist.get(i);
    }
    return new Neighbors(ids.stream().mapToLong(Long::longValue).toArray(), d);
  }

  /** Javelin's nearest rows as {@code id} values and {@code _distance}, in its order. */
  static Neighbors javelinNearest(dev.javelin.core.VectorQuery query) {
    try (VectorSchemaRoot rows = query.columns(List.of("id")).execute()) {
      long[] ids = new long[rows.getRowCount()];
      float[] d = new float[ids.length];
      for (int i = 0; i < ids.length; i++) {
        ids[i] = ((BigIntVector) rows.getVector("id")).get(i);
        d[i] = ((Float4Vector) rows.getVector("_distance")).get(i);
      }
      return new Neighbors(ids, d);
    }
  }
}
