package dev.javelin.bench;

import dev.javelin.core.Dataset;
import dev.javelin.core.ScanBuilder;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.index.IndexType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.ipc.ScanOptions;

/**
 * BTree equality and range queries on 10M int64 rows: Javelin's indexed scan against Javelin's
 * full scan with the same filter, and against lance-core 7.0.0's indexed filtered scan of the same
 * dataset (and index). Run it with {@code bench/main IndexBenchmark} ({@code
 * -Djavelin.bench.warmup=N}: untimed runs before each timed indexed series, 200 by default, and
 * {@code -Djavelin.bench.warmupSeconds=S} for Javelin's, 8 by default). The
 * dataset (written by Javelin, indexed by Javelin) is created once under {@code -Djavelin.bench.dir}
 * (default {@code bench-data}) and reused. Times are medians of timed runs after warm-up runs.
 *
 * {@code -Djavelin.bench.profile=eq|range} only repeats one indexed query (for a profiler).
 *
 * <p>It lives here, not in javelin-bench, because javelin-bench does not depend on javelin-core.
 */
public final class IndexBenchmark {
  static final long ROWS = Long.getLong("javelin.bench.rows", 10_000_000L);
  static final int BATCH = 1 << 16;
  /**
   * Untimed runs before the timed ones of each indexed query (Javelin's and lance-core's alike):
   * enough for the JIT to compile the take path, whose per-fragment code runs only ten times a
   * query; with a handful of runs the median times the interpreter and C1 code.
   */
  static final int WARMUP = Integer.getInteger("javelin.bench.warmup", 200);
  /**
   * Javelin's indexed queries also warm up for at least this long (seconds): the range query's
   * median fell from about 1.2 ms after 200 runs to 0.4 ms after 4,000 (C2 reaches the take and
   * BTree paths late on two cores), while lance-core's native code needs no such time.
   */
  static final double WARMUP_SECONDS = Double.parseDouble(System.getProperty("javelin.bench.warmupSeconds", "8"));
  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      new Field("v", FieldType.notNullable(new ArrowType.Int(64, true)), null)));

  private IndexBenchmark() {}

  // v is a scrambling of id over [0, 10,000,019): nearly every value occurs once.
  static long v(long id) {
    return Math.floorMod(id * 2654435761L, 10_000_019L);
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(System.getProperty("javelin.bench.dir", "bench-data")).resolve("index-" + ROWS);
    try (BufferAllocator allocator = new RootAllocator()) {
      if (!Files.exists(dir.resolve("_versions"))) {
        create(dir, allocator);
      }
      Dataset ds = Dataset.open(dir, allocator);
      System.out.println("dataset " + dir + ": " + ds.countRows() + " rows, " + ds.manifest().fragments().size()
          + " fragments, indices " + ds.indices());
      String eq = "v = " + v(4_321_987);
      String range = "v BETWEEN 5000000 AND 5000999";
      String profile = System.getProperty("javelin.bench.profile");
      if (profile != null) {
        for (int i = 0; i < 300; i++) {
          javelin(ds, profile.equals("eq") ? eq : range, true);
        }
        return;
      }
      try (org.lance.Dataset lance = org.lance.Dataset.open(dir.toString(), allocator)) {
        for (String filter : List.of(eq, range)) {
          long want = javelin(ds, filter, false);
          check(filter, want, javelin(ds, filter, true), lance(lance, filter));
          System.out.println(ds.explain(filter).describe().strip());
          double planOnly = median(() -> ds.explain(filter).rowsFromIndex(), WARMUP, WARMUP_SECONDS, 30);
          System.out.printf("plan (index search) %.3f ms%n", planOnly);
          double indexed = median(() -> javelin(ds, filter, true), WARMUP, WARMUP_SECONDS, 30);
          double full = median(() -> javelin(ds, filter, false), 2, 0, 5);
          double peer = median(() -> lance(lance, filter), WARMUP, 0, 30);
          System.out.printf("%-32s rows %5d  javelin indexed %8.3f ms  javelin full scan %9.1f ms (x%.0f)  "
              + "lance-core indexed %8.3f ms (javelin/lance speed x%.2f)%n", filter, want, indexed, full,
              full / indexed, peer, peer / indexed);
        }
      }
    }
  }

  private static void check(String filter, long want, long indexed, long lance) {
    if (want != indexed || want != lance) {
      throw new IllegalStateException(filter + ": full scan " + want + ", indexed " + indexed + ", lance " + lance);
    }
  }

  interface Run {
    long run() throws Exception;
  }

  // The median of timed runs after at least warmup runs and warmupSeconds of runs.
  private static double median(Run r, int warmup, double warmupSeconds, int timed) throws Exception {
    long until = System.nanoTime() + (long) (warmupSeconds * 1e9);
    for (int i = 0; i < warmup || System.nanoTime() < until; i++) {
      r.run();
    }
    double[] ms = new double[timed];
    for (int i = 0; i < timed; i++) {
      long t = System.nanoTime();
      r.run();
      ms[i] = (System.nanoTime() - t) / 1e6;
    }
    Arrays.sort(ms);
    return ms[timed / 2];
  }

  private static long javelin(Dataset ds, String filter, boolean useIndex) throws Exception {
    ScanBuilder scan = ds.newScan().columns("id", "v").filter(filter).useIndex(useIndex);
    long n = 0;
    try (ArrowReader r = scan.build()) {
      while (r.loadNextBatch()) {
        n += r.getVectorSchemaRoot().getRowCount();
      }
    }
    return n;
  }

  private static long lance(org.lance.Dataset lance, String filter) throws Exception {
    long n = 0;
    try (var scanner = lance.newScan(new ScanOptions.Builder().columns(List.of("id", "v")).filter(filter)
        .useScalarIndex(true).build());
        ArrowReader r = scanner.scanBatches()) {
      while (r.loadNextBatch()) {
        n += r.getVectorSchemaRoot().getRowCount();
      }
    }
    return n;
  }

  private static void create(Path dir, BufferAllocator allocator) {
    long t = System.nanoTime();
    Iterable<VectorSchemaRoot> batches = () -> new Iterator<>() {
      long next;
      VectorSchemaRoot root;

      @Override
      public boolean hasNext() {
        if (next >= ROWS && root != null) {
          root.close();
          root = null;
        }
        return next < ROWS;
      }

      @Override
      public VectorSchemaRoot next() {
        if (root == null) {
          root = VectorSchemaRoot.create(SCHEMA, allocator);
        }
        int n = (int) Math.min(BATCH, ROWS - next);
        root.allocateNew();
        BigIntVector id = (BigIntVector) root.getVector("id");
        BigIntVector v = (BigIntVector) root.getVector("v");
        for (int i = 0; i < n; i++) {
          id.setSafe(i, next + i);
          v.setSafe(i, v(next + i));
        }
        root.setRowCount(n);
        next += n;
        return root;
      }
    };
    Dataset ds = Dataset.create(dir, batches, WriteParams.builder().fileVersion(LanceFileVersion.V2_1)
        .maxRowsPerFile(1_000_000).build(), allocator);
    System.out.printf("wrote %d rows in %.1f s%n", ROWS, (System.nanoTime() - t) / 1e9);
    t = System.nanoTime();
    ds.createIndex("v", IndexType.BTREE);
    System.out.printf("built the BTree in %.1f s%n", (System.nanoTime() - t) / 1e9);
  }
}
