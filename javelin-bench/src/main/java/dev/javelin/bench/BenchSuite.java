package dev.javelin.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeMap;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs JMH benchmarks (any JMH command-line arguments) at the thread budget of this JVM (see
 * {@link ThreadBudget}) with {@link CpuTimeProfiler}, and appends every measured iteration's wall
 * and CPU time to a samples file that {@link BenchReport} turns into tables. Any benchmark error (a
 * failed {@link EqualWork} check in a set-up) ends the run with an exception.
 *
 * <p>Usage: {@code BenchSuite SAMPLES_FILE [JMH arguments...]}
 */
public final class BenchSuite {
  private BenchSuite() {}

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args[0]);
    int threads = ThreadBudget.threads();
    CommandLineOptions cli = new CommandLineOptions(java.util.Arrays.copyOfRange(args, 1, args.length));
    // A failed equal-work check must stop the run (non-zero exit), not leave a row out of the tables.
    Collection<RunResult> results = new Runner(new OptionsBuilder().parent(cli).shouldFailOnError(true)
        .addProfiler(CpuTimeProfiler.class).build()).run();
    List<Sample> samples = new ArrayList<>();
    for (RunResult run : results) {
      samples.addAll(samples(threads, run));
    }
    Sample.append(out, samples);
    System.out.println("samples of " + samples.size() + " benchmarks at " + threads + " threads appended to " + out);
  }

  /**
   * The run's samples: mean time per operation (and CPU) per iteration; in sample-time mode also
   * each iteration's median and 99th percentile latency, as rows {@code benchmark:p50} and
   * {@code benchmark:p99}.
   */
  static List<Sample> samples(int threads, RunResult run) {
    BenchmarkParams p = run.getParams();
    TreeMap<String, String> params = new TreeMap<>();
    for (String key : p.getParamsKeys()) {
      params.put(key, p.getParam(key));
    }
    String impl = params.remove("impl");
    List<Double> wall = new ArrayList<>();
    List<Double> cpu = new ArrayList<>();
    List<Double> p50 = new ArrayList<>();
    List<Double> p99 = new ArrayList<>();
    for (BenchmarkResult fork : run.getBenchmarkResults()) {
      for (IterationResult it : fork.getIterationResults()) {
        wall.add(it.getPrimaryResult().getScore());
        Result c = it.getSecondaryResults().get(CpuTimeProfiler.LABEL);
        cpu.add(c == null ? Double.NaN : c.getScore());
        p50.add(it.getPrimaryResult().getStatistics().getPercentile(50));
        p99.add(it.getPrimaryResult().getStatistics().getPercentile(99));
      }
    }
    String side = impl == null ? "javelin" : impl;
    String unit = run.getPrimaryResult().getScoreUnit();
    List<Sample> out = new ArrayList<>();
    out.add(new Sample(threads, p.getBenchmark(), params, side, unit, array(wall), array(cpu)));
    if (p.getMode() == Mode.SampleTime) {
      double[] none = new double[wall.size()];
      java.util.Arrays.fill(none, Double.NaN);
      out.add(new Sample(threads, p.getBenchmark() + ":p50", params, side, unit, array(p50), none));
      out.add(new Sample(threads, p.getBenchmark() + ":p99", params, side, unit, array(p99), none));
    }
    return out;
  }

  private static double[] array(List<Double> x) {
    return x.stream().mapToDouble(Double::doubleValue).toArray();
  }

  static void ensureParent(Path out) throws java.io.IOException {
    if (out.getParent() != null) {
      Files.createDirectories(out.getParent());
    }
  }
}
