package dev.javelin.bench;

import dev.javelin.core.Dataset;
import dev.javelin.core.Session;
import dev.javelin.core.WriteParams;
import dev.javelin.core.compaction.CompactionOptions;
import dev.javelin.core.compaction.CompactionScope;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.index.IndexType;
import dev.javelin.index.IvfPqParams;
import dev.javelin.index.internal.ivf.FlatSearch;
import dev.javelin.testing.FaultProxy;
import dev.javelin.testing.S3MockServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.ReadOptions;
import org.lance.index.DistanceType;
import org.lance.index.IndexParams;
import org.lance.index.scalar.BTreeIndexParams;
import org.lance.index.vector.VectorIndexParams;
import org.lance.ipc.Query;
import org.lance.ipc.ScanOptions;
import org.lance.schema.SqlExpressions;

/**
 * Javelin against lance-core 7.0.0 on S3: both on the same S3Mock server, both through one
 * {@link FaultProxy} that adds {@code javelin.bench.s3.latencyMs} (20) ms to every request and
 * counts the requests and response bytes of each timed operation. Operations: full scan, filtered
 * scan, take of 1,000 random rows, BTree equality lookup, IVF_PQ query with refine, open of a
 * 1,000-fragment dataset, column repack (against lance-core's compaction, the closest operation
 * it has) and compaction into one fragment. Each on data (and indices) written by Javelin and on
 * data written by lance-core, read by both (the 2x2).
 *
 * <p>Run it with {@code bench/main S3Benchmark}: the script sets {@code LANCE_CPU_THREADS} (which
 * lance-core reads when its native library loads) and passes the same number as {@code
 * -Djavelin.bench.threads}, which Javelin's session CPU pool, scan parallelism and compaction
 * threads take; the harness fails if the two differ. Untimed work (writing the data, building the
 * indices, checking results) runs without the added latency.
 *
 * <p>Every operation's first run on each side is checked against the other's: row count and a
 * checksum over every column's values (order-independent), and for the vector query recall@10
 * against exact neighbours, equal within {@code javelin.bench.s3.recallTolerance}. A mismatch
 * throws (non-zero exit). Random rows and keys are drawn per run from a seed both sides share.
 * Timed runs alternate the two sides; the table gives medians, the ratio of medians as Javelin
 * speed over lance-core speed (above 1: Javelin faster) with the 10th-90th percentile of the
 * per-run ratios ("no difference" when that spread contains 1), and median requests and MB per
 * operation. It is printed and written to {@code bench-data/s3-benchmark.md}.
 */
public final class S3Benchmark {
  static final int THREADS = Integer.getInteger("javelin.bench.threads", 0);
  static final long LATENCY_MS = Long.getLong("javelin.bench.s3.latencyMs", 20);
  static final int ROWS = Integer.getInteger("javelin.bench.s3.rows", 400_000);
  static final int ROWS_PER_FRAGMENT = Integer.getInteger("javelin.bench.s3.rowsPerFragment", 100_000);
  static final int TAKE_ROWS = Integer.getInteger("javelin.bench.s3.takeRows", 1_000);
  /** About 16% of the rows (score is 100 times a standard normal). */
  static final String FILTER = "score > 100";
  static final int VECTOR_ROWS = Integer.getInteger("javelin.bench.s3.vectorRows", 20_000);
  static final int DIM = Integer.getInteger("javelin.bench.s3.dim", 32);
  static final int PARTITIONS = Integer.getInteger("javelin.bench.s3.partitions", 16);
  static final int SUB_VECTORS = Integer.getInteger("javelin.bench.s3.subVectors", DIM / 4);
  static final int NPROBES = Integer.getInteger("javelin.bench.s3.nprobes", 8);
  static final int REFINE = Integer.getInteger("javelin.bench.s3.refine", 10);
  static final int K = 10;
  static final double RECALL_TOLERANCE =
      Double.parseDouble(System.getProperty("javelin.bench.s3.recallTolerance", "0.02"));
  static final int SMALL_FRAGMENTS = Integer.getInteger("javelin.bench.s3.fragments", 1_000);
  static final int SMALL_FRAGMENT_ROWS = Integer.getInteger("javelin.bench.s3.fragmentRows", 20);
  static final int REPACK_ROWS = Integer.getInteger("javelin.bench.s3.repackRows", 100_000);
  static final int REPACK_FRAGMENTS = 4;
  /** Columns added one at a time to the repack data set: each fragment ends with 1 + BACKFILLS data files. */
  static final int BACKFILLS = 3;
  static final int RUNS = Integer.getInteger("javelin.bench.s3.runs", 11);
  static final int REPACK_RUNS = Integer.getInteger("javelin.bench.s3.repackRuns", 5);
  /** Untimed runs per side before the timed ones (the first is the checked one). */
  static final int WARMUP = Integer.getInteger("javelin.bench.s3.warmup", 3);
  /** The same for the repack rows, whose runs each write a fresh copy first. */
  static final int REPACK_WARMUP = Integer.getInteger("javelin.bench.s3.repackWarmup", 2);
  static final long SEED = Long.getLong("javelin.bench.s3.seed", 42);
  static final String[] WRITERS = {"Javelin", "lance-core"};
  /** Which groups of operations run: scans (with take and BTree), vectors, opens, repacks. */
  static final List<String> ONLY =
      List.of(System.getProperty("javelin.bench.s3.only", "scans,vectors,opens,repacks").split(","));
  /** Queries (untimed, without the added latency) over which each side's recall is computed. */
  static final int RECALL_QUERIES = Integer.getInteger("javelin.bench.s3.recallQueries", 100);

