package dev.javelin.bench;

import dev.javelin.core.Dataset;
import dev.javelin.core.IndexBuilder;
import dev.javelin.core.WriteParams;
import dev.javelin.index.IvfPqParams;
import dev.javelin.index.internal.ivf.FlatSearch;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
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
import org.lance.index.DistanceType;
import org.lance.index.IndexParams;
import org.lance.index.vector.VectorIndexParams;
import org.lance.ipc.Query;
import org.lance.ipc.ScanOptions;

/**
 * IVF_PQ build time, recall@10 and query latency, Javelin vs lance-core 7.0.0 on the same data
 * and the same queries, random and clustered float32 vectors. It takes minutes; run it with
 * {@code bench/main VectorIndexBenchmark}, and {@code -Djavelin.bench.vector.rows=N
 * -Djavelin.bench.vector.dim=D} (in JAVA_OPTS) to change the size (default 100,000 x 128).
 * Each setting is timed after {@code javelin.bench.vector.warmup} (200) untimed queries per
 * side, as the median of {@code javelin.bench.vector.rounds} (3) passes over the queries that
 * alternate the two sides.
 */
public final class VectorIndexBenchmark {
  static final int ROWS = Integer.getInteger("javelin.bench.vector.rows", 100_000);
  static final int DIM = Integer.getInteger("javelin.bench.vector.dim", 128);
  static final int PARTITIONS = Integer.getInteger("javelin.bench.vector.partitions", 256);
  static final int PQ_ITERS = 10;
  static final int QUERIES = 200;
  // Untimed queries per side before each setting is timed, and timed passes over the queries.
  static final int WARMUP = Integer.getInteger("javelin.bench.vector.warmup", 200);
  static final int ROUNDS = Integer.getInteger("javelin.bench.vector.rounds", 3);

  /** An index (sub-vector count) and the (nprobes, refine factor) settings measured on it; 0 = no re-ranking. */
  record IndexConfig(int subVectors, int[][] settings) {}

  /**
   * PQ16 with Lance's usual settings, then settings that reach recall@10 0.90. Re-ranking does it
   * on clustered data. Uniform random data has no neighbourhoods to find (a query's 10th nearest
   * row is barely nearer than a typical one): the true neighbours lie in many partitions, so it
   * takes most partitions and a large refine factor (PQ32 instead of PQ16 only trades refine 200
   * for 100 at the same nprobes, measured on 200,000 rows, and IVF1024 needs about the same CPU
   * per query at equal recall, measured on 1M rows, so neither is built here). On 1M random rows
   * 176 r200 is the cheapest setting measured at 0.90 (0.904; 160 r200 0.894, 144 r400 0.907 and
   * 160 r300 0.919 cost more per query).
   */
  static final IndexConfig[] CONFIGS = {
      new IndexConfig(DIM / 8, new int[][] {{5, 0}, {10, 0}, {20, 0}, {40, 0}, {10, 10}, {20, 10},
          {5, 10}, {5, 20}, {10, 20}, {128, 200}, {144, 400}, {160, 300}, {176, 200}, {256, 200}, {256, 500}}),
  };

  private final Path dir;

  private VectorIndexBenchmark(Path dir) {
    this.dir = dir;
  }

  /** Runs both data sets and prints the report (also written to bench-data/vector-index-benchmark.txt). */
  public static void main(String[] args) throws Exception {
    ThreadBudget.threads(); // both sides with one budget: run it with bench/main or bench/run
    Path dir = Files.createTempDirectory(BenchData.dir(), "vector-");
    VectorIndexBenchmark b = new VectorIndexBenchmark(dir);
    StringBuilder report = new StringBuilder();
    for (boolean clustered : new boolean[] {false, true}) {
      report.append(b.run(clustered));
    }
    System.out.print(report);
    Files.writeString(BenchData.dir().resolve("vector-index-benchmark.txt"), report.toString());
  }

