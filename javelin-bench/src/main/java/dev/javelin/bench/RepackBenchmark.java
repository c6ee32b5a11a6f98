package dev.javelin.bench;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.core.compaction.CompactionOptions;
import dev.javelin.core.compaction.CompactionScope;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.table.Fragment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
 * Javelin's column repack, a feature lance-core 7.0.0 does not have, against the one-shot write of
 * the same rows (Javelin only, same thread budget): {@code repack} merges each fragment's
 * 1 + {@value CompactionBenchmark#BACKFILLS} data files of {@link CompactionBenchmark}'s backfilled
 * dataset (written by Javelin) into one, on a fresh copy each invocation (copying and opening
 * untimed); {@code oneshot} creates the same rows with all columns at once, in the same fragments.
 * The ratio says what a repack costs next to writing the table again.
 *
 * <p>The set-up runs both once and compares fragments, files per fragment (one each), rows and a
 * checksum over every column, failing on a difference; it also notes whether each repacked data
 * file is byte for byte the file the one-shot write made.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 12)
@Measurement(iterations = 8)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx4g"})
public class RepackBenchmark {
  @Param({"repack", "oneshot"})
  public String impl;

  BufferAllocator allocator;
  Path source;
  long rows;
  List<VectorSchemaRoot> batches;

  @Setup(Level.Trial)
  public void setup() throws Exception {
    ThreadBudget.threads();
    allocator = new RootAllocator();
    rows = BenchData.rows();
    source = CompactionBenchmark.backfilled(allocator, "javelin", rows);
    batches = CompactionBenchmark.allColumns(allocator, rows);
    Path dir = Files.createTempDirectory(BenchData.dir(), "check-");
    try {
      DatasetBenchData.copyTree(source, dir.resolve("repacked"));
      Dataset repacked = repack(Dataset.open(dir.resolve("repacked"), allocator));
      Dataset oneShot = oneShot(dir.resolve("oneshot"));
      CompactionBenchmark.Shape r = shape(repacked);
      CompactionBenchmark.Shape o = shape(oneShot);
      EqualWork.check("repack against the one-shot write", r, o);
      if (r.filesPerFragment().stream().anyMatch(n -> n != 1)) {
        throw new IllegalStateException("The repack left " + r.filesPerFragment() + " data files per fragment");
      }
      int same = 0;
      List<Fragment> rf = repacked.manifest().fragments();
      List<Fragment> of = oneShot.manifest().fragments();
      for (int i = 0; i < rf.size(); i++) {
        Path a = dir.resolve("repacked").resolve("data").resolve(rf.get(i).files().get(0).path());
        Path b = dir.resolve("oneshot").resolve("data").resolve(of.get(i).files().get(0).path());
        same += Files.mismatch(a, b) == -1 ? 1 : 0;
      }
      Notes.add(String.format(java.util.Locale.ROOT, "repack, %,d rows: %d of %d repacked data files are byte for"
          + " byte the files the one-shot write made", rows, same, rf.size()));
    } finally {
      DatasetBenchData.deleteTree(dir);
    }
  }

  private CompactionBenchmark.Shape shape(Dataset ds) throws Exception {
    return new CompactionBenchmark.Shape(ds.manifest().fragments().stream().map(f -> f.files().size()).toList(),
        Digest.of(ds.newScan().build(), true));
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    batches.forEach(VectorSchemaRoot::close);
    allocator.close();
  }

  /** A fresh copy of the backfilled dataset (repack), or an empty directory (one-shot write). */
  @State(Scope.Thread)
  public static class Scratch {
    Path root;
    Dataset copy;

    @Setup(Level.Invocation)
    public void setup(RepackBenchmark b) throws Exception {
      CpuTimeProfiler.untimed(() -> {
        root = Files.createTempDirectory(BenchData.dir(), "repack-");
        if (b.impl.equals("repack")) {
          DatasetBenchData.copyTree(b.source, root.resolve("ds"));
          copy = Dataset.open(root.resolve("ds"), b.allocator);
        }
        return null;
      });
    }

    @TearDown(Level.Invocation)
    public void remove() throws Exception {
      CpuTimeProfiler.untimed(() -> {
        copy = null;
        DatasetBenchData.deleteTree(root);
        return null;
      });
    }
  }

  @Benchmark
  public Dataset repackOrWriteOnce(Scratch s) {
    return impl.equals("repack") ? repack(s.copy) : oneShot(s.root.resolve("ds"));
  }

  private static Dataset repack(Dataset ds) {
    return ds.compact(CompactionOptions.builder().scope(CompactionScope.REPACK_COLUMNS).maxDataFilesPerFragment(1)
        .build());
  }

  private Dataset oneShot(Path path) {
    int perFragment = (int) ((rows + CompactionBenchmark.FRAGMENTS - 1) / CompactionBenchmark.FRAGMENTS);
    return Dataset.create(path, batches, WriteParams.builder().fileVersion(LanceFileVersion.V2_1)
        .maxRowsPerFile(perFragment).build(), allocator);
  }
}
