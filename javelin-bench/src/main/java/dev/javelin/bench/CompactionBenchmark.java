package dev.javelin.bench;

import dev.javelin.bench.Digest;
import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.core.compaction.CompactionMode;
import dev.javelin.core.compaction.CompactionOptions;
import dev.javelin.core.compaction.CompactionScope;
import dev.javelin.format.LanceFileVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.lance.ipc.LanceScanner;
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

/**
 * Compaction of 4 fragments into one, Javelin against lance-core doing the same operation, on
 * {@code rows()} rows of id, score, name ({@link DatasetBenchData}) and {@value #BACKFILLS} int64
 * columns, written by either side ({@code writer}); every invocation compacts a fresh copy (copying
 * and opening untimed). {@code mode}: {@code reencode} (both sides decode and re-encode, lance-core's
 * {@code REENCODE}) of the backfilled dataset (the int64 columns added one at a time: 1 +
 * {@value #BACKFILLS} data files per fragment), or {@code binarycopy} (both copy encoded pages,
 * Javelin's and lance-core's {@code FORCE_BINARY_COPY}) of the same rows written with every column
 * at once (one data file per fragment: lance-core 7.0.0 refuses to binary-copy fragments of several
 * files). Should lance-core refuse anyway, its row runs {@code TRY_BINARY_COPY}, which re-encodes,
 * and the report notes the fallback. Both sides use the thread budget's threads ({@link ThreadBudget}).
 *
 * <p>The set-up compacts a copy with each side and compares, before and after: fragments, data files
 * per fragment, rows and a checksum over every column (each outcome read by the side that wrote it);
 * the trial fails on any difference, or if the rows changed. Javelin's column repack, which has no
 * lance-core counterpart, is measured against the one-shot write in {@link RepackBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
// Single shots: Javelin's compaction kept getting faster over its first ~20 runs in one JVM as the
// JIT compiled the encoders; lance-core's native code does not need that.
@Warmup(iterations = 12)
@Measurement(iterations = 8)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx4g"})
public class CompactionBenchmark {
  static final int FRAGMENTS = 4;
  static final int BACKFILLS = 7;

  @Param({"javelin", "lance"})
  public String impl;

  /** Who wrote (and backfilled) the dataset both sides compact. */
  @Param({"javelin", "lance"})
  public String writer;

  @Param({"reencode", "binarycopy"})
  public String mode;

  BufferAllocator allocator;
  Path source;
  long rows;
  int threads;
  org.lance.compaction.CompactionMode lanceMode;

  @Setup(Level.Trial)
  public void setup() throws Exception {
    threads = ThreadBudget.threads();
    allocator = new RootAllocator();
    rows = BenchData.rows();
    // lance-core 7.0.0 copies pages only from fragments of one data file ("binary copy is not
    // supported" on the backfilled ones, where it falls back to re-encoding), so binary copy is
    // compared on the same rows written with every column at once.
    source = mode.equals("reencode") ? backfilled(allocator, writer, rows) : oneFilePerFragment(allocator, writer, rows);
    lanceMode = mode.equals("reencode") ? org.lance.compaction.CompactionMode.REENCODE
        : org.lance.compaction.CompactionMode.FORCE_BINARY_COPY;
    Shape before = shape("javelin", source);
    Shape javelin = compactCopy("javelin");
    Shape lance;
    try {
      lance = compactCopy("lance");
    } catch (RuntimeException e) {
      if (lanceMode != org.lance.compaction.CompactionMode.FORCE_BINARY_COPY) {
        throw e;
      }
      Notes.add("compaction, data by " + writer + ": lance-core refused FORCE_BINARY_COPY (" + e.getMessage()
          .lines().findFirst().orElse("") + "); its binarycopy row runs TRY_BINARY_COPY, which re-encodes");
      lanceMode = org.lance.compaction.CompactionMode.TRY_BINARY_COPY;
      lance = compactCopy("lance");
    }
    EqualWork.check("compaction (" + mode + ", data by " + writer + ")", javelin, lance);
    EqualWork.check("compaction keeps the rows", javelin.digest(), before.digest());
    EqualWork.check("compaction makes one fragment", javelin.filesPerFragment().size(), 1);
  }

  /** A dataset's layout and contents: data files per fragment, rows and checksum. */
  record Shape(List<Integer> filesPerFragment, Digest digest) {}

  // Reads the layout from the manifest (Javelin's reader for both) and the rows with the side's own reader.
  Shape shape(String side, Path path) throws Exception {
    Dataset ds = Dataset.open(path, allocator);
    List<Integer> files = ds.manifest().fragments().stream().map(f -> f.files().size()).toList();
    if (side.equals("javelin")) {
      return new Shape(files, Digest.of(ds.newScan().build(), true));
    }
    try (org.lance.Dataset l = org.lance.Dataset.open(path.toString(), allocator);
        LanceScanner s = l.newScan(ThreadBudget.lanceScan().build())) {
      return new Shape(files, Digest.of(s.scanBatches(), true));
    }
  }

  private Shape compactCopy(String side) throws Exception {
    Path dir = Files.createTempDirectory(BenchData.dir(), "check-");
    try {
      Path copy = dir.resolve("ds");
      DatasetBenchData.copyTree(source, copy);
      if (side.equals("javelin")) {
        javelinCompact(Dataset.open(copy, allocator));
      } else {
        try (org.lance.Dataset l = org.lance.Dataset.open(copy.toString(), allocator)) {
          lanceCompact(l);
        }
      }
      return shape(side, copy);
    } finally {
      DatasetBenchData.deleteTree(dir);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    allocator.close();
  }

  /** A fresh copy of the source dataset, opened by the side under test. */
  @State(Scope.Thread)
  public static class Copy {
    Path root;
    Dataset javelin;
    org.lance.Dataset lance;

    @Setup(Level.Invocation)
    public void setup(CompactionBenchmark b) throws Exception {
      CpuTimeProfiler.untimed(() -> {
        root = Files.createTempDirectory(BenchData.dir(), "compact-");
        Path path = root.resolve("ds");
        DatasetBenchData.copyTree(b.source, path);
        if (b.impl.equals("javelin")) {
          javelin = Dataset.open(path, b.allocator);
        } else {
          lance = org.lance.Dataset.open(path.toString(), b.allocator);
        }
        return null;
      });
    }

    @TearDown(Level.Invocation)
    public void remove() throws Exception {
      CpuTimeProfiler.untimed(() -> {
        if (lance != null) {
          lance.close();
          lance = null;
        }
        javelin = null;
        DatasetBenchData.deleteTree(root);
        return null;
      });
    }
  }

  @Benchmark
  public Object compactIntoOneFragment(Copy c) throws Exception {
    if (impl.equals("javelin")) {
      return javelinCompact(c.javelin);
    }
    lanceCompact(c.lance);
    return c.lance;
  }

  private Dataset javelinCompact(Dataset ds) {
    return ds.compact(CompactionOptions.builder().scope(CompactionScope.REWRITE_FRAGMENTS)
        .targetRowsPerFragment(rows * 2).numThreads(threads)
        .mode(mode.equals("reencode") ? CompactionMode.REENCODE : CompactionMode.FORCE_BINARY_COPY).build());
  }

  private void lanceCompact(org.lance.Dataset ds) {
    ds.compact(org.lance.compaction.CompactionOptions.builder().withTargetRowsPerFragment(rows * 2)
        .withNumThreads(threads).withCompactionMode(lanceMode).build());
  }

  // ---- the data

  /**
   * The backfilled dataset (written once under the bench directory and reused): {@code rows} rows in
   * {@value #FRAGMENTS} fragments, then {@value #BACKFILLS} columns {@code c<k> = id * (k + 3)} added
   * one at a time, all by {@code writer}.
   */
  static Path backfilled(BufferAllocator allocator, String writer, long rows) throws Exception {
    Path path = BenchData.dir().resolve("compaction-" + writer + "-" + rows);
    if (Files.exists(path)) {
      return path;
    }
    Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
    DatasetBenchData.deleteTree(tmp);
    int perFragment = (int) ((rows + FRAGMENTS - 1) / FRAGMENTS);
    List<VectorSchemaRoot> batches = DatasetBenchData.batches(allocator, 0, rows);
    try {
      if (writer.equals("javelin")) {
        Dataset ds = Dataset.create(tmp, batches, WriteParams.builder().fileVersion(LanceFileVersion.V2_1)
            .maxRowsPerFile(perFragment).build(), allocator);
        for (int k = 0; k < BACKFILLS; k++) {
          ds = ds.addColumns(Map.of(column(k), expression(k)));
        }
      } else {
        DatasetBenchData.lanceWrite(allocator, tmp, batches, org.lance.WriteParams.WriteMode.CREATE, perFragment);
        try (org.lance.Dataset l = org.lance.Dataset.open(tmp.toString(), allocator)) {
          for (int k = 0; k < BACKFILLS; k++) {
            l.addColumns(new SqlExpressions.Builder().withExpression(column(k), expression(k)).build(),
                Optional.empty());
          }
        }
      }
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
    Files.move(tmp, path);
    return path;
  }

  /** The same rows with every column written at once: one data file per fragment, by {@code writer}. */
  static Path oneFilePerFragment(BufferAllocator allocator, String writer, long rows) throws Exception {
    Path path = BenchData.dir().resolve("compaction-onefile-" + writer + "-" + rows);
    if (Files.exists(path)) {
      return path;
    }
    Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
    DatasetBenchData.deleteTree(tmp);
    int perFragment = (int) ((rows + FRAGMENTS - 1) / FRAGMENTS);
    List<VectorSchemaRoot> batches = allColumns(allocator, rows);
    try {
      if (writer.equals("javelin")) {
        Dataset.create(tmp, batches, WriteParams.builder().fileVersion(LanceFileVersion.V2_1)
            .maxRowsPerFile(perFragment).build(), allocator);
      } else {
        try (ArrowReader reader = DatasetBenchData.readerOf(allocator, batches.get(0).getSchema(), batches)) {
          org.lance.Dataset.write().allocator(allocator).reader(reader).uri(tmp.toString())
              .mode(org.lance.WriteParams.WriteMode.CREATE).maxRowsPerFile(perFragment).dataStorageVersion("2.1")
              .execute().close();
        }
      }
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
    Files.move(tmp, path);
    return path;
  }

  /** The backfilled dataset's rows with every column: id, score, name, c0 ... c6 (the caller closes them). */
  static List<VectorSchemaRoot> allColumns(BufferAllocator allocator, long rows) {
    List<VectorSchemaRoot> out = new ArrayList<>();
    for (VectorSchemaRoot base : DatasetBenchData.batches(allocator, 0, rows)) {
      List<FieldVector> vectors = new ArrayList<>(base.getFieldVectors());
      BigIntVector id = (BigIntVector) base.getVector("id");
      for (int k = 0; k < BACKFILLS; k++) {
        BigIntVector c = new BigIntVector(Field.nullable(column(k), new ArrowType.Int(64, true)), allocator);
        c.allocateNew(base.getRowCount());
        for (int i = 0; i < base.getRowCount(); i++) {
          c.set(i, id.get(i) * (k + 3));
        }
        c.setValueCount(base.getRowCount());
        vectors.add(c);
      }
      out.add(new VectorSchemaRoot(vectors));
    }
    return out;
  }

  static String column(int k) {
    return "c" + k;
  }

  static String expression(int k) {
    return "id * " + (k + 3);
  }
}