  private final FaultProxy proxy;
  private final Session session;
  private final org.lance.Session lanceSession;
  private final BufferAllocator allocator;
  private final Map<String, String> options;
  private final String bucket;
  private final List<Row> rows = new ArrayList<>();

  private S3Benchmark(FaultProxy proxy, Session session, org.lance.Session lanceSession, BufferAllocator allocator,
      Map<String, String> options, String bucket) {
    this.proxy = proxy;
    this.session = session;
    this.lanceSession = lanceSession;
    this.allocator = allocator;
    this.options = options;
    this.bucket = bucket;
  }

  public static void main(String[] args) throws Exception {
    String lanceThreads = System.getenv("LANCE_CPU_THREADS");
    if (THREADS < 1 || lanceThreads == null || Integer.parseInt(lanceThreads.trim()) != THREADS) {
      throw new IllegalStateException("The thread budgets differ: -Djavelin.bench.threads=" + THREADS
          + ", LANCE_CPU_THREADS=" + lanceThreads + " (run it with bench/main, which sets both)");
    }
    String started = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_LOCAL_DATE_TIME) + " UTC";
    String loadBefore = loadAverage();
    S3MockServer s3 = S3MockServer.shared();
    try (FaultProxy proxy = FaultProxy.start(s3.serverEndpoint()).serializeConditionalWrites();
        Session session = Session.builder().cpuThreads(THREADS).build();
        org.lance.Session lanceSession = org.lance.Session.create();
        BufferAllocator allocator = new RootAllocator()) {
      String bucket = s3.createBucket("s3-benchmark");
      S3Benchmark b = new S3Benchmark(proxy, session, lanceSession, allocator, s3.storageOptions(proxy.endpoint()),
          bucket);
      if (ONLY.contains("scans")) {
        b.scans();
      }
      if (ONLY.contains("vectors")) {
        b.vectors();
      }
      if (ONLY.contains("opens")) {
        b.opens();
      }
      if (ONLY.contains("repacks")) {
        b.repacks();
      }
      String report = b.report(started, loadBefore, loadAverage());
      System.out.print(report);
      Path out = BenchData.dir().resolve("s3-benchmark.md");
      Files.writeString(out, report);
      System.out.println("written to " + out);
    }
  }

  // ---------------------------------------------------------------- the operations

  /** Full scan, filtered scan, take and BTree lookup, on a data set (with a BTree on key) each side writes. */
  private void scans() throws Exception {
    Schema schema = scanSchema();
    List<VectorSchemaRoot> batches = scanBatches(ROWS);
    Digest expected = Digest.of(batches);
    Digest expectedFiltered = Digest.of(batches, FILTER);
    try {
      for (String writer : WRITERS) {
        String uri = uri("scan-" + slug(writer));
        long t = System.nanoTime();
        if (writer.equals("Javelin")) {
          javelinCreate(uri, schema, batches, ROWS_PER_FRAGMENT).createIndex("key", IndexType.BTREE);
        } else {
          lanceCreate(uri, schema, batches, ROWS_PER_FRAGMENT);
          try (org.lance.Dataset l = lanceOpen(uri)) {
            l.createIndex(List.of("key"), org.lance.index.IndexType.BTREE, Optional.of("key_idx"),
                IndexParams.builder().setScalarIndexParams(BTreeIndexParams.builder().build()).build(), false);
          }
        }
        System.out.printf(Locale.ROOT, "%s wrote %,d rows and a BTree at %s in %.1f s%n", writer, ROWS, uri,
            (System.nanoTime() - t) / 1e9);
        Dataset ds = javelinOpen(uri);
        try (org.lance.Dataset lance = lanceOpen(uri)) {
          compare("full scan", writer, RUNS, expected,
              (run, check) -> Digest.of(ds.newScan().parallelism(THREADS).build(), check),
              (run, check) -> lanceScan(lance, new ScanOptions.Builder().build(), check));
          compare("filtered scan (" + FILTER + ")", writer, RUNS, expectedFiltered,
              (run, check) -> Digest.of(ds.newScan().parallelism(THREADS).filter(FILTER).build(), check),
              (run, check) -> lanceScan(lance, new ScanOptions.Builder().filter(FILTER).build(), check));
          List<String> columns = schema.getFields().stream().map(Field::getName).toList();
          compare("take " + TAKE_ROWS + " random rows", writer, RUNS, null,
              (run, check) -> {
                try (VectorSchemaRoot r = ds.take(takeOffsets(run), columns)) {
                  return Digest.of(r, check);
                }
              },
              (run, check) -> {
                List<Long> offsets = Arrays.stream(takeOffsets(run)).boxed().toList();
                return Digest.of(lance.take(offsets, columns), check);
              });
          compare("BTree equality (key = ?)", writer, RUNS, null,
              (run, check) -> one(Digest.of(ds.newScan().parallelism(THREADS).filter(keyFilter(run)).build(), check)),
              (run, check) -> one(lanceScan(lance, new ScanOptions.Builder().filter(keyFilter(run))
                  .useScalarIndex(true).build(), check)));
        }
      }
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  /** IVF_PQ query with refine on a one-fragment vector data set, the index built by the writer. */
  private void vectors() throws Exception {
    float[] data = vectorData();
    Schema schema = vectorSchema();
    List<VectorSchemaRoot> batches = vectorBatches(data);
    int queryCount = Math.max(WARMUP + RUNS, RECALL_QUERIES);
    float[][] queries = new float[queryCount][DIM];
    List<Set<Long>> truth = new ArrayList<>();
    Random r = new Random(SEED + 1);
    long[] ids = new long[VECTOR_ROWS];
    Arrays.setAll(ids, i -> i); // one fragment, id 0: a row's address is its number
    for (int q = 0; q < queryCount; q++) {
      int base = r.nextInt(VECTOR_ROWS);
      for (int j = 0; j < DIM; j++) {
        queries[q][j] = data[base * DIM + j] + (float) r.nextGaussian() * 0.05f;
      }
      FlatSearch flat = new FlatSearch(queries[q], dev.javelin.index.DistanceType.L2, K);
      flat.add(data, 0, VECTOR_ROWS, ids);
      Set<Long> t = new HashSet<>();
      for (long id : flat.result().rowIds()) {
        t.add(id);
      }
      truth.add(t);
    }
    try {
      for (String writer : WRITERS) {
        String uri = uri("vector-" + slug(writer));
        long t = System.nanoTime();
        if (writer.equals("Javelin")) {
          javelinCreate(uri, schema, batches, VECTOR_ROWS + 1).createIndex("vector").name("vector_idx")
              .ivfPq(IvfPqParams.of(PARTITIONS, SUB_VECTORS, dev.javelin.index.DistanceType.L2).withIterations(50, 10))
              .commit();
        } else {
          lanceCreate(uri, schema, batches, VECTOR_ROWS + 1);
          try (org.lance.Dataset l = lanceOpen(uri)) {
            l.createIndex(List.of("vector"), org.lance.index.IndexType.IVF_PQ, Optional.of("vector_idx"),
                IndexParams.builder().setVectorIndexParams(
                    VectorIndexParams.ivfPq(PARTITIONS, 8, SUB_VECTORS, DistanceType.L2, 50)).build(), false);
          }
        }
        System.out.printf(Locale.ROOT, "%s wrote %,d x %d vectors and IVF%d_PQ%d at %s in %.1f s%n", writer,
            VECTOR_ROWS, DIM, PARTITIONS, SUB_VECTORS, uri, (System.nanoTime() - t) / 1e9);
        Dataset ds = javelinOpen(uri);
        long[] hits = new long[2];
        long[] asked = new long[2];
        try (org.lance.Dataset lance = lanceOpen(uri)) {
          for (int q = 0; q < RECALL_QUERIES; q++) {
            recall(javelinNearest(ds, queries[q]), truth.get(q), hits, asked, 0);
            recall(lanceNearest(lance, queries[q]), truth.get(q), hits, asked, 1);
          }
          compare("IVF_PQ k=" + K + " nprobes=" + NPROBES + " refine=" + REFINE, writer, RUNS, null,
              (run, check) -> new Digest(javelinNearest(ds, queries[run]).length, 0),
              (run, check) -> new Digest(lanceNearest(lance, queries[run]).length, 0));
        }
        double jr = (double) hits[0] / asked[0];
        double lr = (double) hits[1] / asked[1];
        System.out.printf(Locale.ROOT, "  recall@%d over %d queries: Javelin %.3f, lance-core %.3f%n", K,
            RECALL_QUERIES, jr, lr);
        rows.get(rows.size() - 1).note = String.format(Locale.ROOT, "recall@%d J %.3f / L %.3f", K, jr, lr);
        if (Math.abs(jr - lr) > RECALL_TOLERANCE || jr < 0.3) {
          throw new IllegalStateException(String.format(Locale.ROOT, "IVF_PQ on data written by %s: recall@%d"
              + " Javelin %.3f, lance-core %.3f (tolerance %.3f, at least 0.3 expected)", writer, K, jr, lr,
              RECALL_TOLERANCE));
        }
      }
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  /** Open (latest version) of a data set of SMALL_FRAGMENTS fragments. */
  private void opens() throws Exception {
    Schema schema = scanSchema();
    int total = SMALL_FRAGMENTS * SMALL_FRAGMENT_ROWS;
    List<VectorSchemaRoot> batches = scanBatches(total);
    try {
      for (String writer : WRITERS) {
        String uri = uri("fragments-" + slug(writer));
        long t = System.nanoTime();
        if (writer.equals("Javelin")) {
          javelinCreate(uri, schema, batches, SMALL_FRAGMENT_ROWS);
        } else {
          lanceCreate(uri, schema, batches, SMALL_FRAGMENT_ROWS);
        }
        System.out.printf(Locale.ROOT, "%s wrote %,d fragments of %d rows at %s in %.1f s%n", writer,
            SMALL_FRAGMENTS, SMALL_FRAGMENT_ROWS, uri, (System.nanoTime() - t) / 1e9);
        // A digest of (fragments, rows) as the manifest gives them: nothing else is read.
        compare("open (" + SMALL_FRAGMENTS + " fragments)", writer, RUNS, new Digest(SMALL_FRAGMENTS, total),
            (run, check) -> {
              Dataset ds = javelinOpen(uri);
              return new Digest(ds.manifest().fragments().size(), check ? ds.countRows() : total);
            },
            (run, check) -> {
              try (org.lance.Dataset l = lanceOpen(uri)) {
                return new Digest(l.getFragments().size(), check ? l.countRows() : total);
              }
            });
      }
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  /**
   * Javelin's column repack (each fragment's 1 + BACKFILLS data files into one) against lance-core
   * 7.0.0's compaction of the same fragments into one (it has no repack: its closest operation,
   * which rewrites every column), and both sides' compaction into one fragment. Each run works
   * on a fresh copy written by the writer (untimed): the base columns, then BACKFILLS columns
   * added one at a time.
   */
  private void repacks() throws Exception {
    Schema schema = scanSchema();
    List<VectorSchemaRoot> batches = scanBatches(REPACK_ROWS);
    int perFragment = REPACK_ROWS / REPACK_FRAGMENTS;
    CompactionOptions repack = CompactionOptions.builder().scope(CompactionScope.REPACK_COLUMNS)
        .maxDataFilesPerFragment(1).numThreads(THREADS).build();
    CompactionOptions rewrite = CompactionOptions.builder().scope(CompactionScope.REWRITE_FRAGMENTS)
        .targetRowsPerFragment(REPACK_ROWS * 2L).numThreads(THREADS).build();
    org.lance.compaction.CompactionOptions lanceCompact = org.lance.compaction.CompactionOptions.builder()
        .withTargetRowsPerFragment(REPACK_ROWS * 2L).withNumThreads(THREADS).build();
    try {
      for (String writer : WRITERS) {
        int[] copies = new int[1];
        Digest[] expected = new Digest[1];
        // A fresh backfilled copy by the writer; its digest (read by Javelin) is what the outcome must hold.
        Supplier<String> prepare = () -> {
          String uri = uri("repack-" + slug(writer) + "-" + copies[0]++);
          try {
            backfilled(writer, uri, schema, batches, perFragment);
            if (expected[0] == null) {
              expected[0] = Digest.of(javelinOpen(uri).newScan().build(), true);
            }
          } catch (Exception e) {
            throw new IllegalStateException("Could not write the repack data set at " + uri, e);
          }
          return uri;
        };
        Op lanceOp = lanceCompaction(prepare, lanceCompact, expected);
        Row repackRow = compare("column repack (" + (1 + BACKFILLS) + " files -> 1 per fragment) vs lance-core"
            + " compact into 1 fragment", writer, REPACK_WARMUP, REPACK_RUNS, null,
            javelinCompaction(prepare, repack, expected, true), lanceOp);
        repackRow.note = "lance-core has no repack: its compaction of the same fragments (a full rewrite)";
        Row compactRow = compare("compact into 1 fragment (both full rewrites)", writer, REPACK_WARMUP, REPACK_RUNS,
            null, javelinCompaction(prepare, rewrite, expected, false), lanceOp);
        compactRow.note = "same lance-core operation as the row above, timed again";
      }
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  // A Javelin compaction of a fresh copy; on a checked run, the outcome must read as the input and
  // have one data file per fragment (repack) or one fragment (rewrite).
  private Op javelinCompaction(Supplier<String> prepare, CompactionOptions options,
      Digest[] expected, boolean repack) {
    return new Op() {
      @Override
      public Digest run(int run, boolean check) {
        throw new UnsupportedOperationException("metered");
      }

      @Override
      public Digest metered(Meter meter, int run, boolean check) throws Exception {
        String uri = prepare.get();
        Dataset ds = javelinOpen(uri);
        meter.start();
        Dataset after = ds.compact(options);
        meter.stop();
        if (check) {
          List<dev.javelin.table.Fragment> fragments = after.manifest().fragments();
          boolean shaped = repack ? fragments.stream().allMatch(f -> f.files().size() == 1)
              : fragments.size() == 1;
          if (!shaped) {
            throw new IllegalStateException("Javelin's compaction of " + uri + " left " + fragments.size()
                + " fragments with " + fragments.stream().map(f -> f.files().size()).toList() + " files");
          }
          return expect(Digest.of(javelinOpen(uri).newScan().build(), true), expected[0], "Javelin", uri);
        }
        return new Digest(after.countRows(), 0);
      }
    };
  }

  private static Digest expect(Digest got, Digest want, String side, String uri) {
    if (!got.equals(want)) {
      throw new IllegalStateException(side + "'s compaction of " + uri + " reads as " + got + ", its input as " + want);
    }
    return got;
  }

  private Op lanceCompaction(Supplier<String> prepare,
      org.lance.compaction.CompactionOptions options, Digest[] expected) {
    return new Op() {
      @Override
      public Digest run(int run, boolean check) {
        throw new UnsupportedOperationException("metered");
      }

      @Override
      public Digest metered(Meter meter, int run, boolean check) throws Exception {
        String uri = prepare.get();
        try (org.lance.Dataset l = lanceOpen(uri)) {
          meter.start();
          l.compact(options);
          meter.stop();
        }
        try (org.lance.Dataset l = lanceOpen(uri)) {
          if (l.getFragments().size() != 1) {
            throw new IllegalStateException("lance-core's compaction of " + uri + " left " + l.getFragments().size()
                + " fragments");
          }
          return check ? expect(lanceScan(l, new ScanOptions.Builder().build(), true), expected[0], "lance-core", uri)
              : new Digest(l.countRows(), 0);
        }
      }
    };
  }

  private void backfilled(String writer, String uri, Schema schema, List<VectorSchemaRoot> batches, int perFragment)
      throws Exception {
    if (writer.equals("Javelin")) {
      Dataset ds = javelinCreate(uri, schema, batches, perFragment);
      for (int i = 1; i <= BACKFILLS; i++) {
        ds = ds.addColumns(Map.of("b" + i, "id * " + (i + 1)));
      }
    } else {
      lanceCreate(uri, schema, batches, perFragment);
      try (org.lance.Dataset l = lanceOpen(uri)) {
        for (int i = 1; i <= BACKFILLS; i++) {
          l.addColumns(new SqlExpressions.Builder().withExpression("b" + i, "id * " + (i + 1)).build(),
              Optional.empty());
        }
      }
    }
  }

  // ---------------------------------------------------------------- measuring

  /** One side's operation: run number {@code run} (its random rows or query), checked or not. */
  interface Op {
    Digest run(int run, boolean check) throws Exception;

    /** The run with the meter around the part to time (by default, all of it). */
    default Digest metered(Meter meter, int run, boolean check) throws Exception {
      meter.start();
      Digest d = run(run, check);
      meter.stop();
      return d;
    }
  }

  /**
   * Times one run and counts its requests and response bytes at the proxy, by kind. The latency
   * is on only between start and stop, so untimed work (copies, checks) goes at full speed.
   */
  final class Meter {
    private long t0;
    private long requests0;
    private long bytes0;
    double ms;
    long requests;
    long bytes;
    int peak;
    Map<String, Long> kinds;
    List<FaultProxy.Exchange> exchanges;

    void start() {
      proxy.latency(Duration.ofMillis(LATENCY_MS));
      proxy.clearLog();
      requests0 = proxy.requests();
      bytes0 = proxy.responseBytes();
      t0 = System.nanoTime();
    }

    void stop() {
      ms = (System.nanoTime() - t0) / 1e6;
      requests = proxy.requests() - requests0;
      bytes = proxy.responseBytes() - bytes0;
      proxy.latency(Duration.ZERO);
      exchanges = proxy.exchanges();
      kinds = new TreeMap<>();
      for (FaultProxy.Exchange e : exchanges) {
        kinds.merge(kind(e), 1L, Long::sum);
      }
      peak = peakInFlight(exchanges);
    }
  }

  /** The most requests in flight at once (arrived at the proxy, not yet answered). */
  static int peakInFlight(List<FaultProxy.Exchange> exchanges) {
    long[][] events = new long[exchanges.size() * 2][];
    int n = 0;
    for (FaultProxy.Exchange e : exchanges) {
      events[n++] = new long[] {e.receivedNanos(), 1};
      events[n++] = new long[] {e.answeredNanos(), -1};
    }
    // At equal times an answer goes first: back-to-back requests are not concurrent.
    Arrays.sort(events, (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    int now = 0;
    int peak = 0;
    for (long[] ev : events) {
      now += (int) ev[1];
      peak = Math.max(peak, now);
    }
    return peak;
  }

  static String kind(FaultProxy.Exchange e) {
    String query = e.target().contains("?") ? e.target().substring(e.target().indexOf('?') + 1) : "";
    return switch (e.method()) {
      case "GET" -> query.contains("list-type") || query.contains("prefix=") || query.contains("delimiter=")
          ? "LIST" : e.range() != null ? "GET range" : "GET whole";
      case "HEAD" -> "HEAD";
      case "PUT" -> query.contains("partNumber") ? "PUT part" : "PUT";
      case "POST" -> "POST";
      case "DELETE" -> "DELETE";
      default -> e.method();
    };
  }

  /** One line of the table. */
  static final class Row {
    final String operation;
    final String writer;
    final double[] javelinMs;
    final double[] lanceMs;
    final long[] javelinRequests;
    final long[] lanceRequests;
    final long[] javelinBytes;
    final long[] lanceBytes;
    final long[] javelinPeak;
    final long[] lancePeak;
    final Map<String, Long> javelinKinds = new TreeMap<>();
    final Map<String, Long> lanceKinds = new TreeMap<>();
    String note = "";

    Row(String operation, String writer, int runs) {
      this.operation = operation;
      this.writer = writer;
      javelinMs = new double[runs];
      lanceMs = new double[runs];
      javelinRequests = new long[runs];
      lanceRequests = new long[runs];
      javelinBytes = new long[runs];
      lanceBytes = new long[runs];
      javelinPeak = new long[runs];
      lancePeak = new long[runs];
    }
  }

  /**
   * Checks the two sides against each other (and {@code expected}, when given) on run 0, warms
   * both up, then times {@code runs} runs of each, alternating.
   */
  private Row compare(String operation, String writer, int runs, Digest expected, Op javelin, Op lance)
      throws Exception {
    return compare(operation, writer, WARMUP, runs, expected, javelin, lance);
  }

  private Row compare(String operation, String writer, int warmup, int runs, Digest expected, Op javelin, Op lance)
      throws Exception {
    Meter meter = new Meter();
    Digest j = javelin.metered(meter, 0, true);
    Digest l = lance.metered(meter, 0, true);
    if (!j.equals(l) || (expected != null && !j.equals(expected))) {
      throw new IllegalStateException(operation + " on data written by " + writer + ": Javelin read " + j
          + ", lance-core " + l + (expected == null ? "" : ", expected " + expected));
    }
    for (int w = 1; w < warmup; w++) {
      javelin.metered(meter, w, false);
      lance.metered(meter, w, false);
    }
    Row row = new Row(operation, writer, runs);
    for (int i = 0; i < runs; i++) {
      int run = warmup + i;
      Digest jd = javelin.metered(meter, run, false);
      row.javelinMs[i] = meter.ms;
      row.javelinRequests[i] = meter.requests;
      row.javelinBytes[i] = meter.bytes;
      row.javelinPeak[i] = meter.peak;
      trace(operation, writer, "Javelin", i, meter);
      meter.kinds.forEach((k, n) -> row.javelinKinds.merge(k, n, Long::sum));
      Digest ld = lance.metered(meter, run, false);
      row.lanceMs[i] = meter.ms;
      row.lanceRequests[i] = meter.requests;
      row.lanceBytes[i] = meter.bytes;
      row.lancePeak[i] = meter.peak;
      trace(operation, writer, "lance-core", i, meter);
      meter.kinds.forEach((k, n) -> row.lanceKinds.merge(k, n, Long::sum));
      if (jd.rows() != ld.rows()) {
        throw new IllegalStateException(operation + " on data written by " + writer + ", run " + run
            + ": Javelin returned " + jd.rows() + " rows, lance-core " + ld.rows());
      }
    }
    rows.add(row);
    System.out.printf(Locale.ROOT, "%-60s %-10s Javelin %9.1f ms %6d req | lance-core %9.1f ms %6d req | %s%n"
        + "    Javelin %s, in flight %d | lance-core %s, in flight %d%n", operation, writer, median(row.javelinMs),
        (long) median(row.javelinRequests), median(row.lanceMs), (long) median(row.lanceRequests), ratio(row),
        kinds(row.javelinKinds, runs), (long) median(row.javelinPeak), kinds(row.lanceKinds, runs),
        (long) median(row.lancePeak));
    return row;
  }

  // With -Djavelin.bench.s3.trace=true, each request of the first timed run: when, how long, what.
  private static void trace(String operation, String writer, String side, int run, Meter meter) {
    if (run != 0 || !Boolean.getBoolean("javelin.bench.s3.trace")) {
      return;
    }
    System.out.printf(Locale.ROOT, "  trace: %s on data written by %s, %s: %d requests%n", operation, writer, side,
        meter.exchanges.size());
    long t0 = meter.exchanges.stream().mapToLong(FaultProxy.Exchange::receivedNanos).min().orElse(0);
    for (FaultProxy.Exchange e : meter.exchanges) {
      System.out.printf(Locale.ROOT, "    +%7.1f ms %6.1f ms %s %s %s -> %d, %d bytes%n",
          (e.receivedNanos() - t0) / 1e6, (e.answeredNanos() - e.receivedNanos()) / 1e6, e.method(), e.target(), e.range() == null ? "" : e.range(),
          e.status(), e.responseBytes());
    }
  }

  // ---------------------------------------------------------------- the report

  private String report(String started, String loadBefore, String loadAfter) {
    StringBuilder out = new StringBuilder();
    out.append("# Javelin vs lance-core 7.0.0 on S3 (S3Mock behind a ").append(LATENCY_MS)
        .append(" ms-per-request proxy)\n\n");
    out.append("- date: ").append(started).append("; machine: ").append(Runtime.getRuntime().availableProcessors())
        .append(" cores (").append(System.getProperty("os.name")).append(", Java ")
        .append(System.getProperty("java.version")).append("); load average before ").append(loadBefore)
        .append(", after ").append(loadAfter).append(" (the machine is shared: other builds may have run)\n");
    out.append("- thread budget: ").append(THREADS).append(" compute threads each side (lance-core: LANCE_CPU_THREADS=")
        .append(THREADS).append("; Javelin: session cpuThreads, scan parallelism and compaction numThreads ")
        .append(THREADS).append("). I/O as each library sets it: Javelin's session I/O pool and S3 client defaults,")
        .append(" lance-core's object store defaults\n");
    out.append(String.format(Locale.ROOT, "- sizes: scans %,d rows (id, key, score, name) in fragments of %,d, format"
        + " 2.1, BTree on key; take %,d random rows; vectors %,d x %d float32 in one fragment, IVF%d_PQ%d (8 bits),"
        + " k=%d, nprobes=%d, refine=%d; open: %,d fragments of %d rows; repack: %,d rows in %d fragments, %d"
        + " columns added one at a time (%d files per fragment)%n", ROWS, ROWS_PER_FRAGMENT, TAKE_ROWS, VECTOR_ROWS,
        DIM, PARTITIONS, SUB_VECTORS, K, NPROBES, REFINE, SMALL_FRAGMENTS, SMALL_FRAGMENT_ROWS, REPACK_ROWS,
        REPACK_FRAGMENTS, BACKFILLS, 1 + BACKFILLS));
    out.append(String.format(Locale.ROOT, "- runs: %d warm-up (the first checked: rows + checksum of every column,"
        + " or recall) then %d timed per side, alternating (repack rows: %d and %d); seed %d%n", WARMUP, RUNS,
        REPACK_WARMUP, REPACK_RUNS, SEED));
    out.append("- times: median ms (p10-p90); ratio = Javelin speed / lance-core speed = lance-core median time /"
        + " Javelin median time (>1: Javelin faster), with p10-p90 of the per-run ratios; \"no difference\" when"
        + " that spread contains 1.0. Requests and MB (response bodies) per operation, medians, counted at the proxy."
        + "\n\n");
    out.append("| operation | data written by | Javelin ms | lance-core ms | ratio | requests J/L | MB J/L |\n");
    out.append("|---|---|---|---|---|---|---|\n");
    for (Row r : rows) {
      out.append(String.format(Locale.ROOT, "| %s | %s | %.1f (%.1f-%.1f) | %.1f (%.1f-%.1f) | %s | %d / %d |"
          + " %.2f / %.2f |%n", r.operation, r.writer, median(r.javelinMs), percentile(r.javelinMs, 0.1),
          percentile(r.javelinMs, 0.9), median(r.lanceMs), percentile(r.lanceMs, 0.1), percentile(r.lanceMs, 0.9),
          ratio(r), (long) median(r.javelinRequests), (long) median(r.lanceRequests),
          median(r.javelinBytes) / 1e6, median(r.lanceBytes) / 1e6));
    }
    out.append("\nRequests by kind, mean per operation (GET range: a GET with a Range header; LIST: a"
        + " list-objects GET), and the most requests in flight at once (median over the runs):\n\n");
    out.append("| operation | data written by | in flight J/L | Javelin | lance-core | note |\n"
        + "|---|---|---|---|---|---|\n");
    for (Row r : rows) {
      out.append("| ").append(r.operation).append(" | ").append(r.writer).append(" | ")
          .append((long) median(r.javelinPeak)).append(" / ").append((long) median(r.lancePeak)).append(" | ")
          .append(kinds(r.javelinKinds, r.javelinMs.length)).append(" | ").append(kinds(r.lanceKinds, r.lanceMs.length))
          .append(" | ").append(r.note).append(" |\n");
    }
    return out.toString();
  }

  private static String kinds(Map<String, Long> kinds, int runs) {
    List<String> parts = new ArrayList<>();
    kinds.forEach((k, n) -> parts.add(String.format(Locale.ROOT, "%s %.1f", k, (double) n / runs)));
    return parts.isEmpty() ? "none" : String.join(", ", parts);
  }

  static String ratio(Row r) {
    double[] perRun = new double[r.javelinMs.length];
    for (int i = 0; i < perRun.length; i++) {
      perRun[i] = r.lanceMs[i] / r.javelinMs[i];
    }
    double ratio = median(r.lanceMs) / median(r.javelinMs);
    double lo = percentile(perRun, 0.1);
    double hi = percentile(perRun, 0.9);
    String text = String.format(Locale.ROOT, "%.2fx (%.2f-%.2f)", ratio, lo, hi);
    return lo <= 1.0 && hi >= 1.0 ? "no difference: " + text : text;
  }

  static double median(double[] x) {
    return percentile(x, 0.5);
  }

  static double median(long[] x) {
    return percentile(Arrays.stream(x).asDoubleStream().toArray(), 0.5);
  }

  /** Linear interpolation between the closest ranks. */
  static double percentile(double[] x, double p) {
    double[] s = x.clone();
    Arrays.sort(s);
    double at = p * (s.length - 1);
    int lo = (int) Math.floor(at);
    int hi = Math.min(lo + 1, s.length - 1);
    return s[lo] + (s[hi] - s[lo]) * (at - lo);
  }

  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  // ---------------------------------------------------------------- each side's calls

  private String uri(String name) {
    return "s3://" + bucket + "/" + name;
  }

  private static String slug(String writer) {
    return writer.equals("Javelin") ? "javelin" : "lance";
  }

  private WriteParams writeParams(int rowsPerFile) {
    return WriteParams.builder().fileVersion(LanceFileVersion.V2_1).maxRowsPerFile(rowsPerFile)
        .storageOptions(options).build();
  }

  private Dataset javelinOpen(String uri) {
    return Dataset.builder(uri).storageOptions(options).session(session).load();
  }

  private org.lance.Dataset lanceOpen(String uri) {
    return org.lance.Dataset.open(allocator, uri, new ReadOptions.Builder().setStorageOptions(options)
        .setSession(lanceSession).build());
  }

  private Dataset javelinCreate(String uri, Schema schema, List<VectorSchemaRoot> batches, int rowsPerFile)
      throws IOException {
    try (ArrowReader reader = DatasetBenchData.readerOf(allocator, schema, batches)) {
      return Dataset.create(uri, reader, writeParams(rowsPerFile), session);
    }
  }

  private void lanceCreate(String uri, Schema schema, List<VectorSchemaRoot> batches, int rowsPerFile)
      throws Exception {
    try (ArrowReader reader = DatasetBenchData.readerOf(allocator, schema, batches)) {
      org.lance.Dataset.write().allocator(allocator).reader(reader).uri(uri)
          .mode(org.lance.WriteParams.WriteMode.CREATE).storageOptions(options).maxRowsPerFile(rowsPerFile)
          .dataStorageVersion("2.1").execute().close();
    }
  }

  private static Digest lanceScan(org.lance.Dataset lance, ScanOptions options, boolean check) throws Exception {
    try (var scanner = lance.newScan(options)) {
      return Digest.of(scanner.scanBatches(), check);
    }
  }

  private static long[] javelinNearest(Dataset ds, float[] q) {
    // Exactly NPROBES partitions, as lance-core's setNprobes (minimum = maximum).
    return ds.nearest("vector", q).k(K).nprobes(NPROBES).maximumNprobes(NPROBES).refineFactor(REFINE)
        .neighbors().rowIds();
  }

  private static long[] lanceNearest(org.lance.Dataset lance, float[] q) throws Exception {
    Query query = new Query.Builder().setColumn("vector").setKey(q).setK(K).setNprobes(NPROBES)
        .setRefineFactor(REFINE).build();
    ScanOptions opts = new ScanOptions.Builder().columns(List.of("_distance")).withRowId(true).nearest(query).build();
    List<Long> out = new ArrayList<>();
    try (var s = lance.newScan(opts); ArrowReader r = s.scanBatches()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot root = r.getVectorSchemaRoot();
        UInt8Vector ids = (UInt8Vector) root.getVector("_rowid");
        for (int i = 0; i < root.getRowCount(); i++) {
          out.add(ids.get(i));
        }
      }
    }
    return out.stream().mapToLong(Long::longValue).toArray();
  }

  // A key lookup finds its one row.
  private static Digest one(Digest d) {
    if (d.rows() != 1) {
      throw new IllegalStateException("A key lookup found " + d.rows() + " rows, not 1");
    }
    return d;
  }

  // Adds a query's hits against the exact neighbours to side's tally.
  private static void recall(long[] ids, Set<Long> truth, long[] hits, long[] asked, int side) {
    hits[side] += Arrays.stream(ids).filter(truth::contains).count();
    asked[side] += K;
  }

  // ---------------------------------------------------------------- the data

  static Schema scanSchema() {
    return new Schema(List.of(
        new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        new Field("key", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        new Field("score", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null),
        new Field("name", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)));
  }

  /**
   * DatasetBenchData's rows (id, score, name) with {@code key}, a scrambling of id
   * ({@link IndexBenchmark#v}): unique, in no order, so only an index finds a key quickly.
   */
  private List<VectorSchemaRoot> scanBatches(long count) {
    List<VectorSchemaRoot> out = new ArrayList<>();
    for (VectorSchemaRoot b : DatasetBenchData.batches(allocator, 0, count)) {
      BigIntVector key = new BigIntVector(scanSchema().getFields().get(1), allocator);
      key.allocateNew(b.getRowCount());
      BigIntVector id = (BigIntVector) b.getVector("id");
      for (int i = 0; i < b.getRowCount(); i++) {
        key.set(i, IndexBenchmark.v(id.get(i)));
      }
      key.setValueCount(b.getRowCount());
      List<FieldVector> vectors = List.of(id, key, b.getVector("score"), b.getVector("name"));
      out.add(new VectorSchemaRoot(scanSchema().getFields(), vectors, b.getRowCount()));
    }
    return out;
  }

  /** The offsets of run {@code run}'s take: distinct, ascending, drawn from a seed both sides share. */
  static long[] takeOffsets(int run) {
    return new Random(SEED * 1_000 + run).longs(0, ROWS).distinct().limit(TAKE_ROWS).sorted().toArray();
  }

  /** Run {@code run}'s BTree query: the key of a row drawn from a seed both sides share. */
  static String keyFilter(int run) {
    return "key = " + IndexBenchmark.v(new Random(SEED * 2_000 + run).nextInt(ROWS));
  }

  static Schema vectorSchema() {
    Field item = new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
        null);
    return new Schema(List.of(
        new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        new Field("vector", FieldType.nullable(new ArrowType.FixedSizeList(DIM)), List.of(item))));
  }

  /** Clustered vectors: 64 centres in [0, 4)^d, each point a centre plus N(0, 0.3^2) noise per dimension. */
  static float[] vectorData() {
    Random r = new Random(SEED + 2);
    float[] centres = new float[64 * DIM];
    for (int i = 0; i < centres.length; i++) {
      centres[i] = r.nextFloat() * 4;
    }
    float[] v = new float[VECTOR_ROWS * DIM];
    for (int i = 0; i < VECTOR_ROWS; i++) {
      int c = r.nextInt(64);
      for (int j = 0; j < DIM; j++) {
        v[i * DIM + j] = centres[c * DIM + j] + (float) r.nextGaussian() * 0.3f;
      }
    }
    return v;
  }

  private List<VectorSchemaRoot> vectorBatches(float[] data) {
    List<VectorSchemaRoot> out = new ArrayList<>();
    for (int first = 0; first < VECTOR_ROWS; first += BenchData.BATCH) {
      int n = Math.min(BenchData.BATCH, VECTOR_ROWS - first);
      VectorSchemaRoot root = VectorSchemaRoot.create(vectorSchema(), allocator);
      root.allocateNew();
      BigIntVector id = (BigIntVector) root.getVector("id");
      FixedSizeListVector fsl = (FixedSizeListVector) root.getVector("vector");
      Float4Vector items = (Float4Vector) fsl.getDataVector();
      for (int i = 0; i < n; i++) {
        id.setSafe(i, first + i);
        fsl.setNotNull(i);
        for (int j = 0; j < DIM; j++) {
          items.setSafe(i * DIM + j, data[(first + i) * DIM + j]);
        }
      }
      items.setValueCount(n * DIM);
      root.setRowCount(n);
      out.add(root);
    }
    return out;
  }
}
