package dev.javelin.index.internal.ivf;

import dev.javelin.index.IvfParams;
import dev.javelin.index.exceptions.VectorIndexException;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import java.util.function.LongUnaryOperator;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Builds an IVF_FLAT index ({@link IvfBuilder}): a row's record is its vector (normalised for
 * cosine), as float32.
 */
public final class IvfFlatBuilder extends IvfBuilder {
  // Null when extending an index: nothing is trained then.
  private final IvfParams params;

  /**
   * @throws VectorIndexException if the dimension is not positive
   */
  public IvfFlatBuilder(int dimension, IvfParams params) {
    super(checked(dimension), params.distanceType(), new IvfRows(dimension * 4, false));
    this.params = params;
  }

  IvfFlatBuilder(IvfFiles.Header header) {
    super(dimensionOf(header), header.distance(), new IvfRows(dimensionOf(header) * 4, false));
    this.params = null;
    this.ivf = new IvfCentroids(dim, header.centroids(), header.distance(), header.loss());
  }

  private static int checked(int dimension) {
    if (dimension < 1) {
      throw new VectorIndexException("Vector dimension must be positive, got " + dimension);
    }
    return dimension;
  }

  // index.idx's centroid tensor is [partitions, dim]: its dimension is the index's.
  private static int dimensionOf(IvfFiles.Header header) {
    if (header.dim() < 1) {
      throw new VectorIndexException("An " + header.kind() + " index without a centroid tensor cannot be extended");
    }
    return header.dim();
  }

  /**
   * Trains the IVF centroids on {@code sampleRows} vectors (row-major in {@code sample}, which is
   * not modified), which should be a random sample of the column.
   *
   * @throws VectorIndexException if there are fewer rows than partitions
   */
  public void train(float[] sample, int sampleRows) {
    if (params == null) {
      throw new IllegalStateException("IvfFlatBuilder.train on a builder extending an index");
    }
    trainIvf(sample, sampleRows, params.numPartitions(), params.maxIterations(), params.sampleRate(),
        new Random(params.seed()));
  }

  @Override
  String kind() {
    return IvfFlatIndex.KIND;
  }

  @Override
  int bytesPerRow() {
    return dim * 4;
  }

  @Override
  boolean sameEncoding(ObjectStore store, String dir, IvfFiles.Header header, BufferAllocator allocator) {
    return true;
  }

  @Override
  void carry(ObjectStore store, String dir, IvfFiles.Header header, LongUnaryOperator move,
      BufferAllocator allocator) throws IOException {
    IvfFiles.Aux aux = IvfFlatIndex.read(store, dir, header, allocator);
    if (aux.width() != dim) {
      throw new VectorIndexException("Index " + dir + " holds vectors of " + aux.width() + " dimensions, not " + dim);
    }
    rows.carry(aux.offsets(), aux.lengths(), aux.rowIds(), aux.records(), move);
  }

  @Override
  void trainSubIndex(float[] data, int sampleRows, int[] assignment, Random random) {}

  @Override
  void encode(float[] v, int partition, byte[] out, int off, float[] scratch) {
    for (int i = 0; i < dim; i++) {
      int bits = Float.floatToRawIntBits(v[i]);
      int at = off + 4 * i;
      out[at] = (byte) bits;
      out[at + 1] = (byte) (bits >>> 8);
      out[at + 2] = (byte) (bits >>> 16);
      out[at + 3] = (byte) (bits >>> 24);
    }
  }

  @Override
  void writeAux(ObjectStore store, String dir, IvfRows.Grouped g, BufferAllocator allocator) throws IOException {
    IvfFiles.writeAux(store, dir, distanceType, IvfFlatIndex.FLAT, dim, g.offsets(), g.lengths(), g.rowIds(),
        g.records(), IvfFlatIndex.storage(dim), List.of(), allocator);
  }
}
