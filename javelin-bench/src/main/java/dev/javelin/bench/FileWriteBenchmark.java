package dev.javelin.bench;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.WriteOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
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

/**
 * Writes the benchmark data set (held in memory beforehand) to a new file, by Javelin and by
 * lance-core, with the same thread budget ({@link ThreadBudget}; Javelin's column-encoding threads
 * default to it). The set-up writes once with each side and reads both files back (with Javelin's
 * reader): rows and a checksum over every column must equal the input's, or the trial fails; the
 * two files' sizes go to the report's notes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 6)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx4g"})
public class FileWriteBenchmark {
  @Param({"javelin", "lance"})
  public String impl;

  @Param({"2.0", "2.1"})
  public String version;

  private BufferAllocator allocator;
  private final List<VectorSchemaRoot> batches = new ArrayList<>();
  private Path out;
  private int run;

  @Setup(Level.Trial)
  public void setup() throws Exception {
    allocator = new RootAllocator();
    long rows = BenchData.rows();
    for (long first = 0; first < rows; first += BenchData.BATCH) {
      VectorSchemaRoot root = VectorSchemaRoot.create(BenchData.schema(), allocator);
      BenchData.fill(root, first, (int) Math.min(BenchData.BATCH, rows - first));
      batches.add(root);
    }
    out = Files.createTempDirectory(BenchData.dir(), "write-");
    ThreadBudget.threads();
    Digest input = Digest.of(batches);
    String javelin = impl;
    try {
      impl = "javelin";
      Path j = out.resolve(write());
      impl = "lance";
      Path l = out.resolve(write());
      EqualWork.check("write " + version, readBack(j), readBack(l));
      EqualWork.check("write " + version + " (against the input)", readBack(j), input);
      Notes.add(String.format(java.util.Locale.ROOT, "file size, %,d rows, format %s: Javelin %.1f MB, lance-core"
          + " %.1f MB", BenchData.rows(), version, Files.size(j) / 1e6, Files.size(l) / 1e6));
      Files.delete(j);
      Files.delete(l);
    } finally {
      impl = javelin;
    }
  }

  private Digest readBack(Path file) throws Exception {
    try (dev.javelin.format.LanceFileReader r = dev.javelin.format.LanceFileReader.open(file, allocator)) {
      return Digest.of(r.read(dev.javelin.format.ReadOptions.builder().build()), true);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    batches.forEach(VectorSchemaRoot::close);
    allocator.close();
    try (var files = Files.list(out)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Files.delete(p);
      }
    }
    Files.delete(out);
  }

  @Benchmark
  public long writeFile() throws Exception {
    Path file = out.resolve(write());
    long size = Files.size(file);
    Files.delete(file);
    return size;
  }

  // Writes the batches to a new file; returns its name.
  private String write() throws Exception {
    Path file = out.resolve(impl + "-" + version + "-" + (run++) + ".lance");
    if (impl.equals("javelin")) {
      try (LanceFileWriter w = LanceFileWriter.create(file, BenchData.schema(),
          WriteOptions.builder().version(LanceFileVersion.parse(version)).build())) {
        for (VectorSchemaRoot b : batches) {
          w.write(b);
        }
      }
    } else {
      try (org.lance.file.LanceFileWriter w =
          org.lance.file.LanceFileWriter.open(file.toString(), allocator, null, Optional.of(version), Map.of())) {
        for (VectorSchemaRoot b : batches) {
          w.write(b);
        }
      }
    }
    return file.getFileName().toString();
  }
}
