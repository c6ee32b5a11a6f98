package dev.javelin.bench;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.core.expr.BoundExpression;
import dev.javelin.core.expr.Expression;
import dev.javelin.format.LanceFileVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Dataset operations by Javelin and by lance-core in the same JVM, on the same rows
 * ({@link DatasetBenchData}: {@code rows()} rows of id, score, name; format 2.1; 262,144 rows per
 * fragment): create, full scan, filtered scan, take of 1,000 random rows by row address, delete of
 * 10% of the rows by filter, add a column computed from an expression, and open-and-count of a
 * dataset with 1,000 fragments and 100 versions.
 *
 * <p>Reads, takes, deletes and column additions all start from the same dataset, written once by
 * lance-core into the bench directory, so both libraries see identical bytes. Deletes and column
 * additions run on a fresh copy of it each invocation; copying and opening the copy happen in an
 * untimed per-invocation setup, on both sides alike.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
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

  @Param({"javelin", "lance"})
  public String impl;

  BufferAllocator allocator;
  List<VectorSchemaRoot> batches;
  Path source;
  Path manyFragments;
  long[] takeAddresses;
  List<Long> takeAddressList;
  Dataset javelin;
  org.lance.Dataset lance;

  @Setup(Level.Trial)
  public void setup() throws Exception {
    allocator = new RootAllocator();
    long rows = BenchData.rows();
    batches = DatasetBenchData.batches(allocator, 0, rows);
    Path dir = BenchData.dir();
    source = dir.resolve("dataset-" + rows);
    if (!Files.exists(source)) {
      Path tmp = dir.resolve("dataset-" + rows + ".tmp");
      DatasetBenchData.deleteTree(tmp);
      DatasetBenchData.lanceWrite(allocator, tmp, batches, org.lance.WriteParams.WriteMode.CREATE,
          DatasetBenchData.ROWS_PER_FILE);
      Files.move(tmp, source);
    }
    manyFragments = dir.resolve("dataset-" + MANY_FRAGMENTS + "-fragments-" + MANY_VERSIONS + "-versions");
    if (!Files.exists(manyFragments)) {
      writeManyFragments(dir.resolve(manyFragments.getFileName() + ".tmp"));
    }
    Random random = new Random(42);
    takeAddresses = random.longs(1000, 0, rows).sorted().distinct()
        .map(r -> (r / DatasetBenchData.ROWS_PER_FILE) << 32 | (r % DatasetBenchData.ROWS_PER_FILE)).toArray();
    takeAddressList = new ArrayList<>();
    for (long a : takeAddresses) {
      takeAddressList.add(a);
    }
    if (impl.equals("javelin")) {
      javelin = Dataset.open(source, allocator);
    } else {
      lance = org.lance.Dataset.open(source.toString(), allocator);
    }
    checkFilter();
  }

  // Both sides must select the same rows, or the timings compare different work.
  private void checkFilter() throws Exception {
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
    long got = scan(FILTER, null);
    if (got != want) {
      throw new IllegalStateException(impl + " selected " + got + " rows with " + FILTER + ", expected " + want);
    }
  }

  // 100 commits of 10 fragments of 100 rows each, by lance-core.
  private void writeManyFragments(Path tmp) throws Exception {
    DatasetBenchData.deleteTree(tmp);
    int perVersion = MANY_FRAGMENTS / MANY_VERSIONS;
    for (int v = 0; v < MANY_VERSIONS; v++) {
      List<VectorSchemaRoot> data = List.of(DatasetBenchData.batch(allocator, (long) v * perVersion * 100, perVersion * 100));
      try {
        DatasetBenchData.lanceWrite(allocator, tmp, data,
            v == 0 ? org.lance.WriteParams.WriteMode.CREATE : org.lance.WriteParams.WriteMode.APPEND, 100);
      } finally {
        data.forEach(VectorSchemaRoot::close);
      }
    }
    Files.move(tmp, manyFragments);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    if (lance != null) {
      lance.close();
    }
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
      DatasetBenchData.deleteTree(root);
    }
  }

  /** An empty place to create a dataset in. */
  public static class Empty extends Scratch {
    @Setup(Level.Invocation)
    public void setup(DatasetBenchmark b) throws Exception {
      make(b, false);
    }
  }

  /** A fresh copy of the source dataset, opened by the library under test. */
  public static class Copy extends Scratch {
    Dataset javelin;
    org.lance.Dataset lance;

    @Setup(Level.Invocation)
    public void setup(DatasetBenchmark b) throws Exception {
      make(b, true);
      if (b.impl.equals("javelin")) {
        javelin = Dataset.open(path, b.allocator);
      } else {
        lance = org.lance.Dataset.open(path.toString(), b.allocator);
      }
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
  @Measurement(iterations = 5)
  public long create(Empty e) throws Exception {
    if (impl.equals("javelin")) {
      return Dataset.create(e.path, batches, WriteParams.builder().fileVersion(LanceFileVersion.V2_1)
          .maxRowsPerFile(DatasetBenchData.ROWS_PER_FILE).build(), allocator).countRows();
    }
    DatasetBenchData.lanceWrite(allocator, e.path, batches, org.lance.WriteParams.WriteMode.CREATE,
        DatasetBenchData.ROWS_PER_FILE);
    return 0;
  }

  @Benchmark
  public long fullScan(Blackhole bh) throws Exception {
    return scan(null, bh);
  }

  @Benchmark
  public long filteredScan(Blackhole bh) throws Exception {
    return scan(FILTER, bh);
  }

  private long scan(String filter, Blackhole bh) throws Exception {
    if (impl.equals("javelin")) {
      try (ArrowReader r = javelin.newScan().filter(filter).batchSize(8192).build()) {
        return drain(r, bh);
      }
    }
    ScanOptions.Builder options = new ScanOptions.Builder().batchSize(8192);
    if (filter != null) {
      options.filter(filter);
    }
    try (LanceScanner s = lance.newScan(options.build()); ArrowReader r = s.scanBatches()) {
      return drain(r, bh);
    }
  }

  private static long drain(ArrowReader r, Blackhole bh) throws Exception {
    long rows = 0;
    while (r.loadNextBatch()) {
      VectorSchemaRoot root = r.getVectorSchemaRoot();
      rows += root.getRowCount();
      if (bh != null) {
        bh.consume(root.getVector(0).getValueCount());
      }
    }
    return rows;
  }

  @Benchmark
  public long take1000RowsByAddress(Blackhole bh) throws Exception {
    if (impl.equals("javelin")) {
      try (VectorSchemaRoot root = javelin.takeRows(takeAddresses, null)) {
        bh.consume(root.getVector(0).getValueCount());
        return root.getRowCount();
      }
    }
    try (ArrowReader r = lance.takeRows(takeAddressList, List.of("id", "score", "name"))) {
      return drain(r, bh);
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  // Single shots need many warm-up runs before the JIT has compiled the path (lance-core, native,
  // is at speed from its second run); with 2 the measurement was mostly interpreter time.
  @Warmup(iterations = 12)
  @Measurement(iterations = 8)
  public long delete10Percent(Copy c) throws Exception {
    if (impl.equals("javelin")) {
      return c.javelin.delete(DELETE_FILTER).version();
    }
    c.lance.delete(DELETE_FILTER);
    return c.lance.version();
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  // Single shots need many warm-up runs before the JIT has compiled the path (lance-core, native,
  // is at speed from its second run); with 2 the measurement was mostly interpreter time.
  @Warmup(iterations = 12)
  @Measurement(iterations = 8)
  public long addColumnFromExpression(Copy c) throws Exception {
    if (impl.equals("javelin")) {
      Field field = Field.nullable(NEW_COLUMN, new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
      BoundExpression value = Expression.parse(NEW_COLUMN_SQL).bindValue(c.javelin.schema());
      return c.javelin.addColumns(new Schema(List.of(field)), value.columns(),
          batch -> new VectorSchemaRoot(List.of(value.evaluate(batch, field, allocator)))).version();
    }
    c.lance.addColumns(new SqlExpressions.Builder().withExpression(NEW_COLUMN, NEW_COLUMN_SQL).build(),
        Optional.empty());
    return c.lance.version();
  }

  @Benchmark
  public long openManyFragmentsAndCount() throws Exception {
    if (impl.equals("javelin")) {
      return Dataset.open(manyFragments, allocator).countRows();
    }
    try (org.lance.Dataset ds = org.lance.Dataset.open(manyFragments.toString(), allocator)) {
      return ds.countRows();
    }
  }
}
