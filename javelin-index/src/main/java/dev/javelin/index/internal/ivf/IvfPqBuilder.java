package dev.javelin.index.internal.ivf;

import com.google.protobuf.Any;
import dev.javelin.index.DistanceType;
import dev.javelin.index.IvfPqParams;
import dev.javelin.index.exceptions.VectorIndexException;
import dev.javelin.index.proto.IndexProtos;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.util.Random;
import java.util.function.LongUnaryOperator;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Builds an IVF_PQ index ({@link IvfBuilder}): trains the PQ codebook on the sample's residuals
 * (no residuals for DOT) and encodes each row as m bytes of PQ codes, stored transposed per
 * partition. Extending an index keeps its codebook.
 */
public final class IvfPqBuilder extends IvfBuilder {
  /** The manifest {@code index_details} type URL lance-core 7.0.0 writes for vector indices. */
  public static final String DETAILS_TYPE_URL = "/lance.index.pb.VectorIndexDetails";

  // Null when extending an index: nothing is trained then.
  private final IvfPqParams params;
  private final int m;
  private IvfPqModel model;
  private float[] pqNorms;

  /**
   * @throws VectorIndexException if the sub-vectors do not divide the dimension
   */
  public IvfPqBuilder(int dimension, IvfPqParams params) {
    super(dimension, params.distanceType(), new IvfRows(params.numSubVectors(), true));
    if (dimension < 1 || dimension % params.numSubVectors() != 0) {
      throw new VectorIndexException("Vector dimension " + dimension + " is not divisible by "
          + params.numSubVectors() + " sub-vectors");
    }
    this.params = params;
    this.m = params.numSubVectors();
  }

  private IvfPqBuilder(IvfPqModel model) {
    super(model.dim, model.distanceType, new IvfRows(model.pq.m, true));
    this.params = null;
    this.m = model.pq.m;
    this.model = model;
    this.ivf = model.ivf;
    this.pqNorms = model.pq.norms();
  }

  /** A builder adding rows to an index of this model (see {@link IvfBuilder#extending}). */
  static IvfPqBuilder of(IvfPqModel model) {
    return new IvfPqBuilder(model);
  }

  @Override
  String kind() {
    return IvfPqFiles.KIND;
  }

  @Override
  int bytesPerRow() {
    return m;
  }

  @Override
  boolean sameEncoding(ObjectStore store, String dir, IvfFiles.Header header, BufferAllocator allocator)
      throws IOException {
    return model.sameAs(IvfPqFiles.read(store, dir, header, allocator).model());
  }

  @Override
  void carry(ObjectStore store, String dir, IvfFiles.Header header, LongUnaryOperator move,
      BufferAllocator allocator) throws IOException {
    IvfPqFiles.Contents c = IvfPqFiles.read(store, dir, header, allocator);
    rows.carry(c.offsets(), c.lengths(), c.rowIds(), c.codes(), move);
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
    trainIvf(sample, sampleRows, p, params.ivfMaxIterations(), params.sampleRate(), new Random(params.seed()));
  }

  @Override
  void trainSubIndex(float[] data, int sampleRows, int[] assignment, Random random) {
    boolean dot = distanceType == DistanceType.DOT;
    int pqRows = (int) Math.min(sampleRows, (long) params.sampleRate() * ProductQuantizer.CENTROIDS);
    if (!dot) {
      for (int r = 0; r < pqRows; r++) {
        int c = assignment[r] * dim;
        for (int i = 0; i < dim; i++) {
          data[r * dim + i] -= ivf.centroids[c + i];
        }
      }
    }
    ProductQuantizer pq = ProductQuantizer.train(data, pqRows, dim, params.numSubVectors(),
        params.pqMaxIterations(), dot, random);
    this.model = new IvfPqModel(dim, ivf.centroids, pq, distanceType, ivf.loss);
    this.ivf = model.ivf;
    this.pqNorms = pq.norms();
  }

  @Override
  void encode(float[] v, int partition, byte[] out, int off, float[] scratch) {
    if (model.residual()) {
      for (int i = 0; i < dim; i++) {
        v[i] -= model.centroids[partition * dim + i];
      }
    }
    model.pq.encode(v, 0, pqNorms, out, off, scratch);
  }

  @Override
  void writeAux(ObjectStore store, String dir, IvfRows.Grouped g, BufferAllocator allocator) throws IOException {
    IvfPqFiles.writeAux(store, dir, model, g.offsets(), g.lengths(), g.rowIds(), g.records(), allocator);
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
