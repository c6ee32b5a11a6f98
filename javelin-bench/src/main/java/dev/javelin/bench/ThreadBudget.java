package dev.javelin.bench;

import dev.javelin.common.ThreadPools;
import org.lance.ipc.ScanOptions;

/**
 * The one compute-thread budget both sides of a benchmark get, set in one place: {@code bench/run}
 * (and {@code bench/main}) take {@code BENCH_THREADS} and start every benchmark JVM with
 * <ul>
 *   <li>{@code LANCE_CPU_THREADS} in its environment: lance-core sizes its compute pool from it when
 *       its native library loads (without it, it keeps two cores for I/O: one compute thread on a
 *       2-core machine);
 *   <li>{@code -XX:ActiveProcessorCount}: every Javelin default sized from the processors follows it
 *       (scan parallelism, the file writer's column threads, compaction threads, the k-means and
 *       IVF_PQ build's parallel streams through the common fork-join pool);
 *   <li>{@code -Djavelin.cpu.threads}: Javelin's shared CPU pool (writes, deletes, vector search);
 *   <li>{@code -Djavelin.bench.threads}: the budget itself, which {@link #threads()} checks the three
 *       above against, so a benchmark run any other way fails instead of comparing unequal budgets.
 * </ul>
 * lance-core scans also get {@code batchReadahead} equal to the budget ({@link #lanceScan()}).
 */
public final class ThreadBudget {
  public static final String PROPERTY = "javelin.bench.threads";
  public static final String LANCE_ENV = "LANCE_CPU_THREADS";

  private ThreadBudget() {}

  /**
   * The budget, after checking that both sides run with it.
   *
   * @throws IllegalStateException if the JVM was not started with one budget for both sides
   */
  public static int threads() {
    String budget = System.getProperty(PROPERTY);
    if (budget == null) {
      throw new IllegalStateException("No thread budget: -D" + PROPERTY + " is not set (run benchmarks with"
          + " bench/run, bench/report or bench/main, which set it for both sides)");
    }
    int threads = Integer.parseInt(budget.trim());
    String lance = System.getenv(LANCE_ENV);
    if (lance == null || Integer.parseInt(lance.trim()) != threads) {
      throw new IllegalStateException("Thread budgets differ: -D" + PROPERTY + "=" + threads + " but " + LANCE_ENV
          + "=" + lance + " in the environment lance-core reads");
    }
    if (Runtime.getRuntime().availableProcessors() != threads) {
      throw new IllegalStateException("Thread budgets differ: -D" + PROPERTY + "=" + threads + " but Java sees "
          + Runtime.getRuntime().availableProcessors() + " processors (start it with -XX:ActiveProcessorCount="
          + threads + ")");
    }
    if (ThreadPools.shared().cpuThreads() != threads) {
      throw new IllegalStateException("Thread budgets differ: -D" + PROPERTY + "=" + threads + " but Javelin's CPU"
          + " pool has " + ThreadPools.shared().cpuThreads() + " threads (-D" + ThreadPools.CPU_THREADS_PROPERTY + ")");
    }
    return threads;
  }

  /** lance-core scan options with the budget's read-ahead; the caller adds columns, filter and so on. */
  public static ScanOptions.Builder lanceScan() {
    return new ScanOptions.Builder().batchReadahead(threads());
  }
}
