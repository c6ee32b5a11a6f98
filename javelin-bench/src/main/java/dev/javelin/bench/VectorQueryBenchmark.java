package dev.javelin.bench;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.index.IvfPqParams;
import dev.javelin.index.internal.ivf.FlatSearch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.ReadOptions;
import org.lance.index.DistanceType;
import org.lance.index.IndexParams;
import org.lance.index.vector.VectorIndexParams;
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
 * IVF_PQ nearest-neighbour queries (k 10) by Javelin and by lance-core, same thread budget, on
 * {@link VectorIndexBenchmark}'s clustered vectors ({@code javelin.bench.vector.rows}, default
 * 100,000 x 128 float32, one fragment), the data and an IVF{@code partitions}_PQ(dim/8) index written
 * by either side ({@code writer}: the 2x2). Each query is a data point plus a little noise, drawn per
 * query from a seed both sides share. {@code nprobes} and {@code refine} (0: no re-ranking) are
 * parameters ({@code -p nprobes=5,20}). Both keep one open dataset (and its index cache).
 *
 * <p>The set-up computes recall@10 of 100 queries on both sides against exact neighbours, with the
 * same code for both; the trial fails if the two recalls differ by more than {@code
 * javelin.bench.vector.recallTolerance} (0.03). The recalls go to the report's notes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx4g"})
public class VectorQueryBenchmark {
  static final int K = 10;
  static final int RECALL_QUERIES = 100;
  static final long SEED = 99;
  static final double RECALL_TOLERANCE =
      Double.parseDouble(System.getProperty("javelin.bench.vector.recallTolerance", "0.03"));

  @Param({"javelin", "lance"})
  public String impl;

  /** Who wrote the data and built the index both sides query. */
  @Param({"javelin", "lance"})
  public String writer;

  @Param({"5"})
  public int nprobes;

  @Param({"10"})
  public int refine;

  private BufferAllocator allocator;
  private float[] data;
  private Random random;
  private Dataset javelin;
  private org.lance.Session lanceSession;
  private org.lance.Dataset lance;

  @Setup(Level.Trial)
  public void setup() throws Exception {
    ThreadBudget.threads();
    allocator = new RootAllocator();
    data = VectorIndexBenchmark.data(true);
    int rows = VectorIndexBenchmark.ROWS;
    Path dir = dataset(allocator, writer, data);
    javelin = Dataset.open(dir, allocator);
    lanceSession = org.lance.Session.create();
    lance = org.lance.Dataset.open(allocator, dir.toString(), new ReadOptions.Builder().setSession(lanceSession).build());
    long[] ids = new long[rows];
    Arrays.setAll(ids, i -> i); // one fragment: a row's address is its number
    Random r = new Random(SEED);
    long jHits = 0;
    long lHits = 0;
    for (int q = 0; q < RECALL_QUERIES; q++) {
      float[] query = query(r);
      FlatSearch flat = new FlatSearch(query, dev.javelin.index.DistanceType.L2, K);
      flat.add(data, 0, rows, ids);
      long[] truth = flat.result().rowIds();
      jHits += hits(VectorIndexBenchmark.javelinIds(javelin, query, nprobes, refine), truth);
      lHits += hits(VectorIndexBenchmark.lanceIds(lance, query, nprobes, refine).stream().mapToLong(Long::longValue)
          .toArray(), truth);
    }
    double jr = (double) jHits / (RECALL_QUERIES * K);
    double lr = (double) lHits / (RECALL_QUERIES * K);
    Notes.add(String.format(Locale.ROOT, "IVF_PQ, data and index by %s, nprobes %d, refine %d: recall@%d Javelin"
        + " %.3f, lance-core %.3f (%d queries)", writer, nprobes, refine, K, jr, lr, RECALL_QUERIES));
    if (Math.abs(jr - lr) > RECALL_TOLERANCE) {
      throw new IllegalStateException(String.format(Locale.ROOT, "Unequal work in IVF_PQ search (data by %s):"
          + " recall@%d Javelin %.3f, lance-core %.3f, more than %.3f apart", writer, K, jr, lr, RECALL_TOLERANCE));
    }
    random = new Random(SEED);
  }

