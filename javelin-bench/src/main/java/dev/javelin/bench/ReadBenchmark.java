package dev.javelin.bench;

import dev.javelin.core.Dataset;
import dev.javelin.core.ScanBuilder;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.ipc.ScanOptions;

/**
 * Dataset reads by Javelin and lance-core 7.0.0 in one JVM, on the dataset {@link IndexBenchmark}
 * writes (10M rows of two int64 columns in 10 fragments, format 2.1): full scan, one-column scan,
 * a take of 1,000 random rows. Run it with {@code bench/main ReadBenchmark} (create the
 * dataset with IndexBenchmark first). Javelin and lance-core runs alternate, so load on the machine
 * hits both; medians are printed with their ratio (lance-core time / Javelin time, above 1 when
 * Javelin is faster). Scans run with {@code ScanBuilder.parallelism} 1 and the default when the
 * method exists (it is looked up, so the harness also runs against older Javelin builds).
 */
public final class ReadBenchmark {
  private ReadBenchmark() {}

  interface Run {
    long run() throws Exception;
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(System.getProperty("javelin.bench.dir", "bench-data"))
        .resolve("index-" + Long.getLong("javelin.bench.rows", 10_000_000L));
    if (!Files.exists(dir.resolve("_versions"))) {
      throw new IllegalStateException("No dataset at " + dir + ": run IndexBenchmark first");
    }
    int rounds = Integer.getInteger("javelin.bench.rounds", 7);
    try (BufferAllocator allocator = new RootAllocator();
        org.lance.Dataset lance = org.lance.Dataset.open(dir.toString(), allocator)) {
      Dataset ds = Dataset.open(dir, allocator);
      long rows = ds.countRows();
      Random random = new Random(42);
      long[] offsets = random.longs(1000, 0, rows).toArray();
      List<Long> lanceOffsets = new ArrayList<>();
      Arrays.stream(offsets).forEach(lanceOffsets::add);
      Method parallelism = null;
      try {
        parallelism = ScanBuilder.class.getMethod("parallelism", int.class);
      } catch (NoSuchMethodException e) {
        // an older build: sequential only
      }
      Method p = parallelism;
      compare("full scan (1 thread)", rounds, () -> scan(ds, null, p, 1), () -> lanceScan(lance, List.of("id", "v")));
      compare("one-column scan (1 thread)", rounds, () -> scan(ds, List.of("v"), p, 1),
          () -> lanceScan(lance, List.of("v")));
      if (p != null) {
        compare("full scan (parallel)", rounds, () -> scan(ds, null, p, 0), () -> lanceScan(lance, List.of("id", "v")));
        compare("one-column scan (parallel)", rounds, () -> scan(ds, List.of("v"), p, 0),
            () -> lanceScan(lance, List.of("v")));
      }
      compare("take 1000 rows", rounds * 3, () -> {
        try (VectorSchemaRoot r = ds.take(offsets, List.of("id", "v"))) {
          return r.getRowCount();
        }
      }, () -> {
        try (ArrowReader r = lance.take(lanceOffsets, List.of("id", "v"))) {
          long n = 0;
          while (r.loadNextBatch()) {
            n += r.getVectorSchemaRoot().getRowCount();
          }
          return n;
        }
      });
    }
  }

  private static long scan(Dataset ds, List<String> columns, Method parallelism, int threads) throws Exception {
    ScanBuilder b = ds.newScan();
    if (columns != null) {
      b.columns(columns);
    }
    if (parallelism != null && threads > 0) {
      parallelism.invoke(b, threads);
    }
    long n = 0;
    try (ArrowReader r = b.build()) {
      while (r.loadNextBatch()) {
        n += r.getVectorSchemaRoot().getRowCount();
      }
    }
    return n;
  }

  private static long lanceScan(org.lance.Dataset lance, List<String> columns) throws Exception {
    long n = 0;
    try (var scanner = lance.newScan(new ScanOptions.Builder().columns(columns).build());
        ArrowReader r = scanner.scanBatches()) {
      while (r.loadNextBatch()) {
        n += r.getVectorSchemaRoot().getRowCount();
      }
    }
    return n;
  }

  // Alternates the two, after one warm-up each; prints medians and lance-core time / Javelin time.
  private static void compare(String what, int rounds, Run javelin, Run lance) throws Exception {
    long a = javelin.run();
    long b = lance.run();
    if (a != b) {
      throw new IllegalStateException(what + ": Javelin returned " + a + " rows, lance-core " + b);
    }
    double[] j = new double[rounds];
    double[] l = new double[rounds];
    for (int i = 0; i < rounds; i++) {
      long t = System.nanoTime();
      javelin.run();
      j[i] = (System.nanoTime() - t) / 1e6;
      t = System.nanoTime();
      lance.run();
      l[i] = (System.nanoTime() - t) / 1e6;
    }
    Arrays.sort(j);
    Arrays.sort(l);
    double jm = j[rounds / 2];
    double lm = l[rounds / 2];
    System.out.printf("%-28s javelin %9.2f ms  lance-core %9.2f ms  speed-up x%.2f%n", what, jm, lm, lm / jm);
  }
}
