package dev.javelin.bench;

import dev.javelin.bench.Digest;
import dev.javelin.core.Dataset;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.ReadOptions;
import org.lance.ipc.LanceScanner;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The first query in a fresh JVM, as a short-lived process or a new server sees it: each fork times
 * one invocation, with nothing run before it (no warm-up), from the library's first use: loading
 * it (lance-core's native library, Javelin's classes, both interpreted or JIT-cold), opening the
 * dataset, and the query. Rows: open and count, open and one BTree equality, open and a take of
 * 1,000 random rows, open and one IVF_PQ query (loading the index), on {@link IndexBenchmark}'s and
 * {@link VectorQueryBenchmark}'s data sets written by either side ({@code writer}). The page cache
 * is warm: this is a cold process, not a cold disk. The samples are forks, so run it with several.
 *
 * <p>Missing data sets are written by a child JVM first, so nothing warms this one. The equal-work
 * check runs after the timed invocation (in the tear-down, which would otherwise warm it): both
 * sides run the operation and compare rows and a checksum of every column (for the vector query the
 * number of neighbours; recall is {@link VectorQueryBenchmark}'s check), and the timed run's row
 * count must match.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
@Fork(value = 10, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx4g"})
public class ColdStartBenchmark {
  static final long SEED = 7;
  static final int TAKE = 1000;

  @Param({"javelin", "lance"})
  public String impl;

  /** Who wrote the data (and indices) both sides read. */
  @Param({"javelin", "lance"})
  public String writer;

  private BufferAllocator allocator;
  private Path index;
  private Path vectors;
  private String op;
  private long timedRows = -1;

  /** Writes the data sets of {@code args[0]} (the writer) when missing; run in a child JVM. */
  public static void main(String[] args) throws Exception {
    try (BufferAllocator allocator = new RootAllocator()) {
      IndexBenchmark.dataset(allocator, args[0], BenchData.rows());
      VectorQueryBenchmark.dataset(allocator, args[0], VectorIndexBenchmark.data(true));
    }
  }

  @Setup(Level.Trial)
  public void setup(BenchmarkParams params) throws Exception {
    ThreadBudget.threads();
    op = params.getBenchmark().replaceAll("^.*\\.", "");
    index = BenchData.dir().resolve("index-" + writer + "-" + BenchData.rows());
    vectors = BenchData.dir().resolve("vector-" + writer + "-" + VectorIndexBenchmark.ROWS + "x"
        + VectorIndexBenchmark.DIM + "-ivf" + VectorIndexBenchmark.PARTITIONS);
    if (!Files.exists(index) || !Files.exists(vectors)) {
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
      command.addAll(List.of("-cp", System.getProperty("java.class.path"), ColdStartBenchmark.class.getName(), writer));
      Process p = new ProcessBuilder(command).inheritIO().start();
      if (p.waitFor() != 0) {
        throw new IllegalStateException("Writing the cold-start data sets failed: " + command);
      }
    }
    allocator = new RootAllocator();
  }

  @TearDown(Level.Trial)
  public void check() throws Exception {
    Object javelin = run("javelin", null);
    Object lance = run("lance", null);
    Digest d = (Digest) EqualWork.check(op + " (data by " + writer + ")", javelin, lance);
    EqualWork.check(op + " (the timed run's rows)", timedRows, d.rows());
    allocator.close();
  }

  @Benchmark
  public long openAndCount(Blackhole bh) throws Exception {
    return timed(bh);
  }

  @Benchmark
  public long openAndFirstBTreeQuery(Blackhole bh) throws Exception {
    return timed(bh);
  }

  @Benchmark
  public long openAndFirstTake(Blackhole bh) throws Exception {
    return timed(bh);
  }

  @Benchmark
  public long openAndFirstVectorQuery(Blackhole bh) throws Exception {
    return timed(bh);
  }

  private long timed(Blackhole bh) throws Exception {
    timedRows = (long) run(impl, bh);
    return timedRows;
  }

  // The operation on one side: with a blackhole the row count (every buffer consumed), without a digest.
  private Object run(String side, Blackhole bh) throws Exception {
    Random random = new Random(SEED);
    long rows = BenchData.rows();
    switch (op) {
      case "openAndCount" -> {
        long n;
        if (side.equals("javelin")) {
          n = Dataset.open(index, allocator).countRows();
        } else {
          try (org.lance.Dataset l = lanceOpen(index)) {
            n = l.countRows();
          }
        }
        return bh == null ? new Digest(n, 0) : n;
      }
      case "openAndFirstBTreeQuery" -> {
        String filter = "v = " + IndexBenchmark.v((long) (random.nextDouble() * rows));
        if (side.equals("javelin")) {
          return result(Dataset.open(index, allocator).newScan().columns("id", "v").filter(filter).build(), bh);
        }
        try (org.lance.Dataset l = lanceOpen(index);
            LanceScanner s = l.newScan(ThreadBudget.lanceScan().columns(List.of("id", "v")).filter(filter)
                .useScalarIndex(true).build())) {
          return result(s.scanBatches(), bh);
        }
      }
      case "openAndFirstTake" -> {
        long[] offsets = random.longs(0, rows).distinct().limit(Math.min(TAKE, rows)).sorted().toArray();
        if (side.equals("javelin")) {
          try (VectorSchemaRoot root = Dataset.open(index, allocator).take(offsets, List.of("id", "v"))) {
            return bh == null ? Digest.of(root, true) : Consume.root(root, bh);
          }
        }
        try (org.lance.Dataset l = lanceOpen(index)) {
          return result(l.take(Arrays.stream(offsets).boxed().toList(), List.of("id", "v")), bh);
        }
      }
      case "openAndFirstVectorQuery" -> {
        int dim = VectorIndexBenchmark.DIM;
        float[] q = new float[dim];
        for (int j = 0; j < dim; j++) {
          q[j] = random.nextFloat() * 4;
        }
        long[] ids;
        if (side.equals("javelin")) {
          ids = VectorIndexBenchmark.javelinIds(Dataset.open(vectors, allocator), q, 5, 10);
        } else {
          try (org.lance.Dataset l = lanceOpen(vectors)) {
            ids = VectorIndexBenchmark.lanceIds(l, q, 5, 10).stream().mapToLong(Long::longValue).toArray();
          }
        }
        if (bh != null) {
          bh.consume(ids);
          return (long) ids.length;
        }
        // k rows on both sides; whether they are the right ones (recall) is VectorQueryBenchmark's check.
        return new Digest(ids.length, 0);
      }
      default -> throw new IllegalStateException("No cold-start operation " + op);
    }
  }

  // A fresh session: nothing cached from an earlier open.
  private org.lance.Dataset lanceOpen(Path path) {
    return org.lance.Dataset.open(allocator, path.toString(), new ReadOptions.Builder().build());
  }

  private static Object result(ArrowReader r, Blackhole bh) throws Exception {
    if (bh == null) {
      return Digest.of(r, true);
    }
    try (r) {
      return Consume.reader(r, bh);
    }
  }
}
