package dev.javelin.bench;

import dev.javelin.bench.Digest;
import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.lance.ipc.ScanOptions;
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
 * A dataset of many small fragments with deletion files, as frequent small appends and deletes
 * leave one: {@code javelin.bench.fragments} (10,000) fragments of 10 rows ({@link DatasetBenchData}'s
 * columns), then {@value #DELETE} deleted, which gives every fragment a deletion file; written by
 * either side ({@code writer}). Open and count, full scan, filtered scan ({@value #FILTER}) and a
 * take of 1,000 random rows (logical offsets, which skip the deleted rows), with the same thread
 * budget, each side with one open dataset for the reads. The set-up runs the measured operation
 * once on each side and compares rows and a checksum over every column; the trial fails on a
 * mismatch.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx4g"})
public class ManyFragmentsBenchmark {
  static final int FRAGMENTS = Integer.getInteger("javelin.bench.fragments", 10_000);
  static final int ROWS_PER_FRAGMENT = 10;
  static final String DELETE = "id % 10 = 3";
  static final String FILTER = "score > 100";
  static final int TAKE = 1000;
  static final long SEED = 11;

  @Param({"javelin", "lance"})
  public String impl;

  /** Who wrote (and deleted from) the dataset both sides read. */
  @Param({"javelin", "lance"})
  public String writer;

  private BufferAllocator allocator;
  private Path path;
  private long live;
  private Random random;
  private Dataset javelin;
  private org.lance.Session lanceSession;
  private org.lance.Dataset lance;

  @Setup(Level.Trial)
  public void setup(BenchmarkParams params) throws Exception {
    ThreadBudget.threads();
    allocator = new RootAllocator();
    path = BenchData.dir().resolve("fragments-" + writer + "-" + FRAGMENTS + "x" + ROWS_PER_FRAGMENT + "-deleted");
    if (!Files.exists(path)) {
      Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
      DatasetBenchData.deleteTree(tmp);
      write(tmp);
      Files.move(tmp, path);
    }
    javelin = Dataset.open(path, allocator);
    lanceSession = org.lance.Session.create();
    lance = lanceOpen();
    live = javelin.countRows();
    String op = params.getBenchmark().replaceAll("^.*\\.", "");
    Object j = run(op, "javelin", new Random(SEED), null);
    Object l = run(op, "lance", new Random(SEED), null);
    EqualWork.check(op + " (data by " + writer + ")", j, l);
    random = new Random(SEED);
  }

  private void write(Path tmp) throws Exception {
    List<VectorSchemaRoot> batches = DatasetBenchData.batches(allocator, 0, (long) FRAGMENTS * ROWS_PER_FRAGMENT);
    try {
      if (writer.equals("javelin")) {
        Dataset.create(tmp, batches, WriteParams.builder().fileVersion(LanceFileVersion.V2_1)
            .maxRowsPerFile(ROWS_PER_FRAGMENT).build(), allocator).delete(DELETE);
      } else {
        DatasetBenchData.lanceWrite(allocator, tmp, batches, org.lance.WriteParams.WriteMode.CREATE, ROWS_PER_FRAGMENT);
        try (org.lance.Dataset l = org.lance.Dataset.open(tmp.toString(), allocator)) {
          l.delete(DELETE);
        }
      }
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  private org.lance.Dataset lanceOpen() {
    return org.lance.Dataset.open(allocator, path.toString(), new ReadOptions.Builder().setSession(lanceSession).build());
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    lance.close();
    lanceSession.close();
    allocator.close();
  }

  @Benchmark
  public Object openAndCount(Blackhole bh) throws Exception {
    return run("openAndCount", impl, random, bh);
  }

  @Benchmark
  public Object fullScan(Blackhole bh) throws Exception {
    return run("fullScan", impl, random, bh);
  }

  @Benchmark
  public Object filteredScan(Blackhole bh) throws Exception {
    return run("filteredScan", impl, random, bh);
  }

  @Benchmark
  public Object take1000Rows(Blackhole bh) throws Exception {
    return run("take1000Rows", impl, random, bh);
  }

  // One operation by one side: with a blackhole every buffer goes to it; without, the digest (for
  // open and count: fragments and rows).
  private Object run(String op, String side, Random r, Blackhole bh) throws Exception {
    boolean j = side.equals("javelin");
    switch (op) {
      case "openAndCount" -> {
        if (j) {
          Dataset ds = Dataset.open(path, allocator);
          return List.of((long) ds.manifest().fragments().size(), ds.countRows());
        }
        try (org.lance.Dataset ds = lanceOpen()) {
          return List.of((long) ds.getFragments().size(), ds.countRows());
        }
      }
      case "fullScan", "filteredScan" -> {
        String filter = op.equals("filteredScan") ? FILTER : null;
        if (j) {
          return result(javelin.newScan().filter(filter).batchSize(8192).build(), bh);
        }
        ScanOptions.Builder options = ThreadBudget.lanceScan().batchSize(8192);
        if (filter != null) {
          options.filter(filter);
        }
        try (LanceScanner s = lance.newScan(options.build())) {
          return result(s.scanBatches(), bh);
        }
      }
      case "take1000Rows" -> {
        long[] offsets = r.longs(0, live).distinct().limit(Math.min(TAKE, live)).sorted().toArray();
        if (j) {
          try (VectorSchemaRoot root = javelin.take(offsets, List.of("id", "score", "name"))) {
            return bh == null ? Digest.of(root, true) : Consume.root(root, bh);
          }
        }
        return result(lance.take(Arrays.stream(offsets).boxed().toList(), List.of("id", "score", "name")), bh);
      }
      default -> throw new IllegalStateException("No operation " + op);
    }
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
