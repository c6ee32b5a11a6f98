package dev.javelin.bench;

import dev.javelin.core.Dataset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

/**
 * Filtered scans with functions in the filter, Javelin against lance-core in one JVM on a dataset
 * lance-core wrote ({@link DatasetBenchData} rows: id, score, name): the median wall time of each
 * side over alternating runs, and their ratio.
 *
 * <p>Usage: {@code FunctionFilterProfile DIR ROWS RUNS [FILTER...]}; DIR/ds is written when missing;
 * without filters, {@link #FILTERS} run.
 */
public final class FunctionFilterProfile {
  static final List<String> FILTERS = List.of(
      "lower(name) LIKE 'user-1%'",
      "abs(score) > 250",
      "starts_with(name, 'user-a') AND round(score) = 3",
      "CAST(id AS STRING) LIKE '%777'",
      "regexp_like(name, '-9[0-6]$')",
      "length(name) > 14 AND COALESCE(score, 0) > 100");

  private FunctionFilterProfile() {}

  public static void main(String[] args) throws Exception {
    Path path = Path.of(args[0]).resolve("ds");
    long rows = Long.parseLong(args[1]);
    int runs = Integer.parseInt(args[2]);
    try (BufferAllocator allocator = new RootAllocator()) {
      if (!Files.exists(path)) {
        for (long done = 0; done < rows; done += 1_000_000) {
          List<VectorSchemaRoot> batches = DatasetBenchData.batches(allocator, done, Math.min(1_000_000, rows - done));
          DatasetBenchData.lanceWrite(allocator, path, batches, done == 0 ? org.lance.WriteParams.WriteMode.CREATE
              : org.lance.WriteParams.WriteMode.APPEND, DatasetBenchData.ROWS_PER_FILE);
          batches.forEach(VectorSchemaRoot::close);
        }
      }
      Dataset javelin = Dataset.open(path, allocator);
      try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
        List<String> filters = args.length > 3 ? List.of(args).subList(3, args.length) : FILTERS;
        for (String filter : filters) {
          double[] j = new double[runs];
          double[] l = new double[runs];
          long jr = 0;
          long lr = 0;
          for (int run = 0; run < runs; run++) {
            long t0 = System.nanoTime();
            try (ArrowReader r = javelin.newScan().filter(filter).batchSize(8192).build()) {
              jr = drain(r);
            }
            j[run] = (System.nanoTime() - t0) / 1e6;
            t0 = System.nanoTime();
            try (LanceScanner s = lance.newScan(new ScanOptions.Builder().filter(filter).batchSize(8192).build());
                ArrowReader r = s.scanBatches()) {
              lr = drain(r);
            }
            l[run] = (System.nanoTime() - t0) / 1e6;
          }
          if (jr != lr) {
            throw new IllegalStateException(filter + ": Javelin selected " + jr + " rows, lance-core " + lr);
          }
          double jm = median(j);
          double lm = median(l);
          System.out.printf("%-70s rows %9d  javelin %8.1f ms  lance-core %8.1f ms  speed %.2fx%n", filter, jr, jm, lm,
              lm / jm);
        }
      }
    }
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }

  private static long drain(ArrowReader r) throws Exception {
    long rows = 0;
    while (r.loadNextBatch()) {
      rows += r.getVectorSchemaRoot().getRowCount();
    }
    return rows;
  }
}
