package dev.javelin.bench;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.core.compaction.CompactionMode;
import dev.javelin.core.compaction.CompactionOptions;
import dev.javelin.core.compaction.CompactionScope;
import dev.javelin.format.LanceFileVersion;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.LongUnaryOperator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Compaction of a backfilled dataset: {@code rows} rows (default 1M) of id, name, score in
 * fragments of 250,000 rows, then 7 int64 columns added one at a time, so every fragment has 8
 * data files. Javelin runs with its defaults (tasks on as many threads as processors, as
 * lance-core). Times (medians, each run on a fresh copy, the operations in turns; copying is not
 * timed):
 * <ul>
 *   <li>Javelin column repack to one file per fragment, re-encoding and by binary copy (zip);
 *   <li>lance-core 7.0.0's {@code compact} rewriting all fragments (target above the row count);
 *   <li>Javelin's own fragment rewrite of the same, re-encoding and by binary copy;
 *   <li>full scan and take of 1,000 random rows after the repack, against the same rows written
 *       with one file per fragment;
 *   <li>peak heap of a repack in a child JVM with {@code -Xmx256m}.
 * </ul>
 * Usage: {@code CompactionBenchmark [rows] [runs]}; data under {@link BenchData#dir()}.
 */
public final class CompactionBenchmark {
  static final int PER_FRAGMENT = 250_000;
  static final int BACKFILLS = 7;
  static final int WARMUP = 3;
  /**
   * Untimed turns of the five operations before the timed ones. Javelin's repack kept getting
   * faster over its first runs in one JVM as the JIT compiled the encoders (1,265, 265, 261, 204
   * ... about 150 ms from the 20th run), lance-core's native compaction does not; three turns
   * timed the JIT as much as the repack.
   */
  static final int OPS_WARMUP = Integer.getInteger("javelin.bench.compaction.warmup", 10);

  private CompactionBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("heap")) {
      heapProbe(Path.of(args[1]));
      return;
    }
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Path root = BenchData.dir().resolve("compaction-" + rows);
    Path backfilled = root.resolve("backfilled");
    Path single = root.resolve("single");
    try (BufferAllocator allocator = new RootAllocator()) {
      if (!Files.exists(backfilled.resolve("_versions"))) {
        DatasetBenchData.deleteTree(root);
        createBackfilled(backfilled, rows, allocator);
        createSingle(single, rows, allocator);
      }
      Dataset b = Dataset.open(backfilled, allocator);
      System.out.printf(Locale.ROOT, "dataset: %,d rows, %d fragments, %d files per fragment%n", b.countRows(),
          b.manifest().fragments().size(), b.manifest().fragments().get(0).files().size());
      CompactionOptions repack = CompactionOptions.builder().scope(CompactionScope.REPACK_COLUMNS)
          .maxDataFilesPerFragment(1).build();
      CompactionOptions rewrite = CompactionOptions.builder().scope(CompactionScope.REWRITE_FRAGMENTS)
          .targetRowsPerFragment(rows * 2L).build();
      Path work = root.resolve("work");
      double[] t = timedInTurns(backfilled, work, runs, List.of(
          p -> Dataset.open(p, allocator).compact(repack),
          p -> Dataset.open(p, allocator).compact(repack.toBuilder().mode(CompactionMode.FORCE_BINARY_COPY).build()),
          p -> {
            try (org.lance.Dataset l = org.lance.Dataset.open(p.toString(), allocator)) {
              l.compact(org.lance.compaction.CompactionOptions.builder().withTargetRowsPerFragment(rows * 2L).build());
            }
          },
          p -> Dataset.open(p, allocator).compact(rewrite),
          p -> Dataset.open(p, allocator).compact(rewrite.toBuilder().mode(CompactionMode.FORCE_BINARY_COPY).build())));
      double tRepack = t[0];
      double tRepackCopy = t[1];
      double tLance = t[2];
      double tRewrite = t[3];
      double tCopy = t[4];
      System.out.printf(Locale.ROOT, "%-46s %10s %8s%n", "operation", "median ms", "vs lance");
      row("javelin repack (re-encode, 8 -> 1 file)", tRepack, tLance);
      row("javelin repack (binary copy, 8 -> 1 file)", tRepackCopy, tLance);
      row("lance-core compact (full rewrite)", tLance, tLance);
      row("javelin fragment rewrite (re-encode)", tRewrite, tLance);
      row("javelin fragment rewrite (binary copy)", tCopy, tLance);

      // Reads after a repack, against one file per fragment from the start.
      DatasetBenchData.deleteTree(work);
      DatasetBenchData.copyTree(backfilled, work);
      Dataset repacked = Dataset.open(work, allocator).compact(repack);
      Dataset one = Dataset.open(single, allocator);
      long[] offsets = new Random(7).longs(1000, 0, rows).sorted().toArray();
      // Both warmed up first, so JIT and page cache favour neither.
      for (int i = 0; i < WARMUP * 2; i++) {
        scan(repacked);
        scan(one);
        repacked.take(offsets).close();
        one.take(offsets).close();
      }
      // Measured alternately (A, B, A, B...): a change of load then hits both the same way. (The
      // two datasets' files are byte for byte the same here, so only noise can part them.)
      double[] scans = alternate(runs * 6, () -> scan(repacked), () -> scan(one));
      double[] takes = alternate(runs * 12, () -> repacked.take(offsets).close(), () -> one.take(offsets).close());
      double scanRepacked = scans[0];
      double scanSingle = scans[1];
      double takeRepacked = takes[0];
      double takeSingle = takes[1];
      System.out.printf(Locale.ROOT, "%-46s %10s %8s%n", "read", "median ms", "ratio");
      row("scan, repacked (1 file per fragment)", scanRepacked, scanSingle);
      row("scan, written with 1 file per fragment", scanSingle, scanSingle);
      row("take 1,000 rows, repacked", takeRepacked, takeSingle);
      row("take 1,000 rows, written with 1 file", takeSingle, takeSingle);
      DatasetBenchData.deleteTree(work);
    }
    heapChild(backfilled, root.resolve("heap"));
  }

  private interface Op {
    void run(Path p) throws Exception;
  }

  private interface Read {
    void run() throws Exception;
  }

  private static void row(String name, double ms, double base) {
    System.out.printf(Locale.ROOT, "%-46s %10.0f %8.2fx%n", name, ms, ms / base);
  }

  // Medians of each op, run in turns (op 1, op 2, ..., op 1, ...) on fresh copies, so a change of
  // load or a JIT still compiling hits them all alike; the first rounds warm the JIT up.
  private static double[] timedInTurns(Path source, Path work, int runs, List<Op> ops) throws Exception {
    double[][] t = new double[ops.size()][runs];
    for (int i = -OPS_WARMUP; i < runs; i++) {
      for (int k = 0; k < ops.size(); k++) {
        DatasetBenchData.deleteTree(work);
        DatasetBenchData.copyTree(source, work);
        long start = System.nanoTime();
        ops.get(k).run(work);
        if (i >= 0) {
          t[k][i] = (System.nanoTime() - start) / 1e6;
        }
      }
    }
    DatasetBenchData.deleteTree(work);
    double[] out = new double[ops.size()];
    for (int k = 0; k < out.length; k++) {
      out[k] = medianOf(t[k]);
    }
    return out;
  }

  // Medians of a and b, run in turns.
  private static double[] alternate(int runs, Read a, Read b) throws Exception {
    double[] ta = new double[runs];
    double[] tb = new double[runs];
    for (int i = 0; i < runs; i++) {
      long start = System.nanoTime();
      a.run();
      ta[i] = (System.nanoTime() - start) / 1e6;
      start = System.nanoTime();
      b.run();
      tb[i] = (System.nanoTime() - start) / 1e6;
    }
    return new double[] {medianOf(ta), medianOf(tb)};
  }

  private static double medianOf(double[] t) {
    Arrays.sort(t);
    return t[t.length / 2];
  }

  private static void scan(Dataset ds) throws Exception {
    long n = 0;
    try (ArrowReader r = ds.newScan().build()) {
      while (r.loadNextBatch()) {
        n += r.getVectorSchemaRoot().getRowCount();
      }
    }
    if (n != ds.countRows()) {
      throw new IllegalStateException("scan read " + n + " rows");
    }
  }

  // ---- data

  static final Schema BASE = new Schema(List.of(Field.nullable("id", new ArrowType.Int(64, true)),
      Field.nullable("name", ArrowType.Utf8.INSTANCE),
      Field.nullable("score", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))));

  static String column(int k) {
    return "c" + k;
  }

  static long value(int k, long id) {
    return id * (k + 3) ^ (id >>> 3);
  }

  private static VectorSchemaRoot base(BufferAllocator a, long start, int n, boolean withColumns) {
    List<Field> fields = new ArrayList<>(BASE.getFields());
    if (withColumns) {
      for (int k = 0; k < BACKFILLS; k++) {
        fields.add(Field.nullable(column(k), new ArrowType.Int(64, true)));
      }
    }
    VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(fields), a);
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    VarCharVector name = (VarCharVector) root.getVector("name");
    Float8Vector score = (Float8Vector) root.getVector("score");
    for (int i = 0; i < n; i++) {
      long r = start + i;
      id.setSafe(i, r);
      name.setSafe(i, ("user-" + (r * 7919 % 1_000_003)).getBytes(StandardCharsets.UTF_8));
      score.setSafe(i, (r % 1000) * 0.25);
      if (withColumns) {
        for (int k = 0; k < BACKFILLS; k++) {
          ((BigIntVector) root.getVector(column(k))).setSafe(i, value(k, r));
        }
      }
    }
    root.setRowCount(n);
    return root;
  }

  // One create of all rows (in batches of 65,536) so both datasets get fragments of 250,000 rows.
  private static Dataset write(Path path, int rows, boolean withColumns, BufferAllocator a) {
    WriteParams params = WriteParams.builder().fileVersion(LanceFileVersion.V2_1).maxRowsPerFile(PER_FRAGMENT).build();
    List<VectorSchemaRoot> batches = new ArrayList<>();
    try {
      for (int s = 0; s < rows; s += 65_536) {
        batches.add(base(a, s, Math.min(65_536, rows - s), withColumns));
      }
      return Dataset.create(path, batches, params, a);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  private static void createSingle(Path path, int rows, BufferAllocator a) {
    write(path, rows, true, a);
  }

  private static void createBackfilled(Path path, int rows, BufferAllocator a) {
    Dataset ds = write(path, rows, false, a);
    for (int k = 0; k < BACKFILLS; k++) {
      int kk = k;
      Schema s = new Schema(List.of(Field.nullable(column(k), new ArrowType.Int(64, true))));
      LongUnaryOperator f = id -> value(kk, id);
      ds = ds.addColumns(s, List.of("id"), in -> {
        VectorSchemaRoot out = VectorSchemaRoot.create(s, a);
        out.allocateNew();
        BigIntVector id = (BigIntVector) in.getVector("id");
        BigIntVector v = (BigIntVector) out.getVector(0);
        for (int i = 0; i < in.getRowCount(); i++) {
          v.setSafe(i, f.applyAsLong(id.get(i)));
        }
        out.setRowCount(in.getRowCount());
        return out;
      });
    }
  }

  // ---- peak heap of a repack under -Xmx256m, in a child JVM

  private static void heapChild(Path source, Path work) throws Exception {
    DatasetBenchData.deleteTree(work);
    DatasetBenchData.copyTree(source, work);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(java, "-Xmx256m", "--add-opens=java.base/java.nio=ALL-UNNAMED", "-cp",
        System.getProperty("java.class.path"), CompactionBenchmark.class.getName(), "heap", work.toString())
        .redirectErrorStream(true).start();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (!line.startsWith("SLF4J")) {
          System.out.println(line);
        }
      }
    }
    System.out.println("child JVM (-Xmx256m) exit code " + p.waitFor());
    DatasetBenchData.deleteTree(work);
  }

  private static void heapProbe(Path work) throws Exception {
    for (MemoryPoolMXBean b : ManagementFactory.getMemoryPoolMXBeans()) {
      b.resetPeakUsage();
    }
    try (RootAllocator a = new RootAllocator()) {
      long start = System.nanoTime();
      Dataset after = Dataset.open(work, a).compact(CompactionOptions.builder().scope(CompactionScope.REPACK_COLUMNS)
          .maxDataFilesPerFragment(1).build());
      double ms = (System.nanoTime() - start) / 1e6;
      long heap = 0;
      for (MemoryPoolMXBean b : ManagementFactory.getMemoryPoolMXBeans()) {
        if (b.getType() == MemoryType.HEAP) {
          heap += b.getPeakUsage().getUsed();
        }
      }
      System.out.printf(Locale.ROOT, "repack under -Xmx256m: %.0f ms, %d files per fragment after, peak heap "
          + "(sum of pool peaks) %.1f MiB, peak Arrow off-heap %.1f MiB%n", ms,
          after.manifest().fragments().get(0).files().size(), heap / 1048576.0,
          a.getPeakMemoryAllocation() / 1048576.0);
    }
  }
}
