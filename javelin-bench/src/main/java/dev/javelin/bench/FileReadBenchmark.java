package dev.javelin.bench;

import dev.javelin.bench.Digest;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.ReadOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.util.Range;
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
 * Reads of one file by Javelin and by lance-core, in the same JVM: full scan, one-column scan, one
 * read of 1,000 random rows, and one random row (the floor: each side's fixed cost of a read call).
 * Both libraries read the very same file, written by Javelin or by lance-core ({@code writer}).
 * lance-core's file reader has no take: it gets the rows as one-row ranges of one {@code readAll}.
 * Random rows are drawn per operation from a seed both sides share. Javelin decodes with the thread
 * budget's parallelism ({@link ThreadBudget}).
 *
 * <p>The set-up runs the measured operation once on each side and compares row counts and a checksum
 * over every column's values; the trial fails if they differ.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx4g"})
public class FileReadBenchmark {
  static final long SEED = 42;
  static final int TAKE = 1000;

  @Param({"javelin", "lance"})
  public String impl;

  @Param({"2.0", "2.1"})
  public String version;

  /** Who wrote the file both libraries read. */
  @Param({"javelin", "lance"})
  public String writer;

  private BufferAllocator allocator;
  private Path file;
  private long numRows;
  private int threads;
  private Random random;

  @Setup(Level.Trial)
  public void setup(BenchmarkParams params) throws Exception {
    threads = ThreadBudget.threads();
    allocator = new RootAllocator();
    LanceFileVersion v = LanceFileVersion.parse(version);
    Path dir = BenchData.dir();
    file = writer.equals("javelin")
        ? BenchData.writeJavelin(allocator, dir.resolve("javelin-" + version + ".lance"), v, BenchData.rows())
        : BenchData.writeLance(allocator, dir.resolve("lance-" + version + ".lance"), version, BenchData.rows());
    numRows = BenchData.rows();
    String op = params.getBenchmark().replaceAll("^.*\\.", "");
    Random check = new Random(SEED);
    switch (op) {
      case "fullScan" -> EqualWork.check(op, javelinScan(null, null), lanceScan(null, null));
      case "scanOneColumn" -> EqualWork.check(op, javelinScan(List.of("id"), null), lanceScan(List.of("id"), null));
      case "take1000RandomRows" -> {
        long[] rows = takeRows(check);
        EqualWork.check(op, javelinTake(rows, null), lanceTake(rows, null));
      }
      case "floorOneRow" -> {
        long[] row = {check.nextInt((int) numRows)};
        EqualWork.check(op, javelinTake(row, null), lanceTake(row, null));
      }
      default -> throw new IllegalStateException("No equal-work check for " + op);
    }
    random = new Random(SEED);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    allocator.close();
  }

  @Benchmark
  public Object fullScan(Blackhole bh) throws Exception {
    return impl.equals("javelin") ? javelinScan(null, bh) : lanceScan(null, bh);
  }

  @Benchmark
  public Object scanOneColumn(Blackhole bh) throws Exception {
    return impl.equals("javelin") ? javelinScan(List.of("id"), bh) : lanceScan(List.of("id"), bh);
  }

  @Benchmark
  public Object take1000RandomRows(Blackhole bh) throws Exception {
    long[] rows = takeRows(random);
    return impl.equals("javelin") ? javelinTake(rows, bh) : lanceTake(rows, bh);
  }

  @Benchmark
  public Object floorOneRow(Blackhole bh) throws Exception {
    long[] row = {random.nextInt((int) numRows)};
    return impl.equals("javelin") ? javelinTake(row, bh) : lanceTake(row, bh);
  }

  // 1,000 distinct rows in ascending order.
  private long[] takeRows(Random r) {
    return r.longs(0, numRows).distinct().limit(Math.min(TAKE, numRows)).sorted().toArray();
  }

  // With a blackhole (timed) every buffer goes to it and the row count comes back; without (the
  // set-up's check) the digest of rows and values.
  private Object javelinScan(List<String> columns, Blackhole bh) throws Exception {
    try (LanceFileReader r = LanceFileReader.open(file, allocator)) {
      ArrowReader batches = r.read(ReadOptions.builder().columns(columns).batchSize(8192).parallelism(threads).build());
      return result(batches, bh);
    }
  }

  private Object lanceScan(List<String> columns, Blackhole bh) throws Exception {
    try (org.lance.file.LanceFileReader r = org.lance.file.LanceFileReader.open(file.toString(), allocator)) {
      return result(r.readAll(columns == null ? fieldNames() : columns, null, 8192), bh);
    }
  }

  private Object javelinTake(long[] rows, Blackhole bh) throws Exception {
    try (LanceFileReader r = LanceFileReader.open(file, allocator); VectorSchemaRoot root = r.take(rows, null)) {
      return bh == null ? Digest.of(root, true) : Consume.root(root, bh);
    }
  }

  private Object lanceTake(long[] rows, Blackhole bh) throws Exception {
    List<Range> ranges = new ArrayList<>(rows.length);
    for (long row : rows) {
      ranges.add(Range.of((int) row, (int) row + 1));
    }
    try (org.lance.file.LanceFileReader r = org.lance.file.LanceFileReader.open(file.toString(), allocator)) {
      return result(r.readAll(fieldNames(), ranges, 8192), bh);
    }
  }

  private static Object result(ArrowReader batches, Blackhole bh) throws Exception {
    if (bh == null) {
      return Digest.of(batches, true);
    }
    try (batches) {
      return Consume.reader(batches, bh);
    }
  }

  private static List<String> fieldNames() {
    List<String> out = new ArrayList<>();
    BenchData.schema().getFields().forEach(f -> out.add(f.getName()));
    return out;
  }
}
