package dev.javelin.bench;

import dev.javelin.bench.Digest;
import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.ReadOptions;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;
import org.lance.schema.SqlExpressions;
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
 * Dataset operations by Javelin and by lance-core in the same JVM, with the same thread budget
 * ({@link ThreadBudget}), on the same rows ({@link DatasetBenchData}: {@code rows()} rows of id,
 * score, name; format 2.1; 262,144 rows per fragment), written by either side ({@code writer}: both
 * read what each wrote): create, full scan, filtered scan, take of 1,000 random rows by row address,
 * take of one random row (the floor: each side's fixed cost of a call), delete of 10% of the rows by
 * filter, add a column computed from an SQL expression, and open-and-count of a dataset of 1,000
 * fragments in 100 versions (which reads the manifest only, on both sides).
 *
 * <p>The set-up runs the measured operation once on each side and compares what comes back: rows and
 * a checksum over every column (for create, delete and add column: of the dataset each side leaves,
 * read by that side); the trial fails on a mismatch. Deletes and column additions run on a fresh
 * copy of the dataset each invocation; copying and opening the copy happen in an untimed
 * per-invocation set-up (its CPU time left out too). Both sides keep one open dataset (and so their
 * caches) for reads; lance-core's opens share one {@link org.lance.Session}, as Javelin's share its
 * default session. Random rows are drawn per operation from a seed both sides share.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx4g"})
public class DatasetBenchmark {
  /** Selects about 0.3% of the rows: a float comparison and a string prefix. */
  static final String FILTER = "score > 150 AND name LIKE 'user-1%'";
  /** Selects exactly 10% of the rows. */
  static final String DELETE_FILTER = "id % 10 = 3";
  static final String NEW_COLUMN = "doubled";
  static final String NEW_COLUMN_SQL = "score * 2";
  static final int MANY_FRAGMENTS = 1000;
  static final int MANY_VERSIONS = 100;
  static final int TAKE = 1000;
  static final long SEED = 42;

  @Param({"javelin", "lance"})
  public String impl;

  /** Who wrote the dataset both sides read. */
  @Param({"javelin", "lance"})
  public String writer;

  BufferAllocator allocator;
  List<VectorSchemaRoot> batches;
  Path source;
  Path manyFragments;
  long rows;
  Random random;
  Dataset javelin;
  org.lance.Dataset lance;
  org.lance.Session lanceSession;

  @Setup(Level.Trial)
  public void setup(BenchmarkParams params) throws Exception {
    ThreadBudget.threads();
    allocator = new RootAllocator();
    rows = BenchData.rows();
    batches = DatasetBenchData.batches(allocator, 0, rows);
    Path dir = BenchData.dir();
    source = dir.resolve("dataset-" + writer + "-" + rows);
    if (!Files.exists(source)) {
      Path tmp = dir.resolve(source.getFileName() + ".tmp");
      DatasetBenchData.deleteTree(tmp);
      write(writer, tmp, batches, DatasetBenchData.ROWS_PER_FILE, true);
      Files.move(tmp, source);
    }
    manyFragments = dir.resolve("dataset-" + writer + "-" + MANY_FRAGMENTS + "-fragments-" + MANY_VERSIONS
        + "-versions");
    if (!Files.exists(manyFragments)) {
      writeManyFragments(dir.resolve(manyFragments.getFileName() + ".tmp"));
    }
    lanceSession = org.lance.Session.create();
    javelin = Dataset.open(source, allocator);
    lance = lanceOpen(source);
    check(params.getBenchmark().replaceAll("^.*\\.", ""));
    random = new Random(SEED);
  }

  // Both sides once, compared: what the timings compare must be the same work.
  private void check(String op) throws Exception {
    Random r = new Random(SEED);
    switch (op) {
      case "fullScan" -> EqualWork.check(op, javelinScan(null, null), lanceScan(null, null));
      case "filteredScan" -> {
        Digest j = (Digest) EqualWork.check(op, javelinScan(FILTER, null), lanceScan(FILTER, null));
        EqualWork.check(op + " (rows against a reference evaluation)", j.rows(), filteredRows());
      }
      case "take1000RowsByAddress" -> {
        long[] a = addresses(r, TAKE);
        EqualWork.check(op, javelinTake(a, null), lanceTake(a, null));
      }
      case "floorTakeOneRow" -> {
        long[] a = addresses(r, 1);
        EqualWork.check(op, javelinTake(a, null), lanceTake(a, null));
      }
      case "create" -> {
        Path j = Files.createTempDirectory(BenchData.dir(), "check-");
        Path l = Files.createTempDirectory(BenchData.dir(), "check-");
        try {
          write("javelin", j.resolve("ds"), batches, DatasetBenchData.ROWS_PER_FILE, true);
          write("lance", l.resolve("ds"), batches, DatasetBenchData.ROWS_PER_FILE, true);
          EqualWork.check(op, outcome("javelin", j.resolve("ds")), outcome("lance", l.resolve("ds")));
          EqualWork.check(op + " (against the input)", outcome("javelin", j.resolve("ds")), digestOfInput());
        } finally {
          DatasetBenchData.deleteTree(j);
          DatasetBenchData.deleteTree(l);
        }
      }
      case "delete10Percent", "addColumnFromExpression" -> {
        Copy j = new Copy();
        Copy l = new Copy();
        try {
          j.make(this, true);
          l.make(this, true);
          j.javelin = Dataset.open(j.path, allocator);
          l.lance = lanceOpen(l.path);
          if (op.equals("delete10Percent")) {
            javelinDelete(j);
            lanceDelete(l);
          } else {
            javelinAddColumn(j);
            lanceAddColumn(l);
          }
          l.lance.close();
          EqualWork.check(op, outcome("javelin", j.path), outcome("lance", l.path));
        } finally {
          j.remove();
          l.remove();
        }
      }
      case "openManyFragmentsAndCount" -> EqualWork.check(op, javelinOpenAndCount(), lanceOpenAndCount());
      default -> throw new IllegalStateException("No equal-work check for " + op);
    }
  }

  // What a dataset holds, read by the side that wrote it: fragments, then rows and checksum.
  private List<Object> outcome(String side, Path path) throws Exception {
    if (side.equals("javelin")) {
      Dataset ds = Dataset.open(path, allocator);
      return List.of(ds.manifest().fragments().size(), Digest.of(ds.newScan().build(), true));
    }
    try (org.lance.Dataset ds = lanceOpen(path)) {
      return List.of(ds.getFragments().size(), lanceDigest(ds, ThreadBudget.lanceScan().build()));
    }
  }

  private List<Object> digestOfInput() {
    return List.of((int) ((rows + DatasetBenchData.ROWS_PER_FILE - 1) / DatasetBenchData.ROWS_PER_FILE),
        Digest.of(batches));
  }

  private long filteredRows() {
    long want = 0;
    for (VectorSchemaRoot b : batches) {
      Float8Vector score = (Float8Vector) b.getVector("score");
      VarCharVector name = (VarCharVector) b.getVector("name");
      for (int i = 0; i < b.getRowCount(); i++) {
        if (score.get(i) > 150 && new String(name.get(i), StandardCharsets.UTF_8).startsWith("user-1")) {
          want++;
        }
      }
    }
    return want;
  }

  /** {@code count} distinct random row addresses (fragment id << 32 | offset), ascending. */
  long[] addresses(Random r, int count) {
    return r.longs(0, rows).distinct().limit(Math.min(count, rows)).sorted()
        .map(x -> (x / DatasetBenchData.ROWS_PER_FILE) << 32 | (x % DatasetBenchData.ROWS_PER_FILE)).toArray();
  }

  private void write(String side, Path path, List<VectorSchemaRoot> data, int rowsPerFile, boolean create)
      throws Exception {
    if (side.equals("javelin")) {
      WriteParams params = WriteParams.builder().fileVersion(LanceFileVersion.V2_1).maxRowsPerFile(rowsPerFile).build();
      if (create) {
        Dataset.create(path, data, params, allocator);
      } else {
        Dataset.open(path, allocator).append(data, params);
      }
    } else {
      DatasetBenchData.lanceWrite(allocator, path, data,
          create ? org.lance.WriteParams.WriteMode.CREATE : org.lance.WriteParams.WriteMode.APPEND, rowsPerFile);
    }
  }

  // 100 commits of 10 fragments of 100 rows each, by the writer.
  private void writeManyFragments(Path tmp) throws Exception {
    DatasetBenchData.deleteTree(tmp);
    int perVersion = MANY_FRAGMENTS / MANY_VERSIONS;
    for (int v = 0; v < MANY_VERSIONS; v++) {
      List<VectorSchemaRoot> data = List.of(DatasetBenchData.batch(allocator, (long) v * perVersion * 100, perVersion * 100));
      try {
        write(writer, tmp, data, 100, v == 0);
      } finally {
        data.forEach(VectorSchemaRoot::close);
      }
    }
    Files.move(tmp, manyFragments);
  }

  private org.lance.Dataset lanceOpen(Path path) {
    return org.lance.Dataset.open(allocator, path.toString(), new ReadOptions.Builder().setSession(lanceSession).build());
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    lance.close();
    lanceSession.close();
    batches.forEach(VectorSchemaRoot::close);
    allocator.close();
  }

  /** A directory for one invocation, holding nothing ({@code create}) or a copy of the source dataset. */
  @State(Scope.Thread)
  public static class Scratch {
    Path root;
    Path path;

    void make(DatasetBenchmark b, boolean copy) throws Exception {
      root = Files.createTempDirectory(BenchData.dir(), "scratch-");
      path = root.resolve("ds");
      if (copy) {
        DatasetBenchData.copyTree(b.source, path);
      }
    }

    @TearDown(Level.Invocation)
    public void remove() throws Exception {
      CpuTimeProfiler.untimed(() -> {
        DatasetBenchData.deleteTree(root);
        return null;
      });
    }
  }

  /** An empty place to create a dataset in. */
  public static class Empty extends Scratch {
    @Setup(Level.Invocation)
    public void setup(DatasetBenchmark b) throws Exception {
      CpuTimeProfiler.untimed(() -> {
        make(b, false);
        return null;
      });
    }
  }

  /** A fresh copy of the source dataset, opened by the side under test. */
  public static class Copy extends Scratch {
    Dataset javelin;
    org.lance.Dataset lance;

    @Setup(Level.Invocation)
    public void setup(DatasetBenchmark b) throws Exception {
      CpuTimeProfiler.untimed(() -> {
        make(b, true);
        if (b.impl.equals("javelin")) {
          javelin = Dataset.open(path, b.allocator);
        } else {
          lance = b.lanceOpen(path);
        }
        return null;
      });
    }

    @TearDown(Level.Invocation)
    public void closeDataset() {
      if (lance != null) {
        lance.close();
        lance = null;
      }
      javelin = null;
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @Warmup(iterations = 5)
  @Measurement(iterations = 8)
  public void create(Empty e) throws Exception {
    write(impl, e.path, batches, DatasetBenchData.ROWS_PER_FILE, true);
  }

  @Benchmark
  public long fullScan(Blackhole bh) throws Exception {
    return impl.equals("javelin") ? (long) javelinScan(null, bh) : (long) lanceScan(null, bh);
  }

  @Benchmark
  public long filteredScan(Blackhole bh) throws Exception {
    return impl.equals("javelin") ? (long) javelinScan(FILTER, bh) : (long) lanceScan(FILTER, bh);
  }

  @Benchmark
  public long take1000RowsByAddress(Blackhole bh) throws Exception {
    long[] a = addresses(random, TAKE);
    return impl.equals("javelin") ? (long) javelinTake(a, bh) : (long) lanceTake(a, bh);
  }

  @Benchmark
  public long floorTakeOneRow(Blackhole bh) throws Exception {
    long[] a = addresses(random, 1);
    return impl.equals("javelin") ? (long) javelinTake(a, bh) : (long) lanceTake(a, bh);
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  // Single shots need many warm-up runs before the JIT has compiled the path (lance-core, native,
  // is at speed from its second run); with 2 the measurement was mostly interpreter time.
  @Warmup(iterations = 12)
  @Measurement(iterations = 8)
  public long delete10Percent(Copy c) throws Exception {
    return impl.equals("javelin") ? javelinDelete(c) : lanceDelete(c);
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @Warmup(iterations = 12)
  @Measurement(iterations = 8)
  public long addColumnFromExpression(Copy c) throws Exception {
    return impl.equals("javelin") ? javelinAddColumn(c) : lanceAddColumn(c);
  }

  @Benchmark
  public Object openManyFragmentsAndCount() throws Exception {
    return impl.equals("javelin") ? javelinOpenAndCount() : lanceOpenAndCount();
  }

  // ---- each side's calls: with a blackhole (timed) every buffer goes to it and the row count comes
  // back; without (the set-up's check) the digest of rows and values.

  private Object javelinScan(String filter, Blackhole bh) throws Exception {
    ArrowReader r = javelin.newScan().filter(filter).batchSize(8192).build();
    if (bh == null) {
      return Digest.of(r, true);
    }
    try (r) {
      return Consume.reader(r, bh);
    }
  }

  private Object lanceScan(String filter, Blackhole bh) throws Exception {
    ScanOptions.Builder options = ThreadBudget.lanceScan().batchSize(8192);
    if (filter != null) {
      options.filter(filter);
    }
    if (bh == null) {
      return lanceDigest(lance, options.build());
    }
    try (LanceScanner s = lance.newScan(options.build()); ArrowReader r = s.scanBatches()) {
      return Consume.reader(r, bh);
    }
  }

  private static Digest lanceDigest(org.lance.Dataset ds, ScanOptions options) throws Exception {
    try (LanceScanner s = ds.newScan(options)) {
      return Digest.of(s.scanBatches(), true);
    }
  }

  private Object javelinTake(long[] addresses, Blackhole bh) {
    try (VectorSchemaRoot root = javelin.takeRows(addresses, null)) {
      return bh == null ? Digest.of(root, true) : Consume.root(root, bh);
    }
  }

  private Object lanceTake(long[] addresses, Blackhole bh) throws Exception {
    ArrowReader r = lance.takeRows(Arrays.stream(addresses).boxed().toList(), List.of("id", "score", "name"));
    if (bh == null) {
      return Digest.of(r, true);
    }
    try (r) {
      return Consume.reader(r, bh);
    }
  }

  private static long javelinDelete(Copy c) {
    return c.javelin.delete(DELETE_FILTER).version();
  }

  private static long lanceDelete(Copy c) {
    c.lance.delete(DELETE_FILTER);
    return c.lance.version();
  }

  private static long javelinAddColumn(Copy c) {
    return c.javelin.addColumns(Map.of(NEW_COLUMN, NEW_COLUMN_SQL)).version();
  }

  private static long lanceAddColumn(Copy c) {
    c.lance.addColumns(new SqlExpressions.Builder().withExpression(NEW_COLUMN, NEW_COLUMN_SQL).build(),
        Optional.empty());
    return c.lance.version();
  }

  private List<Long> javelinOpenAndCount() {
    Dataset ds = Dataset.open(manyFragments, allocator);
    return List.of((long) ds.manifest().fragments().size(), ds.countRows());
  }

  private List<Long> lanceOpenAndCount() {
    try (org.lance.Dataset ds = lanceOpen(manyFragments)) {
      return List.of((long) ds.getFragments().size(), ds.countRows());
    }
  }
}
