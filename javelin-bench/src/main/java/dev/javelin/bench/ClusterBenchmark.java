package dev.javelin.bench;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.core.compaction.CompactionOptions;
import dev.javelin.core.compaction.CompactionScope;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.index.DistanceType;
import dev.javelin.index.IndexType;
import dev.javelin.index.IvfPqParams;
import dev.javelin.io.InputFile;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.io.ObjectInfo;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.OutputFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Clustering (issue 7): {@code rows} rows (default 1M) of {@code id int64, k int64 (random),
 * v fixed_size_list<float32,16>, payload utf8} in fragments of 100,000 rows, with a BTree on
 * {@code k} and an IVF_PQ on {@code v} (16 partitions, 4 sub-vectors). Reports, as medians after
 * warm-up:
 * <ol>
 *   <li>{@code cluster().by("k")} against a plain fragment rewrite of the same fragments
 *       ({@code compact} with {@code REWRITE_FRAGMENTS}, target 100,001 rows so every fragment is
 *       a candidate; about as many fragments come out), each on a fresh copy, in turns;
 *   <li>after clustering: {@code k = x} through the BTree's row-map translation, the degraded path
 *       ({@code useIndex(false)}: what a reader that cannot translate does) and the same query after
 *       {@code settleIndices()}; IVF_PQ nearest through translation and after settling (translated
 *       and settled queries run in turns);
 *   <li>bytes read by {@code k BETWEEN a AND b} (about 1% of rows) before and after clustering,
 *       counted under the object store (not memory-mapped, as a remote store): bytes requested,
 *       and distinct bytes (the union of the ranges read per file). Javelin's filtered scan has no
 *       fragment pruning by statistics (no zone maps), so the target is judged on the index-driven
 *       range query: before clustering its rows are spread over every fragment's pages, after it
 *       they are contiguous. Its take reads a chunk per row, so requested bytes count shared
 *       chunks again; distinct bytes are what a reader that keeps what it fetched reads.
 * </ol>
 * Usage: {@code ClusterBenchmark [rows] [runs]}; data under {@link BenchData#dir()}.
 */
public final class ClusterBenchmark {
  static final int PER_FRAGMENT = 100_000;
  static final int DIM = 16;
  static final long K_RANGE = 1_000_000_000L;
  static final int WARMUP = 1;
  /**
   * Untimed turns of the three rewrites before the timed ones: a rewrite's time kept falling over
   * its first runs in one JVM (cluster 2,265, 814, 854, 546 ... 480 ms; the plain rewrite 1,760,
   * 463 ... 300-450 ms) as the JIT compiled the write paths, so after one turn the ratio measured
   * JIT timing as much as the rewrites.
   */
  static final int REWRITE_WARMUP = Integer.getInteger("javelin.bench.cluster.rewriteWarmup", 4);

  private ClusterBenchmark() {}

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Path root = BenchData.dir().resolve("cluster-" + rows);
    Path base = root.resolve("base");
    Path work = root.resolve("work");
    try (BufferAllocator allocator = new RootAllocator()) {
      if (!Files.exists(base.resolve("_versions"))) {
        DatasetBenchData.deleteTree(root);
        create(base, rows, allocator);
      }
      Dataset ds = Dataset.open(base, allocator);
      System.out.printf(Locale.ROOT, "dataset: %,d rows, %d fragments, indices %s%n", ds.countRows(),
          ds.manifest().fragments().size(), ds.indices());
      int fragments = ds.manifest().fragments().size();

      // 1. the reordered rewrite against a plain fragment rewrite
      CompactionOptions plain = CompactionOptions.builder().scope(CompactionScope.REWRITE_FRAGMENTS)
          .targetRowsPerFragment(PER_FRAGMENT + 1).build();
      long[] outFragments = new long[2];
      // In turns (cluster, plain, cluster, ...), so load that comes and goes falls on both. No deferred
      // remap: the dataset has an IVF_PQ index, which lance-core cannot search through a fragment reuse
      // index, so Javelin refuses to defer its remap.
      double[] t = timed(base, work, runs,
          // Without the zone map cluster() builds by default: the same work as the plain rewrite.
          p -> outFragments[0] = Dataset.open(p, allocator).cluster().by("k").noZoneMaps()
              .targetRowsPerFragment(PER_FRAGMENT).commit().dataset().manifest().fragments().size(),
          p -> outFragments[1] = Dataset.open(p, allocator).compact(plain).manifest().fragments().size());
      double tCluster = t[0];
      double tPlain = t[1];
      System.out.printf(Locale.ROOT, "%-58s %10s%n", "rewrite (fresh copy each run)", "median ms");
      System.out.printf(Locale.ROOT, "%-58s %10.0f%n", "cluster().by(\"k\") (" + fragments + " -> " + outFragments[0]
          + " fragments)", tCluster);
      System.out.printf(Locale.ROOT, "%-58s %10.0f%n", "compact REWRITE_FRAGMENTS (" + fragments + " -> "
          + outFragments[1] + " fragments, remaps indices)", tPlain);

      // 2. queries after clustering
      DatasetBenchData.deleteTree(work);
      DatasetBenchData.copyTree(base, work);
      long key = k(rows / 3 + 17);
      String eq = "k = " + key;
      long lo = K_RANGE / 2;
      String range = "k BETWEEN " + lo + " AND " + (lo + K_RANGE / 100 - 1);
      float[] q = vector(new Random(99), DIM);

      CountingStore beforeStore = new CountingStore(work);
      Dataset before = Dataset.open(beforeStore, allocator);
      long rangeRows = count(before, range, true);
      long[][] bytesBefore = bytes(beforeStore, before, range);

      // No zone map, so that the query below measures the translated BTree.
      Dataset clustered = Dataset.open(work, allocator).cluster().by("k").noZoneMaps()
          .targetRowsPerFragment(PER_FRAGMENT).commit().dataset();
      System.out.println("after clustering: " + clustered.explain(eq).describe().strip());
      long want = count(clustered, eq, false);
      check(eq, want, count(clustered, eq, true));
      check(range, rangeRows, count(clustered, range, true));
      double eqDegraded = median(runs, () -> count(clustered, eq, false));
      CountingStore afterStore = new CountingStore(work);
      Dataset afterCounted = Dataset.open(afterStore, allocator);
      long[][] bytesAfter = bytes(afterStore, afterCounted, range);

      // Settled into a new version; `clustered` stays at its own version and keeps translating.
      Dataset settled = Dataset.open(work, allocator).settleIndices().dataset();
      System.out.println("after settleIndices: " + settled.explain(eq).describe().strip());
      check(eq, want, count(settled, eq, true));
      // Alternated, so neither side runs colder (JIT, caches) or under other load than the other.
      double[] eqs = alternated(runs * 10, () -> count(clustered, eq, true), () -> count(settled, eq, true));
      double[] knns = alternated(runs * 10, () -> nearest(clustered, q), () -> nearest(settled, q));
      double eqTranslated = eqs[0];
      double eqSettled = eqs[1];
      double knnTranslated = knns[0];
      double knnSettled = knns[1];

      System.out.printf(Locale.ROOT, "%n%-58s %10s%n", "query after clustering (" + eq + ", " + want + " rows)",
          "median ms");
      System.out.printf(Locale.ROOT, "%-58s %10.3f%n", "BTree through row-map translation", eqTranslated);
      System.out.printf(Locale.ROOT, "%-58s %10.3f%n", "degraded path (useIndex(false) scan)", eqDegraded);
      System.out.printf(Locale.ROOT, "%-58s %10.3f%n", "BTree after settleIndices()", eqSettled);
      System.out.printf(Locale.ROOT, "%-58s %10.3f%n", "IVF_PQ nearest k=10 through translation", knnTranslated);
      System.out.printf(Locale.ROOT, "%-58s %10.3f%n", "IVF_PQ nearest k=10 after settleIndices()", knnSettled);

      System.out.printf(Locale.ROOT, "%n%s (%d rows), columns id,k,payload: bytes read%n", range, rangeRows);
      System.out.printf(Locale.ROOT, "%-46s %14s %14s %6s %12s%n", "", "data requested", "data distinct", "files",
          "other dist.");
      bytesRow("index-driven, before clustering", bytesBefore[0]);
      bytesRow("index-driven, after clustering (translated)", bytesAfter[0]);
      bytesRow("useIndex(false) scan, before clustering", bytesBefore[1]);
      bytesRow("useIndex(false) scan, after clustering", bytesAfter[1]);
      System.out.printf(Locale.ROOT, "%n%-58s %10s %s%n", "ratio", "measured", "target");
      System.out.printf(Locale.ROOT, "%-58s %9.1fx %s%n", "degraded scan / translated BTree equality",
          eqDegraded / eqTranslated, ">= 10x");
      System.out.printf(Locale.ROOT, "%-58s %9.2fx %s%n", "translated / settled BTree equality",
          eqTranslated / eqSettled, "<= 1.5x");
      System.out.printf(Locale.ROOT, "%-58s %9.2fx %s%n", "translated / settled IVF_PQ nearest",
          knnTranslated / knnSettled, "<= 1.5x");
      System.out.printf(Locale.ROOT, "%-58s %9.1fx %s%n", "range distinct data bytes before / after (index-driven)",
          (double) bytesBefore[0][1] / bytesAfter[0][1], ">= 5x");
      System.out.printf(Locale.ROOT, "%-58s %9.1fx %s%n", "range requested data bytes before / after (index-driven)",
          (double) bytesBefore[0][0] / bytesAfter[0][0], ">= 5x");
      System.out.printf(Locale.ROOT, "%-58s %9.1fx %s%n", "range distinct data bytes before / after (scan)",
          (double) bytesBefore[1][1] / bytesAfter[1][1], ">= 5x");
      System.out.printf(Locale.ROOT, "%-58s %9.2fx %s%n", "cluster / plain rewrite (remapping)", tCluster / tPlain,
          "<= 1.5x");
      DatasetBenchData.deleteTree(work);
    }
  }

  private interface Op {
    void run(Path p) throws Exception;
  }

  private interface Read {
    Object run() throws Exception;
  }

  private static void check(String what, long want, long got) {
    if (want != got) {
      throw new IllegalStateException(what + ": expected " + want + " rows, got " + got);
    }
  }

  /** The median time of each op, run in turns, each on a fresh copy of {@code source}. */
  private static double[] timed(Path source, Path work, int runs, Op... ops) throws Exception {
    double[][] t = new double[ops.length][runs + REWRITE_WARMUP];
    for (int i = 0; i < runs + REWRITE_WARMUP; i++) {
      for (int o = 0; o < ops.length; o++) {
        DatasetBenchData.deleteTree(work);
        DatasetBenchData.copyTree(source, work);
        long start = System.nanoTime();
        ops[o].run(work);
        t[o][i] = (System.nanoTime() - start) / 1e6;
      }
    }
    DatasetBenchData.deleteTree(work);
    double[] out = new double[ops.length];
    for (int o = 0; o < ops.length; o++) {
      out[o] = medianOf(Arrays.copyOfRange(t[o], REWRITE_WARMUP, t[o].length));
    }
    return out;
  }

  private static double median(int runs, Read r) throws Exception {
    for (int i = 0; i < Math.max(WARMUP, runs / 3); i++) {
      r.run();
    }
    double[] t = new double[runs];
    for (int i = 0; i < runs; i++) {
      long start = System.nanoTime();
      r.run();
      t[i] = (System.nanoTime() - start) / 1e6;
    }
    return medianOf(t);
  }

  /** Medians of {@code a} and {@code b} run in turns (a, b, a, b, ...), after warming both up. */
  private static double[] alternated(int runs, Read a, Read b) throws Exception {
    for (int i = 0; i < Math.max(WARMUP, runs / 3); i++) {
      a.run();
      b.run();
    }
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

  private static void bytesRow(String name, long[] t) {
    System.out.printf(Locale.ROOT, "%-46s %,14d %,14d %6d %,12d%n", name, t[0], t[1], t[2], t[3]);
  }

  private static long count(Dataset ds, String filter, boolean useIndex) throws Exception {
    long n = 0;
    try (ArrowReader reader = ds.newScan().columns("id", "k", "payload").filter(filter).useIndex(useIndex).build()) {
      while (reader.loadNextBatch()) {
        n += reader.getVectorSchemaRoot().getRowCount();
      }
    }
    return n;
  }

  private static long nearest(Dataset ds, float[] q) {
    try (VectorSchemaRoot root = ds.nearest("v", q).k(10).execute()) {
      if (root.getRowCount() != 10) {
        throw new IllegalStateException("nearest returned " + root.getRowCount() + " rows");
      }
      return root.getRowCount();
    }
  }

  /**
   * Bytes read by the range query, index-driven then as a scan, each measured on its second run
   * (after index and metadata caches are warm): {@link CountingStore#totals()} of each.
   */
  private static long[][] bytes(CountingStore store, Dataset ds, String filter) throws Exception {
    long[][] out = new long[2][];
    boolean[] modes = {true, false};
    for (int i = 0; i < 2; i++) {
      count(ds, filter, modes[i]);
      store.reset();
      count(ds, filter, modes[i]);
      out[i] = store.totals();
    }
    return out;
  }

  /**
   * A local store whose opened files record the byte ranges read through them (no memory mapping,
   * as for a remote store): the total requested, and the distinct bytes (the union of the ranges
   * per file, what a reader caching what it fetched would read once).
   */
  private static final class CountingStore implements ObjectStore {
    private final LocalObjectStore local;
    private final Map<String, List<long[]>> ranges = new HashMap<>();
    private long requested;

    CountingStore(Path root) {
      this.local = new LocalObjectStore(root);
    }

    synchronized void reset() {
      ranges.clear();
      requested = 0;
    }

    synchronized void record(String key, long position, int length) {
      requested += length;
      ranges.computeIfAbsent(key, x -> new ArrayList<>()).add(new long[] {position, position + length});
    }

    /** [data bytes requested, data bytes distinct, data files touched, other bytes distinct]. */
    synchronized long[] totals() {
      long[] out = new long[4];
      long otherRequested = 0;
      for (Map.Entry<String, List<long[]>> e : ranges.entrySet()) {
        List<long[]> rs = e.getValue();
        rs.sort((x, y) -> Long.compare(x[0], y[0]));
        long distinct = 0;
        long req = 0;
        long end = Long.MIN_VALUE;
        for (long[] r : rs) {
          req += r[1] - r[0];
          long from = Math.max(r[0], end);
          if (r[1] > from) {
            distinct += r[1] - from;
          }
          end = Math.max(end, r[1]);
        }
        if (e.getKey().startsWith("data/")) {
          out[1] += distinct;
          out[2]++;
        } else {
          out[3] += distinct;
          otherRequested += req;
        }
      }
      out[0] = requested - otherRequested;
      return out;
    }

    @Override
    public String location() {
      return local.location();
    }

    @Override
    public List<ObjectInfo> list(String prefix) throws IOException {
      return local.list(prefix);
    }

    @Override
    public InputFile open(String key) throws IOException {
      InputFile in = local.open(key);
      return new InputFile() {
        @Override
        public String location() {
          return in.location();
        }

        @Override
        public long length() throws IOException {
          return in.length();
        }

        @Override
        public ByteBuffer read(long position, int length) throws IOException {
          record(key, position, length);
          return in.read(position, length);
        }

        @Override
        public void close() throws IOException {
          in.close();
        }
      };
    }

    @Override
    public void put(String key, byte[] data) throws IOException {
      local.put(key, data);
    }

    @Override
    public void putIfAbsent(String key, byte[] data) throws IOException {
      local.putIfAbsent(key, data);
    }

    @Override
    public OutputFile newOutputFile(String key) {
      return local.newOutputFile(key);
    }

    @Override
    public void delete(String key) throws IOException {
      local.delete(key);
    }

    @Override
    public boolean exists(String key) throws IOException {
      return local.exists(key);
    }
  }

  // ---- data

  static long k(long id) {
    return Math.floorMod(id * 2654435761L + 12345L, K_RANGE);
  }

  static float[] vector(Random r, int dim) {
    float[] v = new float[dim];
    for (int i = 0; i < dim; i++) {
      v[i] = (float) r.nextGaussian();
    }
    return v;
  }

  static Schema schema() {
    Field item = new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null);
    return new Schema(List.of(
        new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        new Field("k", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(DIM)), List.of(item)),
        new Field("payload", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)));
  }

  private static VectorSchemaRoot batch(BufferAllocator a, long start, int n) {
    VectorSchemaRoot root = VectorSchemaRoot.create(schema(), a);
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    BigIntVector k = (BigIntVector) root.getVector("k");
    VarCharVector payload = (VarCharVector) root.getVector("payload");
    FixedSizeListVector v = (FixedSizeListVector) root.getVector("v");
    Float4Vector items = (Float4Vector) v.getDataVector();
    Random r = new Random(start * 31 + 7);
    for (int i = 0; i < n; i++) {
      long row = start + i;
      id.setSafe(i, row);
      k.setSafe(i, k(row));
      payload.setSafe(i, ("payload-" + row + "-" + Long.toHexString(row * 0x9E3779B97F4A7C15L))
          .getBytes(StandardCharsets.UTF_8));
      v.setNotNull(i);
      for (int d = 0; d < DIM; d++) {
        items.setSafe(i * DIM + d, (float) r.nextGaussian());
      }
    }
    v.setValueCount(n);
    items.setValueCount(n * DIM);
    root.setRowCount(n);
    return root;
  }

  private static void create(Path path, int rows, BufferAllocator a) {
    long t = System.nanoTime();
    WriteParams params = WriteParams.builder().fileVersion(LanceFileVersion.V2_1).maxRowsPerFile(PER_FRAGMENT).build();
    List<VectorSchemaRoot> batches = new ArrayList<>();
    Dataset ds;
    try {
      for (int s = 0; s < rows; s += 65_536) {
        batches.add(batch(a, s, Math.min(65_536, rows - s)));
      }
      ds = Dataset.create(path, batches, params, a);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
    System.out.printf(Locale.ROOT, "wrote %,d rows in %.1f s%n", rows, (System.nanoTime() - t) / 1e9);
    t = System.nanoTime();
    ds = ds.createIndex("k", IndexType.BTREE);
    System.out.printf(Locale.ROOT, "built the BTree on k in %.1f s%n", (System.nanoTime() - t) / 1e9);
    t = System.nanoTime();
    ds.createIndex("v", IvfPqParams.of(16, 4, DistanceType.L2));
    System.out.printf(Locale.ROOT, "built the IVF_PQ on v in %.1f s%n", (System.nanoTime() - t) / 1e9);
  }
}
