package dev.javelin.bench;

import dev.javelin.bench.Digest;
import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
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
 * Scans of compressible tabular data, beside {@link DatasetBenchmark}'s random floats: {@code rows()}
 * rows of a sorted int64 {@code id}, a microsecond timestamp rising about a second a row, a
 * low-cardinality string {@code category} (16 values), a 4-value {@code status} and a small int32
 * {@code quantity} (0-99); format 2.1, 262,144 rows per fragment, written by either side ({@code
 * writer}). Full scan and a filtered scan ({@value #FILTER}, about 3% of the rows), same thread
 * budget, each side with one open dataset. The set-up runs the measured scan once on each side and
 * compares rows and a checksum over every column (and the filtered rows against a count from the
 * input); the trial fails on a mismatch.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx4g"})
public class TabularScanBenchmark {
  static final String FILTER = "category = 'category-03' AND quantity >= 50";
  static final String[] STATUSES = {"open", "paid", "shipped", "returned"};
  static final long START_MICROS = 1_767_225_600_000_000L; // 2026-01-01T00:00:00Z
  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      new Field("ts", FieldType.nullable(new ArrowType.Timestamp(org.apache.arrow.vector.types.TimeUnit.MICROSECOND,
          null)), null),
      new Field("category", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
      new Field("status", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
      new Field("quantity", FieldType.nullable(new ArrowType.Int(32, true)), null)));

  @Param({"javelin", "lance"})
  public String impl;

  /** Who wrote the dataset both sides read. */
  @Param({"javelin", "lance"})
  public String writer;

  private BufferAllocator allocator;
  private Dataset javelin;
  private org.lance.Session lanceSession;
  private org.lance.Dataset lance;

  @Setup(Level.Trial)
  public void setup(BenchmarkParams params) throws Exception {
    ThreadBudget.threads();
    allocator = new RootAllocator();
    long rows = BenchData.rows();
    Path path = BenchData.dir().resolve("tabular-" + writer + "-" + rows);
    long wantFiltered = 0;
    List<VectorSchemaRoot> batches = batches(allocator, rows);
    try {
      for (VectorSchemaRoot b : batches) {
        VarCharVector category = (VarCharVector) b.getVector("category");
        IntVector quantity = (IntVector) b.getVector("quantity");
        for (int i = 0; i < b.getRowCount(); i++) {
          boolean match = new String(category.get(i), StandardCharsets.UTF_8).equals("category-03")
              && quantity.get(i) >= 50;
          wantFiltered += match ? 1 : 0;
        }
      }
      if (!Files.exists(path)) {
        Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        DatasetBenchData.deleteTree(tmp);
        write(tmp, batches);
        Files.move(tmp, path);
      }
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
    javelin = Dataset.open(path, allocator);
    lanceSession = org.lance.Session.create();
    lance = org.lance.Dataset.open(allocator, path.toString(), new ReadOptions.Builder().setSession(lanceSession).build());
    String op = params.getBenchmark().replaceAll("^.*\\.", "");
    String filter = op.equals("filteredScan") ? FILTER : null;
    Digest j = (Digest) EqualWork.check(op, javelinScan(filter, null), lanceScan(filter, null));
    EqualWork.check(op + " (rows against the input)", j.rows(), filter == null ? rows : wantFiltered);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    lance.close();
    lanceSession.close();
    allocator.close();
  }

  @Benchmark
  public Object fullScan(Blackhole bh) throws Exception {
    return impl.equals("javelin") ? javelinScan(null, bh) : lanceScan(null, bh);
  }

  @Benchmark
  public Object filteredScan(Blackhole bh) throws Exception {
    return impl.equals("javelin") ? javelinScan(FILTER, bh) : lanceScan(FILTER, bh);
  }

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
    try (LanceScanner s = lance.newScan(options.build())) {
      ArrowReader r = s.scanBatches();
      if (bh == null) {
        return Digest.of(r, true);
      }
      try (r) {
        return Consume.reader(r, bh);
      }
    }
  }

  private void write(Path path, List<VectorSchemaRoot> batches) throws Exception {
    if (writer.equals("javelin")) {
      Dataset.create(path, batches, WriteParams.builder().fileVersion(LanceFileVersion.V2_1)
          .maxRowsPerFile(DatasetBenchData.ROWS_PER_FILE).build(), allocator);
    } else {
      try (ArrowReader reader = DatasetBenchData.readerOf(allocator, SCHEMA, batches)) {
        org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString())
            .mode(org.lance.WriteParams.WriteMode.CREATE).maxRowsPerFile(DatasetBenchData.ROWS_PER_FILE)
            .dataStorageVersion("2.1").execute().close();
      }
    }
  }

  /** The rows, deterministic, in batches of {@link BenchData#BATCH}. */
  static List<VectorSchemaRoot> batches(BufferAllocator allocator, long rows) {
    List<VectorSchemaRoot> out = new ArrayList<>();
    Random random = new Random(5);
    byte[][] categories = new byte[16][];
    for (int c = 0; c < categories.length; c++) {
      categories[c] = String.format("category-%02d", c).getBytes(StandardCharsets.UTF_8);
    }
    long micros = START_MICROS;
    for (long first = 0; first < rows; first += BenchData.BATCH) {
      int n = (int) Math.min(BenchData.BATCH, rows - first);
      VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
      root.allocateNew();
      BigIntVector id = (BigIntVector) root.getVector("id");
      TimeStampMicroVector ts = (TimeStampMicroVector) root.getVector("ts");
      VarCharVector category = (VarCharVector) root.getVector("category");
      VarCharVector status = (VarCharVector) root.getVector("status");
      IntVector quantity = (IntVector) root.getVector("quantity");
      for (int i = 0; i < n; i++) {
        id.setSafe(i, first + i);
        micros += 500_000 + random.nextInt(1_000_000);
        ts.setSafe(i, micros);
        // Skewed: the first categories are the common ones, as in real data.
        category.setSafe(i, categories[Math.min(15, (int) Math.abs(random.nextGaussian() * 5))]);
        status.setSafe(i, STATUSES[random.nextInt(10) < 7 ? 1 : random.nextInt(STATUSES.length)]
            .getBytes(StandardCharsets.UTF_8));
        quantity.setSafe(i, random.nextInt(100));
      }
      root.setRowCount(n);
      out.add(root);
    }
    return out;
  }
}