  /**
   * The data set: uniform in [0,1)^d, or clustered. Clustered data has structure inside its
   * clusters, as real embeddings do: each of 1,000 clusters is a centre plus a random
   * 8-dimensional linear spread (a point is centre + B_c z, z ~ N(0, I_8), columns of B_c of
   * length 1.5) plus a little isotropic noise (0.05). Isotropic 128-dimensional noise alone
   * (the earlier generator) makes all ~1,000 points of a cluster nearly equidistant from a query,
   * so no index can tell its 10 nearest from the rest: recall stayed at ~0.13 whatever nprobes.
   */
  static float[] data(boolean clustered) {
    Random r = new Random(clustered ? 11 : 12);
    float[] centres = new float[1000 * DIM];
    for (int i = 0; i < centres.length; i++) {
      centres[i] = r.nextFloat() * 4;
    }
    float[] v = new float[ROWS * DIM];
    if (!clustered) {
      for (int i = 0; i < ROWS; i++) {
        r.nextInt(1000); // as the earlier generator did, so that the random data set is unchanged
        for (int j = 0; j < DIM; j++) {
          v[i * DIM + j] = r.nextFloat();
        }
      }
      return v;
    }
    int latent = 8;
    float[] basis = new float[1000 * DIM * latent];
    float scale = 1.5f / (float) Math.sqrt(DIM);
    for (int i = 0; i < basis.length; i++) {
      basis[i] = (float) r.nextGaussian() * scale;
    }
    float[] z = new float[latent];
    for (int i = 0; i < ROWS; i++) {
      int c = r.nextInt(1000);
      for (int t = 0; t < latent; t++) {
        z[t] = (float) r.nextGaussian();
      }
      for (int j = 0; j < DIM; j++) {
        float x = centres[c * DIM + j] + (float) r.nextGaussian() * 0.05f;
        for (int t = 0; t < latent; t++) {
          x += basis[(c * DIM + j) * latent + t] * z[t];
        }
        v[i * DIM + j] = x;
      }
    }
    return v;
  }

