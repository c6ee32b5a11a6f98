package dev.javelin.spark;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.core.compaction.CompactionOptions;
import dev.javelin.core.compaction.CompactionScope;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.spark.sql.SparkSession;

/**
 * The compaction benchmark's backfilled dataset ({@code rows} rows of id, name, score in
 * fragments of 250,000, then 7 int64 columns added one at a time: 8 files per fragment),
 * repacked to one file per fragment by the single-JVM default executor and by Spark in
 * {@code local[2]}; then a full-column aggregate read through the {@code javelin} source against
 * Spark's Parquet reader on the same rows. Medians; each repack on a fresh copy (not timed).
 * Usage: {@code SparkRepackBenchmark [rows] [runs] [dir]}.
 */
public final class SparkRepackBenchmark {
  private static final int PER_FRAGMENT = 250_000;

  private SparkRepackBenchmark() {}

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Path root = args.length > 2 ? Path.of(args[2]) : Files.createTempDirectory("spark-repack");
    Path source = root.resolve("backfilled");
    Path work = root.resolve("work");
    SparkSession spark = SparkSession.builder().master("local[2]").appName("spark-repack-bench")
        .config("spark.ui.enabled", "false").getOrCreate();
    spark.sparkContext().setLogLevel("ERROR");
    try (BufferAllocator allocator = new RootAllocator()) {
      if (!Files.exists(source.resolve("_versions"))) {
        create(source, rows, allocator);
      }
      CompactionOptions repack = CompactionOptions.builder().scope(CompactionScope.REPACK_COLUMNS)
          .maxDataFilesPerFragment(1).build();
      double[] local = new double[runs + 1];
      double[] distributed = new double[runs + 1];
      for (int i = 0; i <= runs; i++) { // run 0 warms up
        copy(source, work);
        long t = System.nanoTime();
        Dataset.open(work, allocator).compact(repack);
        local[i] = (System.nanoTime() - t) / 1e6;
        copy(source, work);
        t = System.nanoTime();
        SparkCompaction.compact(spark, work.toString(), repack, allocator);
        distributed[i] = (System.nanoTime() - t) / 1e6;
      }
      double l = median(local);
      double d = median(distributed);
      System.out.printf(Locale.ROOT, "repack %,d rows (8 -> 1 file per fragment): default executor %.0f ms, "
          + "Spark local[2] %.0f ms, ratio %.2f%n", rows, l, d, d / l);

      // Reads: the repacked copy through the javelin source vs the same rows as Parquet.
      Path parquet = root.resolve("parquet");
      var jv = spark.read().format("javelin").load(work.toString());
      if (!Files.exists(parquet)) {
        jv.write().parquet(parquet.toString());
      }
      var pq = spark.read().parquet(parquet.toString());
      String[] agg = {"sum(id)", "sum(score)", "max(length(name))", "sum(c1)", "sum(c7)"};
      double[] tj = new double[runs + 1];
      double[] tp = new double[runs + 1];
      for (int i = 0; i <= runs; i++) {
        long t = System.nanoTime();
        jv.selectExpr(agg).collect();
        tj[i] = (System.nanoTime() - t) / 1e6;
        t = System.nanoTime();
        pq.selectExpr(agg).collect();
        tp[i] = (System.nanoTime() - t) / 1e6;
      }
      System.out.printf(Locale.ROOT, "aggregate read of 5 columns: javelin %.0f ms, parquet %.0f ms, ratio %.2f%n",
          median(tj), median(tp), median(tj) / median(tp));
    } finally {
      spark.stop();
    }
  }

  private static void create(Path p, int rows, BufferAllocator allocator) {
    List<VectorSchemaRoot> batches = new ArrayList<>();
    try {
      for (int from = 0; from < rows; from += 65_536) {
        int n = Math.min(65_536, rows - from);
        BigIntVector id = new BigIntVector("id", allocator);
        VarCharVector name = new VarCharVector("name", allocator);
        Float8Vector score = new Float8Vector("score", allocator);
        for (int i = 0; i < n; i++) {
          id.setSafe(i, from + i);
          name.setSafe(i, ("name-" + (from + i) % 10_007).getBytes(StandardCharsets.UTF_8));
          score.setSafe(i, (from + i) * 0.25);
        }
        VectorSchemaRoot r = VectorSchemaRoot.of(id, name, score);
        r.setRowCount(n);
        batches.add(r);
      }
      Dataset ds = Dataset.create(p, batches, WriteParams.builder().maxRowsPerFile(PER_FRAGMENT).build(), allocator);
      for (int c = 1; c <= 7; c++) {
        Map<String, String> add = new LinkedHashMap<>();
        add.put("c" + c, "id * " + c);
        ds = ds.addColumns(add);
      }
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    if (Files.exists(to)) {
      try (Stream<Path> s = Files.walk(to)) {
        for (Path x : s.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(x);
        }
      }
    }
    try (Stream<Path> s = Files.walk(from)) {
      for (Path x : s.toList()) {
        Files.copy(x, to.resolve(from.relativize(x).toString()));
      }
    }
  }

  private static double median(double[] withWarmup) {
    double[] t = Arrays.copyOfRange(withWarmup, 1, withWarmup.length);
    Arrays.sort(t);
    return t[t.length / 2];
  }
}
