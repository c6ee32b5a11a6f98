package dev.javelin.bench;

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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Reads of one file by Javelin and by lance-core, in the same JVM: full scan, one-column scan,
 * 1,000 single-row takes, one take of 1,000 rows. Both libraries read the very same file, written
 * by Javelin or by lance-core ({@code writer}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx4g"})
public class FileReadBenchmark {
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
  private long[] takeRows;
  private long[] singleRows;

  @Setup(Level.Trial)
  public void setup() throws Exception {
    allocator = new RootAllocator();
    LanceFileVersion v = LanceFileVersion.parse(version);
    Path dir = BenchData.dir();
    file = writer.equals("javelin")
        ? BenchData.writeJavelin(allocator, dir.resolve("javelin-" + version + ".lance"), v, BenchData.rows())
        : BenchData.writeLance(allocator, dir.resolve("lance-" + version + ".lance"), version, BenchData.rows());
    numRows = BenchData.rows();
    Random random = new Random(42);
    takeRows = random.longs(1000, 0, numRows).sorted().distinct().toArray();
    singleRows = random.longs(1000, 0, numRows).toArray();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    allocator.close();
  }

  @Benchmark
  public long fullScan(Blackhole bh) throws Exception {
    return scan(null, bh);
  }

  @Benchmark
  public long scanOneColumn(Blackhole bh) throws Exception {
    return scan(List.of("id"), bh);
  }

  private long scan(List<String> columns, Blackhole bh) throws Exception {
    long rows = 0;
    if (impl.equals("javelin")) {
      try (LanceFileReader r = LanceFileReader.open(file, allocator);
          ArrowReader batches = r.read(ReadOptions.builder().columns(columns).batchSize(8192).build())) {
        while (batches.loadNextBatch()) {
          VectorSchemaRoot root = batches.getVectorSchemaRoot();
          rows += root.getRowCount();
          bh.consume(root.getVector(0).getValueCount());
        }
      }
    } else {
      try (org.lance.file.LanceFileReader r = org.lance.file.LanceFileReader.open(file.toString(), allocator);
          ArrowReader batches = r.readAll(columns == null ? fieldNames() : columns, null, 8192)) {
        while (batches.loadNextBatch()) {
          VectorSchemaRoot root = batches.getVectorSchemaRoot();
          rows += root.getRowCount();
          bh.consume(root.getVector(0).getValueCount());
        }
      }
    }
    return rows;
  }

  private static List<String> fieldNames() {
    List<String> out = new ArrayList<>();
    BenchData.schema().getFields().forEach(f -> out.add(f.getName()));
    return out;
  }

  @Benchmark
  public long takeOneBatchOf1000(Blackhole bh) throws Exception {
    if (impl.equals("javelin")) {
      try (LanceFileReader r = LanceFileReader.open(file, allocator);
          VectorSchemaRoot root = r.take(takeRows, null)) {
        bh.consume(root.getVector(0).getObject(0));
        return root.getRowCount();
      }
    }
    List<Range> ranges = new ArrayList<>();
    for (long row : takeRows) {
      ranges.add(Range.of((int) row, (int) row + 1));
    }
    return lanceRead(ranges, bh);
  }

  @Benchmark
  public long take1000SingleRows(Blackhole bh) throws Exception {
    long rows = 0;
    if (impl.equals("javelin")) {
      try (LanceFileReader r = LanceFileReader.open(file, allocator)) {
        long[] one = new long[1];
        for (long row : singleRows) {
          one[0] = row;
          try (VectorSchemaRoot root = r.take(one, null)) {
            bh.consume(root.getVector(0).getObject(0));
            rows += root.getRowCount();
          }
        }
      }
      return rows;
    }
    try (org.lance.file.LanceFileReader r = org.lance.file.LanceFileReader.open(file.toString(), allocator)) {
      for (long row : singleRows) {
        try (ArrowReader batches = r.readAll(fieldNames(), List.of(Range.of((int) row, (int) row + 1)), 8192)) {
          while (batches.loadNextBatch()) {
            VectorSchemaRoot root = batches.getVectorSchemaRoot();
            bh.consume(root.getVector(0).getObject(0));
            rows += root.getRowCount();
          }
        }
      }
    }
    return rows;
  }

  private long lanceRead(List<Range> ranges, Blackhole bh) throws Exception {
    long rows = 0;
    try (org.lance.file.LanceFileReader r = org.lance.file.LanceFileReader.open(file.toString(), allocator);
        ArrowReader batches = r.readAll(fieldNames(), ranges, 8192)) {
      while (batches.loadNextBatch()) {
        VectorSchemaRoot root = batches.getVectorSchemaRoot();
        bh.consume(root.getVector(0).getObject(0));
        rows += root.getRowCount();
      }
    }
    return rows;
  }
}
