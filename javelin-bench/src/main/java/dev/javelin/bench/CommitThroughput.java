package dev.javelin.bench;

import dev.javelin.core.Dataset;
import dev.javelin.core.VersionInfo;
import dev.javelin.core.WriteParams;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * Commit throughput of concurrent Javelin appenders on the local file system: {@code writers}
 * threads, each with its own dataset handle, each committing {@code commits} small appends as fast
 * as it can (every commit after the first races the others' and rebases). Prints commits per
 * second, then checks that nothing was lost: one version per commit, every appended row present
 * exactly once, and each version's row count one append more than the last. Exits with 1 if a
 * check fails.
 *
 * <p>Usage: {@code CommitThroughput [writers=4] [commits per writer=50] [rows per commit=100]
 * [javelin|lance]} (lance: the same appends by lance-core, checked by Javelin, as a peer figure);
 * the dataset goes in a temporary directory under {@link BenchData#dir()} and is deleted after. A
 * first, shorter round on another dataset warms the JIT up and is not reported.
 */
public final class CommitThroughput {
  private static final long WRITER_STRIDE = 1_000_000_000L;

  private CommitThroughput() {}

  public static void main(String[] args) throws Exception {
    ThreadBudget.threads(); // both sides with one budget: run it with bench/main or bench/run
    int writers = args.length > 0 ? Integer.parseInt(args[0]) : 4;
    int commits = args.length > 1 ? Integer.parseInt(args[1]) : 50;
    int rows = args.length > 2 ? Integer.parseInt(args[2]) : 100;
    boolean lance = args.length > 3 && args[3].equals("lance");
    Path root = Files.createTempDirectory(BenchData.dir(), "commits-");
    List<String> failures;
    try (BufferAllocator allocator = new RootAllocator()) {
      // A first round warms up the JIT; only the second is reported.
      run(root.resolve("warmup"), allocator, writers, Math.max(1, commits / 5), rows, lance);
      double seconds = run(root.resolve("ds"), allocator, writers, commits, rows, lance);
      int total = writers * commits;
      System.out.printf(Locale.ROOT, "%s: %d writers x %d commits of %d rows: %d commits in %.2f s = %.1f commits/s%n",
          lance ? "lance-core" : "Javelin", writers, commits, rows, total, seconds, total / seconds);
      failures = verify(root.resolve("ds"), allocator, writers, commits, rows);
    } finally {
      DatasetBenchData.deleteTree(root);
    }
    if (failures.isEmpty()) {
      System.out.println("No commit lost: one version per commit, every row present exactly once.");
    } else {
      failures.forEach(f -> System.out.println("LOST: " + f));
      System.exit(1);
    }
  }

  // Creates a dataset at path, lets the writers race, returns the seconds from start to the last commit.
  private static double run(Path path, BufferAllocator allocator, int writers, int commits, int rows,
      boolean lance) throws Exception {
    try (VectorSchemaRoot first = DatasetBenchData.batch(allocator, -rows, rows)) {
      if (lance) {
        DatasetBenchData.lanceWrite(allocator, path, List.of(first), org.lance.WriteParams.WriteMode.CREATE, rows);
      } else {
        Dataset.create(path, List.of(first), WriteParams.defaults(), allocator);
      }
    }
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        done.add(pool.submit(() -> {
          Dataset ds = lance ? null : Dataset.open(path, allocator);
          start.await();
          for (int c = 0; c < commits; c++) {
            try (VectorSchemaRoot batch = DatasetBenchData.batch(allocator, writer * WRITER_STRIDE + (long) c * rows, rows)) {
              if (lance) {
                DatasetBenchData.lanceWrite(allocator, path, List.of(batch), org.lance.WriteParams.WriteMode.APPEND, rows);
              } else {
                ds = ds.append(List.of(batch), WriteParams.defaults());
              }
            }
          }
          return null;
        }));
      }
      long t0 = System.nanoTime();
      start.countDown();
      for (Future<?> f : done) {
        f.get();
      }
      return (System.nanoTime() - t0) / 1e9;
    } finally {
      pool.shutdown();
    }
  }

  private static List<String> verify(Path path, BufferAllocator allocator, int writers, int commits, int rows)
      throws Exception {
    List<String> failures = new ArrayList<>();
    Dataset latest = Dataset.open(path, allocator);
    long versions = 1 + (long) writers * commits;
    if (latest.version() != versions) {
      failures.add("latest version is " + latest.version() + ", expected " + versions);
    }
    List<VersionInfo> all = latest.versions();
    for (int i = 0; i < all.size(); i++) {
      VersionInfo v = all.get(i);
      if (v.version() != i + 1 || v.rowCount() != (long) (i + 1) * rows) {
        failures.add("version " + v.version() + " has " + v.rowCount() + " rows, expected version " + (i + 1)
            + " with " + (long) (i + 1) * rows);
      }
    }
    Set<Long> seen = new HashSet<>();
    try (ArrowReader r = latest.newScan().columns("id").build()) {
      while (r.loadNextBatch()) {
        BigIntVector id = (BigIntVector) r.getVectorSchemaRoot().getVector("id");
        for (int i = 0; i < id.getValueCount(); i++) {
          if (!seen.add(id.get(i))) {
            failures.add("row " + id.get(i) + " is present twice");
          }
        }
      }
    }
    for (int w = 0; w < writers; w++) {
      for (long row = 0; row < (long) commits * rows; row++) {
        if (!seen.contains(w * WRITER_STRIDE + row)) {
          failures.add("row " + (w * WRITER_STRIDE + row) + " of writer " + w + " is missing");
          break;
        }
      }
    }
    long want = (long) (writers * commits + 1) * rows;
    if (seen.size() != want) {
      failures.add(seen.size() + " distinct rows, expected " + want);
    }
    return failures;
  }
}
