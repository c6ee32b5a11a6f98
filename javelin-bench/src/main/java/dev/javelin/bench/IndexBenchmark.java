package dev.javelin.bench;

import dev.javelin.bench.Digest;
import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.index.IndexType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.ReadOptions;
import org.lance.index.IndexParams;
import org.lance.index.scalar.BTreeIndexParams;
import org.lance.ipc.LanceScanner;
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
 * BTree queries by Javelin and by lance-core on {@code rows()} rows of {@code id int64, v int64} (v
 * a scrambling of id: nearly every value once, in no order) in 10 fragments, format 2.1: equality
 * on a random key (one row), a range of about 1,000 rows at a random start, and the floor: an
 * equality on a key that is absent (no rows), which shows each side's fixed cost of an indexed
 * query (planning, the index lookup, and for lance-core the JNI call and the C stream export)
 * apart from the work per row. Data and index are written by either side ({@code writer}) and
 * read by both: the 2x2. Keys and range starts are drawn per query from a seed both sides share,
 * so neither side answers one query over and over from a hot cache. Both keep one open dataset
 * (and its index cache) for the trial.
 *
 * <p>The set-up runs 20 queries of the measured kind on both sides and compares rows and a checksum
 * of every column; the trial fails on a mismatch.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx4g"})
public class IndexBenchmark {
  static final long MODULUS = 10_000_019L;
  static final int FRAGMENTS = 10;
  static final int RANGE_ROWS = 1000;
  static final long SEED = 42;
  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      new Field("v", FieldType.notNullable(new ArrowType.Int(64, true)), null)));

  @Param({"javelin", "lance"})
  public String impl;

  /** Who wrote the data and the index both sides query. */
  @Param({"javelin", "lance"})
  public String writer;

  private BufferAllocator allocator;
  private long rows;
  private Random random;
  private Dataset javelin;
  private org.lance.Session lanceSession;
  private org.lance.Dataset lance;

  /** v is a scrambling of id over [0, 10,000,019): nearly every value occurs once. */
  static long v(long id) {
    return Math.floorMod(id * 2654435761L, MODULUS);
  }

  @Setup(Level.Trial)
  public void setup(BenchmarkParams params) throws Exception {
    ThreadBudget.threads();
    allocator = new RootAllocator();
    rows = BenchData.rows();
    Path dir = dataset(allocator, writer, rows);
    javelin = Dataset.open(dir, allocator);
    lanceSession = org.lance.Session.create();
    lance = org.lance.Dataset.open(allocator, dir.toString(), new ReadOptions.Builder().setSession(lanceSession).build());
    String op = params.getBenchmark().replaceAll("^.*\\.", "");
    Random check = new Random(SEED);
    for (int i = 0; i < 20; i++) {
      String filter = filter(op, check, rows);
      Digest j = (Digest) javelinQuery(javelin, filter, null);
      EqualWork.check(op + " (" + filter + ")", j, lanceQuery(lance, filter, null));
      long want = op.equals("btreeEquality") ? 1 : op.equals("floorAbsentKey") ? 0 : -1;
      if (want >= 0) {
        EqualWork.check(op + " (" + filter + ", rows expected)", j.rows(), want);
      }
    }
    random = new Random(SEED);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    lance.close();
    lanceSession.close();
    allocator.close();
  }

  /** A query of kind {@code op} with its key or range start drawn from {@code r}. */
  static String filter(String op, Random r, long rows) {
    return switch (op) {
      case "btreeEquality" -> "v = " + v((long) (r.nextDouble() * rows));
      case "btreeRange" -> {
        long width = (long) Math.ceil((double) RANGE_ROWS * MODULUS / rows);
        long start = (long) (r.nextDouble() * (MODULUS - width));
        yield "v BETWEEN " + start + " AND " + (start + width - 1);
      }
      case "floorAbsentKey" -> "v = " + (-1 - r.nextInt(1000));
      default -> throw new IllegalStateException("No query for " + op);
    };
  }

  @Benchmark
  public Object btreeEquality(Blackhole bh) throws Exception {
    return query(filter("btreeEquality", random, rows), bh);
  }

  @Benchmark
  public Object btreeRange(Blackhole bh) throws Exception {
    return query(filter("btreeRange", random, rows), bh);
  }

  @Benchmark
  public Object floorAbsentKey(Blackhole bh) throws Exception {
    return query(filter("floorAbsentKey", random, rows), bh);
  }

  private Object query(String filter, Blackhole bh) throws Exception {
    return impl.equals("javelin") ? javelinQuery(javelin, filter, bh) : lanceQuery(lance, filter, bh);
  }

  /** With a blackhole every buffer goes to it and the row count comes back; without, the digest. */
  static Object javelinQuery(Dataset javelin, String filter, Blackhole bh) throws Exception {
    ArrowReader r = javelin.newScan().columns("id", "v").filter(filter).useIndex(true).build();
    if (bh == null) {
      return Digest.of(r, true);
    }
    try (r) {
      return Consume.reader(r, bh);
    }
  }

  static Object lanceQuery(org.lance.Dataset lance, String filter, Blackhole bh) throws Exception {
    try (LanceScanner s = lance.newScan(ThreadBudget.lanceScan().columns(List.of("id", "v")).filter(filter)
        .useScalarIndex(true).build())) {
      ArrowReader r = s.scanBatches();
      if (bh == null) {
        return Digest.of(r, true);
      }
      try (r) {
        return Consume.reader(r, bh);
      }
    }
  }

  /**
   * The dataset (written once under the bench directory and reused): {@code rows} rows in
   * {@value #FRAGMENTS} fragments and a BTree on v, both by {@code writer}.
   */
  static Path dataset(BufferAllocator allocator, String writer, long rows) throws Exception {
    Path dir = BenchData.dir().resolve("index-" + writer + "-" + rows);
    if (!Files.exists(dir)) {
      Path tmp = dir.resolveSibling(dir.getFileName() + ".tmp");
      DatasetBenchData.deleteTree(tmp);
      create(allocator, writer, rows, tmp);
      Files.move(tmp, dir);
    }
    return dir;
  }

  private static void create(BufferAllocator allocator, String writer, long rows, Path path) throws Exception {
    List<VectorSchemaRoot> batches = new ArrayList<>();
    try {
      for (long first = 0; first < rows; first += BenchData.BATCH) {
        int n = (int) Math.min(BenchData.BATCH, rows - first);
        VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
        root.allocateNew();
        BigIntVector id = (BigIntVector) root.getVector("id");
        BigIntVector v = (BigIntVector) root.getVector("v");
        for (int i = 0; i < n; i++) {
          id.setSafe(i, first + i);
          v.setSafe(i, v(first + i));
        }
        root.setRowCount(n);
        batches.add(root);
      }
      int perFragment = (int) Math.max(1, (rows + FRAGMENTS - 1) / FRAGMENTS);
      if (writer.equals("javelin")) {
        Dataset.create(path, batches, WriteParams.builder().fileVersion(LanceFileVersion.V2_1)
            .maxRowsPerFile(perFragment).build(), allocator).createIndex("v", IndexType.BTREE);
      } else {
        try (ArrowReader reader = DatasetBenchData.readerOf(allocator, SCHEMA, batches)) {
          org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString())
              .mode(org.lance.WriteParams.WriteMode.CREATE).maxRowsPerFile(perFragment).dataStorageVersion("2.1")
              .execute().close();
        }
        try (org.lance.Dataset l = org.lance.Dataset.open(path.toString(), allocator)) {
          l.createIndex(List.of("v"), org.lance.index.IndexType.BTREE, Optional.of("v_idx"),
              IndexParams.builder().setScalarIndexParams(BTreeIndexParams.builder().build()).build(), false);
        }
      }
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }
}
