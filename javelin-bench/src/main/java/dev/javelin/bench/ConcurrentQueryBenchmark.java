package dev.javelin.bench;

import dev.javelin.bench.Digest;
import dev.javelin.core.Dataset;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.lance.ReadOptions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Concurrent BTree equality queries on one open dataset from 1, 4 and 16 threads at once (a server
 * answering many users), Javelin against lance-core with the same compute budget: latency per query
 * sampled (JMH's sample mode), so the report gives the mean and, per iteration, the median and 99th
 * percentile ({@code :p50}, {@code :p99} rows). {@link IndexBenchmark}'s data set, written by either
 * side ({@code writer}); each thread draws its keys from its own seed, the same on both sides. The
 * set-up compares 20 queries' rows and checksums on both sides and fails on a difference.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx4g"})
public class ConcurrentQueryBenchmark {
  static final long SEED = 1234;

  @Param({"javelin", "lance"})
  public String impl;

  /** Who wrote the data and the index both sides query. */
  @Param({"javelin", "lance"})
  public String writer;

  BufferAllocator allocator;
  long rows;
  Dataset javelin;
  org.lance.Session lanceSession;
  org.lance.Dataset lance;

  @Setup(Level.Trial)
  public void setup() throws Exception {
    ThreadBudget.threads();
    allocator = new RootAllocator();
    rows = BenchData.rows();
    Path dir = IndexBenchmark.dataset(allocator, writer, rows);
    javelin = Dataset.open(dir, allocator);
    lanceSession = org.lance.Session.create();
    lance = org.lance.Dataset.open(allocator, dir.toString(), new ReadOptions.Builder().setSession(lanceSession).build());
    Random check = new Random(SEED);
    for (int i = 0; i < 20; i++) {
      String filter = IndexBenchmark.filter("btreeEquality", check, rows);
      Digest j = (Digest) EqualWork.check("concurrent " + filter, IndexBenchmark.javelinQuery(javelin, filter, null),
          IndexBenchmark.lanceQuery(lance, filter, null));
      EqualWork.check("concurrent " + filter + " (rows expected)", j.rows(), 1L);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    lance.close();
    lanceSession.close();
    allocator.close();
  }

  /** Each thread's keys: a seed per thread index, the same for both sides. */
  @State(Scope.Thread)
  public static class Keys {
    Random random;

    @Setup(Level.Trial)
    public void setup(ThreadParams thread) {
      random = new Random(SEED + 1 + thread.getThreadIndex());
    }
  }

  @Benchmark
  @Threads(1)
  public Object btreeEquality1Thread(Keys keys, Blackhole bh) throws Exception {
    return query(keys, bh);
  }

  @Benchmark
  @Threads(4)
  public Object btreeEquality4Threads(Keys keys, Blackhole bh) throws Exception {
    return query(keys, bh);
  }

  @Benchmark
  @Threads(16)
  public Object btreeEquality16Threads(Keys keys, Blackhole bh) throws Exception {
    return query(keys, bh);
  }

  private Object query(Keys keys, Blackhole bh) throws Exception {
    String filter = IndexBenchmark.filter("btreeEquality", keys.random, rows);
    return impl.equals("javelin") ? IndexBenchmark.javelinQuery(javelin, filter, bh)
        : IndexBenchmark.lanceQuery(lance, filter, bh);
  }
}
