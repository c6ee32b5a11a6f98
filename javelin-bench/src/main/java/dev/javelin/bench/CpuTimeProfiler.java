package dev.javelin.bench;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * A JMH profiler that reports the process's CPU time per operation (all threads: lance-core's native
 * threads, Javelin's pools, and also the JIT compiler and the garbage collector) as the secondary
 * result {@value #LABEL}, in the benchmark's time unit, beside the wall time. Per-invocation set-up
 * (copying a dataset before a delete) runs inside JMH's iteration but not its timing: such set-ups
 * wrap themselves in {@link #untimed}, and their CPU time is left out here too.
 */
public final class CpuTimeProfiler implements InternalProfiler {
  public static final String LABEL = "cpu";
  private static final AtomicLong UNTIMED = new AtomicLong();

  private long start;

  /** Runs {@code work} and leaves its CPU time out of the current iteration's. */
  public static <T> T untimed(Callable<T> work) throws Exception {
    long t0 = processCpuNanos();
    try {
      return work.call();
    } finally {
      UNTIMED.addAndGet(processCpuNanos() - t0);
    }
  }

  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    UNTIMED.set(0);
    start = processCpuNanos();
  }

  @Override
  public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
      IterationResult result) {
    long cpu = processCpuNanos() - start - UNTIMED.get();
    long ops = Math.max(1, result.getMetadata().getMeasuredOps());
    double perOp = (double) cpu / ops / benchmarkParams.getTimeUnit().toNanos(1);
    // The unit from the parameters, not the result: after a failed set-up the result is empty, and
    // throwing here would hide the set-up's own error.
    String unit = TimeValue.tuToString(benchmarkParams.getTimeUnit()) + "/op";
    return List.of(new ScalarResult(LABEL, perOp, unit, AggregationPolicy.AVG));
  }

  @Override
  public String getDescription() {
    return "Process CPU time per operation (all threads), set-ups wrapped in untimed() left out";
  }
}