  private String run(boolean clustered) throws Exception {
    float[] v = data(clustered);
    Schema schema = new Schema(List.of(new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(DIM)),
        List.of(new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
            null)))));
    Path jpath = dir.resolve("javelin-" + clustered);
    Path lpath = dir.resolve("lance-" + clustered);
    StringBuilder out = new StringBuilder();
    try (BufferAllocator a = new RootAllocator()) {
      List<VectorSchemaRoot> batches = new ArrayList<>();
      for (int b = 0; b < ROWS; b += 10_000) {
        int n = Math.min(10_000, ROWS - b);
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, a);
        root.allocateNew();
        FixedSizeListVector fsl = (FixedSizeListVector) root.getVector(0);
        Float4Vector f = (Float4Vector) fsl.getDataVector();
        for (int i = 0; i < n; i++) {
          fsl.setNotNull(i);
          for (int j = 0; j < DIM; j++) {
            f.setSafe(i * DIM + j, v[(b + i) * DIM + j]);
          }
        }
        root.setRowCount(n);
        batches.add(root);
      }
      try {
        Dataset.create(jpath, batches, WriteParams.defaults(), a);
        Dataset.create(lpath, batches, WriteParams.defaults(), a);
      } finally {
        batches.forEach(VectorSchemaRoot::close);
      }
      // Queries near data points, with their exact answers.
      Random r = new Random(99);
      float[][] queries = new float[QUERIES][DIM];
      List<Set<Long>> truth = new ArrayList<>();
      long[] ids = new long[ROWS];
      for (int i = 0; i < ROWS; i++) {
        ids[i] = i; // one fragment: row address = row number
      }
      for (int q = 0; q < QUERIES; q++) {
        int base = r.nextInt(ROWS);
        for (int j = 0; j < DIM; j++) {
          queries[q][j] = v[base * DIM + j] + (float) r.nextGaussian() * 0.05f;
        }
        FlatSearch flat = new FlatSearch(queries[q], dev.javelin.index.DistanceType.L2, 10);
        flat.add(v, 0, ROWS, ids);
        Set<Long> t = new HashSet<>();
        for (long id : flat.result().rowIds()) {
          t.add(id);
        }
        truth.add(t);
      }
      boolean first = true;
      for (IndexConfig config : CONFIGS) {
        // Later configurations replace the index (same name) on both sides.
        long t0 = System.nanoTime();
        IndexBuilder build = Dataset.open(jpath, a).createIndex("v").name("v_idx")
            .ivfPq(IvfPqParams.of(PARTITIONS, config.subVectors(), dev.javelin.index.DistanceType.L2)
                .withIterations(50, PQ_ITERS));
        Dataset ds = (first ? build : build.replace()).commit().dataset();
        double javelinBuild = (System.nanoTime() - t0) / 1e9;
        t0 = System.nanoTime();
        try (org.lance.Dataset lance = org.lance.Dataset.open(lpath.toString(), a)) {
          IndexParams p = IndexParams.builder().setVectorIndexParams(
              VectorIndexParams.ivfPq(PARTITIONS, 8, config.subVectors(), DistanceType.L2, PQ_ITERS)).build();
          lance.createIndex(List.of("v"), org.lance.index.IndexType.IVF_PQ, Optional.of("v_idx"), p, !first);
        }
        double lanceBuild = (System.nanoTime() - t0) / 1e9;
        first = false;
        out.append(String.format("%n%s data, %,d x %d float32, IVF%d_PQ%d (8 bits), %d queries, k=10"
            + " (nprobes, rR = refine factor R; cpu = process CPU ms per query, all threads)%n",
            clustered ? "clustered" : "random", ROWS, DIM, PARTITIONS, config.subVectors(), QUERIES));
        out.append(String.format("build: javelin %.1f s, lance-core %.1f s (ratio %.2f)%n", javelinBuild, lanceBuild,
            javelinBuild / lanceBuild));
        out.append(String.format("%8s | %14s %9s %9s | %14s %9s %9s%n", "nprobes", "javelin recall", "ms/query",
            "cpu ms", "lance recall", "ms/query", "cpu ms"));
        try (org.lance.Dataset lance = org.lance.Dataset.open(lpath.toString(), a)) {
          for (int[] setting : config.settings()) {
            out.append(measure(ds, lance, queries, truth, setting[0], setting[1]));
          }
        }
      }
    }
    System.out.print(out);
    return out.toString();
  }

  // One row of the table: recall and latency of both sides at (nprobes, refine).
  private static String measure(Dataset ds, org.lance.Dataset lance, float[][] queries, List<Set<Long>> truth,
      int nprobes, int refine) throws Exception {
    // Warm up both sides (index load, JIT: the search loops compile to their final code only
    // after a few hundred queries; 20 left Javelin partly interpreted), alternating.
    for (int q = 0; q < WARMUP; q++) {
      javelinIds(ds, queries[q % QUERIES], nprobes, refine);
      lanceIds(lance, queries[q % QUERIES], nprobes, refine);
    }
    // Then ROUNDS timed passes over the queries, alternating sides; medians of the passes.
    double[] jms = new double[ROUNDS];
    double[] jcpu = new double[ROUNDS];
    double[] lms = new double[ROUNDS];
    double[] lcpu = new double[ROUNDS];
    double jr = 0;
    double lr = 0;
    for (int round = 0; round < ROUNDS; round++) {
      jr = 0;
      long c0 = cpuNanos();
      long t0 = System.nanoTime();
      for (int q = 0; q < QUERIES; q++) {
        for (long id : javelinIds(ds, queries[q], nprobes, refine)) {
          jr += truth.get(q).contains(id) ? 1 : 0;
        }
      }
      jms[round] = (System.nanoTime() - t0) / 1e6 / QUERIES;
      jcpu[round] = (cpuNanos() - c0) / 1e6 / QUERIES;
      lr = 0;
      c0 = cpuNanos();
      t0 = System.nanoTime();
      for (int q = 0; q < QUERIES; q++) {
        for (long id : lanceIds(lance, queries[q], nprobes, refine)) {
          lr += truth.get(q).contains(id) ? 1 : 0;
        }
      }
      lms[round] = (System.nanoTime() - t0) / 1e6 / QUERIES;
      lcpu[round] = (cpuNanos() - c0) / 1e6 / QUERIES;
    }
    return String.format("%8s | %14.3f %9.2f %9.2f | %14.3f %9.2f %9.2f%n",
        nprobes + (refine > 0 ? " r" + refine : ""), jr / (QUERIES * 10), median(jms), median(jcpu),
        lr / (QUERIES * 10), median(lms), median(lcpu));
  }

  static long[] javelinIds(Dataset ds, float[] q, int nprobes, int refine) {
    // Exactly nprobes partitions, as lance-core's setNprobes (minimum = maximum).
    return ds.nearest("v", q).k(10).nprobes(nprobes).maximumNprobes(nprobes).refineFactor(refine).neighbors().rowIds();
  }

  private static double median(double[] x) {
    double[] s = x.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }

  // CPU time of the whole process (lance-core searches on its own native threads), which on a
  // shared machine says more than wall time.
  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
  }

  static List<Long> lanceIds(org.lance.Dataset lance, float[] q, int nprobes, int refine) throws Exception {
    Query.Builder qb = new Query.Builder().setColumn("v").setKey(q).setK(10).setNprobes(nprobes);
    if (refine > 0) {
      qb.setRefineFactor(refine);
    }
    Query query = qb.build();
    ScanOptions opts = new ScanOptions.Builder().columns(List.of("_distance")).withRowId(true).nearest(query).build();
    List<Long> out = new ArrayList<>();
    try (var s = lance.newScan(opts); ArrowReader r = s.scanBatches()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot root = r.getVectorSchemaRoot();
        UInt8Vector ids = (UInt8Vector) root.getVector("_rowid");
        for (int i = 0; i < root.getRowCount(); i++) {
          out.add(ids.get(i));
        }
      }
    }
    return out;
  }
}