  static long hits(long[] found, long[] truth) {
    return Arrays.stream(found).filter(id -> Arrays.stream(truth).anyMatch(t -> t == id)).count();
  }

  // A data point drawn at random, plus N(0, 0.05^2) per dimension.
  private float[] query(Random r) {
    int dim = VectorIndexBenchmark.DIM;
    int base = r.nextInt(VectorIndexBenchmark.ROWS);
    float[] q = new float[dim];
    for (int j = 0; j < dim; j++) {
      q[j] = data[base * dim + j] + (float) r.nextGaussian() * 0.05f;
    }
    return q;
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    lance.close();
    lanceSession.close();
    allocator.close();
  }

  @Benchmark
  public void nearest(Blackhole bh) throws Exception {
    float[] q = query(random);
    if (impl.equals("javelin")) {
      bh.consume(VectorIndexBenchmark.javelinIds(javelin, q, nprobes, refine));
    } else {
      bh.consume(VectorIndexBenchmark.lanceIds(lance, q, nprobes, refine));
    }
  }

  /**
   * The dataset (written once under the bench directory and reused): {@code data} (the clustered
   * vectors) in one fragment with an IVF_PQ index, both by {@code writer}.
   */
  static Path dataset(BufferAllocator allocator, String writer, float[] data) throws Exception {
    Path dir = BenchData.dir().resolve("vector-" + writer + "-" + VectorIndexBenchmark.ROWS + "x"
        + VectorIndexBenchmark.DIM + "-ivf" + VectorIndexBenchmark.PARTITIONS);
    if (!Files.exists(dir)) {
      Path tmp = dir.resolveSibling(dir.getFileName() + ".tmp");
      DatasetBenchData.deleteTree(tmp);
      create(allocator, writer, data, tmp);
      Files.move(tmp, dir);
    }
    return dir;
  }

  private static void create(BufferAllocator allocator, String writer, float[] data, Path path) throws Exception {
    int rows = VectorIndexBenchmark.ROWS;
    int dim = VectorIndexBenchmark.DIM;
    Schema schema = new Schema(List.of(new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(dim)),
        List.of(new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
            null)))));
    List<VectorSchemaRoot> batches = new ArrayList<>();
    try {
      for (int b = 0; b < rows; b += 10_000) {
        int n = Math.min(10_000, rows - b);
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        root.allocateNew();
        FixedSizeListVector fsl = (FixedSizeListVector) root.getVector(0);
        Float4Vector f = (Float4Vector) fsl.getDataVector();
        for (int i = 0; i < n; i++) {
          fsl.setNotNull(i);
          for (int j = 0; j < dim; j++) {
            f.setSafe(i * dim + j, data[(b + i) * dim + j]);
          }
        }
        f.setValueCount(n * dim);
        root.setRowCount(n);
        batches.add(root);
      }
      int subVectors = dim / 8;
      if (writer.equals("javelin")) {
        Dataset.create(path, batches, WriteParams.builder().maxRowsPerFile(rows + 1).build(), allocator)
            .createIndex("v").name("v_idx").ivfPq(IvfPqParams.of(VectorIndexBenchmark.PARTITIONS, subVectors,
                dev.javelin.index.DistanceType.L2).withIterations(50, VectorIndexBenchmark.PQ_ITERS)).commit();
      } else {
        try (var reader = DatasetBenchData.readerOf(allocator, schema, batches)) {
          org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString())
              .mode(org.lance.WriteParams.WriteMode.CREATE).maxRowsPerFile(rows + 1).execute().close();
        }
        try (org.lance.Dataset l = org.lance.Dataset.open(path.toString(), allocator)) {
          l.createIndex(List.of("v"), org.lance.index.IndexType.IVF_PQ, Optional.of("v_idx"),
              IndexParams.builder().setVectorIndexParams(VectorIndexParams.ivfPq(VectorIndexBenchmark.PARTITIONS, 8,
                  subVectors, DistanceType.L2, VectorIndexBenchmark.PQ_ITERS)).build(), false);
        }
      }
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }
}
