package dev.javelin.index.internal.ivf;

import com.google.protobuf.Any;
import dev.javelin.index.DistanceType;
import dev.javelin.index.IvfPqParams;
import dev.javelin.index.exceptions.VectorIndexException;
import dev.javelin.index.internal.btree.BTreeIndex;
import dev.javelin.index.proto.IndexProtos;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import java.util.function.LongPredicate;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Builds an IVF_PQ index: {@link #train} on a random sample of the column (see
 * {@link IvfPqParams#sampleSize()}), {@link #add} every row with its row id, then {@link #write}
 * the files. Only the codes (m bytes a row), row ids and partitions are kept in memory.
 *
 * <p>{@link #extending} starts instead from an existing index (Lance's incremental optimize): its
 * centroids and codebook are kept, its rows are carried over, and rows added later go into its
 * partitions, encoded with its codebook.
 */
public final class IvfPqBuilder {
  /** The manifest {@code index_details} type URL lance-core 7.0.0 writes for vector indices. */
  public static final String DETAILS_TYPE_URL = "/lance.index.pb.VectorIndexDetails";
  private static final int BLOCK = 1024;

  private final int dim;
  // Null when extending an index: nothing is trained then.
  private final IvfPqParams params;
  private final int m;
  private IvfPqModel model;
  private float[] pqNorms;
  private int rows;
  // Rows of extended indices that keep rejected.
  private long dropped;
  private int[] partitions = new int[1024];
  private long[] rowIds = new long[1024];
  private byte[] codes;

  /**
   * @throws VectorIndexException if the sub-vectors do not divide the dimension
   */
  public IvfPqBuilder(int dimension, IvfPqParams params) {
    if (dimension < 1 || dimension % params.numSubVectors() != 0) {
      throw new VectorIndexException("Vector dimension " + dimension + " is not divisible by "
          + params.numSubVectors() + " sub-vectors");
    }
    this.dim = dimension;
    this.params = params;
    this.m = params.numSubVectors();
    this.codes = new byte[1024 * m];
  }

  private IvfPqBuilder(IvfPqModel model) {
    this.dim = model.dim;
    this.params = null;
    this.m = model.pq.m;
    this.model = model;
    this.pqNorms = model.pq.norms();
    this.codes = new byte[1024 * m];
  }

  /**
   * A builder continuing the index {@code uuid} of the dataset at {@code store}: its model, and
   * those of its rows whose id {@code keep} accepts (the rest, e.g. deleted rows, are dropped).
   * {@link #add} then assigns new rows to its partitions and encodes them with its codebook.
   *
   * @throws VectorIndexException if the files are not an IVF_PQ index Javelin reads
   */
  public static IvfPqBuilder extending(ObjectStore store, String uuid, LongPredicate keep, BufferAllocator allocator)
      throws IOException {
    IvfPqFiles.Contents c = IvfPqFiles.read(store, BTreeIndex.directory(uuid), allocator);
    IvfPqBuilder b = new IvfPqBuilder(c.model());
    b.carry(c, keep);
    return b;
  }

  /**
   * Carries over the rows {@code keep} accepts of another index {@code uuid} of the same model (a
   * delta index of the one this builder extends: same centroids, codebook and distance), codes
   * as they are.
   *
   * @return false, adding nothing, if that index's model differs (its rows must be encoded anew)
   * @throws VectorIndexException if the files are not an IVF_PQ index Javelin reads
   */
  public boolean addRowsOf(ObjectStore store, String uuid, LongPredicate keep, BufferAllocator allocator)
      throws IOException {
    IvfPqFiles.Contents c = IvfPqFiles.read(store, BTreeIndex.directory(uuid), allocator);
    if (model == null || !model.sameAs(c.model())) {
      return false;
    }
    carry(c, keep);
    return true;
  }

  // Appends the accepted rows of an index's files; their codes are stored transposed per partition.
  private void carry(IvfPqFiles.Contents c, LongPredicate keep) {
    for (int part = 0; part < c.lengths().length; part++) {
      int n = c.lengths()[part];
      int base = (int) c.offsets()[part];
      for (int i = 0; i < n; i++) {
        long id = c.rowIds()[base + i];
        if (!keep.test(id)) {
          dropped++;
          continue;
        }
        ensure(rows + 1);
        partitions[rows] = part;
        rowIds[rows] = id;
        for (int j = 0; j < m; j++) {
          codes[rows * m + j] = c.codes()[base * m + j * n + i];
        }
        rows++;
      }
    }
  }

  /**
   * Trains the IVF centroids and the PQ codebook on {@code sampleRows} vectors (row-major in
   * {@code sample}, which is not modified), which should be a random sample of the column.
   *
   * @throws VectorIndexException if there are fewer rows than partitions or than 256
   */
  public void train(float[] sample, int sampleRows) {
    if (params == null) {
      throw new IllegalStateException("IvfPqBuilder.train on a builder extending an index");
    }
    int p = params.numPartitions();
    if (sampleRows < p) {
      throw new VectorIndexException("Cannot train " + p + " IVF partitions on " + sampleRows + " rows");
    }
    if (sampleRows < ProductQuantizer.CENTROIDS) {
      throw new VectorIndexException("Not enough rows to train PQ: needs " + ProductQuantizer.CENTROIDS
          + ", got " + sampleRows);
    }
    Random random = new Random(params.seed());
    float[] data = Arrays.copyOf(sample, sampleRows * dim);
    DistanceType dt = params.distanceType();
    if (dt == DistanceType.COSINE) {
      VectorMath.normalize(data, sampleRows, dim);
    }
    boolean dot = dt == DistanceType.DOT;
    int ivfRows = (int) Math.min(sampleRows, (long) params.sampleRate() * p);
    float[] centroids = KMeans.train(data, ivfRows, dim, p, params.ivfMaxIterations(), dot, random);
    int[] assignment = new int[sampleRows];
    double loss = KMeans.assign(data, sampleRows, dim, centroids, p, dot, assignment);
    int pqRows = (int) Math.min(sampleRows, (long) params.sampleRate() * ProductQuantizer.CENTROIDS);
    if (!dot) {
      for (int r = 0; r < pqRows; r++) {
        int c = assignment[r] * dim;
        for (int i = 0; i < dim; i++) {
          data[r * dim + i] -= centroids[c + i];
        }
      }
    }
    ProductQuantizer pq = ProductQuantizer.train(data, pqRows, dim, params.numSubVectors(),
        params.pqMaxIterations(), dot, random);
    this.model = new IvfPqModel(dim, centroids, pq, dt, loss);
    this.pqNorms = pq.norms();
  }

  /** Assigns {@code n} vectors (row-major, not modified) to partitions and encodes them. */
  public void add(float[] vectors, int n, long[] ids) {
    if (model == null) {
      throw new IllegalStateException("IvfPqBuilder.add before train");
    }
    int[] parts = new int[n];
    byte[] out = new byte[n * m];
    int blocks = (n + BLOCK - 1) / BLOCK;
    IntStream range = IntStream.range(0, blocks);
    if (n > BLOCK) {
      range = range.parallel();
    }
    range.forEach(b -> {
      float[] v = new float[dim];
      float[] scratch = new float[Math.max(model.numPartitions, ProductQuantizer.CENTROIDS)];
      int end = Math.min(n, (b + 1) * BLOCK);
      for (int r = b * BLOCK; r < end; r++) {
        System.arraycopy(vectors, r * dim, v, 0, dim);
        if (model.distanceType == DistanceType.COSINE) {
          VectorMath.normalize(v, 1, dim);
        }
        int p = model.partition(v, 0, scratch);
        parts[r] = p;
        if (model.residual()) {
          for (int i = 0; i < dim; i++) {
            v[i] -= model.centroids[p * dim + i];
          }
        }
        model.pq.encode(v, 0, pqNorms, out, r * m, scratch);
      }
    });
    ensure(rows + n);
    System.arraycopy(parts, 0, partitions, rows, n);
    System.arraycopy(ids, 0, rowIds, rows, n);
    System.arraycopy(out, 0, codes, rows * m, n * m);
    rows += n;
  }

  private void ensure(int capacity) {
    if (capacity > partitions.length) {
      int size = Math.max(capacity, partitions.length * 2);
      partitions = Arrays.copyOf(partitions, size);
      rowIds = Arrays.copyOf(rowIds, size);
      codes = Arrays.copyOf(codes, size * m);
    }
  }

  /** Rows added so far (carried over from extended indices, and added). */
  public int rows() {
    return rows;
  }

  /** Rows of the extended indices that were not carried over (their ids were not kept). */
  public long rowsDropped() {
    return dropped;
  }

  /**
   * Writes {@code index.idx} and {@code auxiliary.idx} under {@code dir} (e.g.
   * {@code _indices/{uuid}}).
   *
   * @return the sizes of the two files, in that order
   */
  public long[] write(ObjectStore store, String dir, BufferAllocator allocator) throws IOException {
    if (model == null) {
      throw new IllegalStateException("IvfPqBuilder.write before train");
    }
    int p = model.numPartitions;
    int[] lengths = new int[p];
    for (int r = 0; r < rows; r++) {
      lengths[partitions[r]]++;
    }
    long[] offsets = new long[p];
    for (int i = 1; i < p; i++) {
      offsets[i] = offsets[i - 1] + lengths[i - 1];
    }
    int[] fill = new int[p];
    long[] outIds = new long[rows];
    byte[] outCodes = new byte[rows * m];
    for (int r = 0; r < rows; r++) {
      int part = partitions[r];
      int idx = fill[part]++;
      int n = lengths[part];
      int base = (int) offsets[part];
      outIds[base + idx] = rowIds[r];
      for (int j = 0; j < m; j++) {
        outCodes[base * m + j * n + idx] = codes[r * m + j];
      }
    }
    return IvfPqFiles.write(store, dir, model, offsets, lengths, outIds, outCodes, allocator);
  }

  /**
   * The manifest {@code index_details} lance-core 7.0.0 writes for these parameters: a
   * {@code VectorIndexDetails} with the metric, the PQ shape and the build parameters.
   */
  public static Any details(IvfPqParams params) {
    IndexProtos.VectorMetricType metric = switch (params.distanceType()) {
      case L2 -> IndexProtos.VectorMetricType.L2;
      case COSINE -> IndexProtos.VectorMetricType.Cosine;
      case DOT -> IndexProtos.VectorMetricType.Dot;
    };
    IndexProtos.VectorIndexDetails d = IndexProtos.VectorIndexDetails.newBuilder()
        .setMetricType(metric)
        .setPq(IndexProtos.VectorIndexDetails.ProductQuantization.newBuilder()
            .setNumBits(IvfPqParams.NUM_BITS).setNumSubVectors(params.numSubVectors()))
        .putBuildParams("lance.ivf.max_iters", Integer.toString(params.ivfMaxIterations()))
        .putBuildParams("lance.ivf.sample_rate", Integer.toString(params.sampleRate()))
        .putBuildParams("lance.pq.max_iters", Integer.toString(params.pqMaxIterations()))
        .putBuildParams("lance.pq.sample_rate", Integer.toString(params.sampleRate()))
        .putBuildParams("lance.pq.kmeans_redos", "1")
        .putBuildParams("lance.skip_transpose", "false")
        .build();
    return Any.newBuilder().setTypeUrl(DETAILS_TYPE_URL).setValue(d.toByteString()).build();
  }
}
