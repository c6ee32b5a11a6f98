package dev.javelin.index.internal.ivf;

import dev.javelin.index.DistanceType;
import dev.javelin.index.IvfParams;
import dev.javelin.index.exceptions.VectorIndexException;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import java.util.function.LongUnaryOperator;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Builds an IVF_SQ index ({@link IvfBuilder}): the bounds are the smallest and largest value of
 * the training sample (normalised for cosine), as Lance trains them; a row's record is its SQ
 * code, one byte per dimension. Extending an index keeps its bounds (values outside saturate).
 *
 * <p>With HNSW parameters it builds an IVF_HNSW_SQ index: the same storage, and at write an HNSW
 * graph per partition over the SQ codes ({@link HnswGraphBuilder}, partitions in parallel); an
 * extension rebuilds every partition's graph with its new rows.
 */
public final class IvfSqBuilder extends IvfBuilder {
  // Null when extending an index: nothing is trained then.
  private final IvfParams params;
  // Null for IVF_SQ.
  private final IvfHnswSqIndex.HnswParams hnsw;
  private ScalarQuantizer sq;

  /**
   * @throws VectorIndexException if the dimension is not positive
   */
  public IvfSqBuilder(int dimension, IvfParams params) {
    this(dimension, params, null);
  }

  /**
   * An IVF_HNSW_SQ index with these graph parameters (null: IVF_SQ).
   *
   * @throws VectorIndexException if the dimension is not positive
   */
  public IvfSqBuilder(int dimension, IvfParams params, IvfHnswSqIndex.HnswParams hnsw) {
    super(checked(dimension), params.distanceType(), new IvfRows(dimension, false));
    this.params = params;
    this.hnsw = hnsw;
  }

  private IvfSqBuilder(IvfFiles.Header header, ScalarQuantizer sq, IvfHnswSqIndex.HnswParams hnsw) {
    super(header.dim(), header.distance(), new IvfRows(header.dim(), false));
    this.params = null;
    this.hnsw = hnsw;
    this.sq = sq;
    this.ivf = new IvfCentroids(dim, header.centroids(), header.distance(), header.loss());
  }

  static IvfSqBuilder of(IvfFiles.Header header, ScalarQuantizer sq, IvfHnswSqIndex.HnswParams hnsw) {
    if (header.dim() < 1) {
      throw new VectorIndexException("An " + header.kind() + " index without a centroid tensor cannot be extended");
    }
    return new IvfSqBuilder(header, sq, hnsw);
  }

  private static int checked(int dimension) {
    if (dimension < 1) {
      throw new VectorIndexException("Vector dimension must be positive, got " + dimension);
    }
    return dimension;
  }

  /**
   * Trains the IVF centroids and the SQ bounds on {@code sampleRows} vectors (row-major in
   * {@code sample}, which is not modified), which should be a random sample of the column.
   *
   * @throws VectorIndexException if there are fewer rows than partitions
   */
  public void train(float[] sample, int sampleRows) {
    if (params == null) {
      throw new IllegalStateException("IvfSqBuilder.train on a builder extending an index");
    }
    trainIvf(sample, sampleRows, params.numPartitions(), params.maxIterations(), params.sampleRate(),
        new Random(params.seed()));
  }

  @Override
  String kind() {
    return hnsw == null ? IvfSqIndex.KIND : IvfHnswSqIndex.KIND;
  }

  @Override
  int bytesPerRow() {
    return dim;
  }

  @Override
  boolean sameEncoding(ObjectStore store, String dir, IvfFiles.Header header, BufferAllocator allocator)
      throws IOException {
    return sq.equals(IvfSqIndex.storage(store, dir, allocator));
  }

  @Override
  void carry(ObjectStore store, String dir, IvfFiles.Header header, LongUnaryOperator move,
      BufferAllocator allocator) throws IOException {
    IvfFiles.Aux aux = IvfSqIndex.read(store, dir, header, allocator);
    if (aux.width() != dim) {
      throw new VectorIndexException("Index " + dir + " holds codes of " + aux.width() + " dimensions, not " + dim);
    }
    rows.carry(aux.offsets(), aux.lengths(), aux.rowIds(), aux.records(), move);
  }

  @Override
  void trainSubIndex(float[] data, int sampleRows, int[] assignment, Random random) {
    this.sq = ScalarQuantizer.fit(data, sampleRows, dim);
  }

  @Override
  void encode(float[] v, int partition, byte[] out, int off, float[] scratch) {
    sq.encode(v, 0, dim, out, off);
  }

  @Override
  void writeIndexFile(ObjectStore store, String dir, IvfRows.Grouped g, BufferAllocator allocator)
      throws IOException {
    if (hnsw == null) {
      super.writeIndexFile(store, dir, g, allocator);
      return;
    }
    int p = g.lengths().length;
    byte[] codes = g.records();
    float scale = sq.distanceScale();
    boolean dot = distanceType == DistanceType.DOT;
    HnswGraphBuilder[] graphs = new HnswGraphBuilder[p];
    IntStream.range(0, p).parallel().forEach(part -> {
      int n = g.lengths()[part];
      if (n == 0) {
        return;
      }
      int base = (int) g.offsets()[part];
      HnswGraphBuilder.Distance d = (a, b) -> {
        int oa = (base + a) * dim;
        int ob = (base + b) * dim;
        if (dot) {
          long sum = 0;
          for (int i = 0; i < dim; i++) {
            sum += (codes[oa + i] & 0xFF) * (codes[ob + i] & 0xFF);
          }
          return (1f - sum) * scale;
        }
        int sum = 0;
        for (int i = 0; i < dim; i++) {
          int x = (codes[oa + i] & 0xFF) - (codes[ob + i] & 0xFF);
          sum += x * x;
        }
        return sum * scale;
      };
      graphs[part] = new HnswGraphBuilder(n, hnsw.maxLevel(), hnsw.m(), hnsw.efConstruction(), d,
          new Random(42L + part)).build();
    });
    IvfHnswSqIndex.writeIndexFile(store, dir, distanceType, ivf.centroids, dim, ivf.loss, graphs, hnsw, allocator);
  }

  @Override
  void writeAux(ObjectStore store, String dir, IvfRows.Grouped g, BufferAllocator allocator) throws IOException {
    IvfFiles.writeAux(store, dir, distanceType, IvfSqIndex.SQ_CODE, dim, g.offsets(), g.lengths(), g.rowIds(),
        g.records(), IvfSqIndex.storage(dim, sq), List.of(), allocator);
  }
}
