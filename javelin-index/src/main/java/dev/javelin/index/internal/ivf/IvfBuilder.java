package dev.javelin.index.internal.ivf;

import com.google.protobuf.Any;
import dev.javelin.index.DistanceType;
import dev.javelin.index.IvfParams;
import dev.javelin.index.exceptions.UnsupportedIndexKindException;
import dev.javelin.index.exceptions.VectorIndexException;
import dev.javelin.index.internal.btree.BTreeIndex;
import dev.javelin.index.proto.IndexProtos;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import java.util.function.LongPredicate;
import java.util.function.LongUnaryOperator;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Builds an IVF index of any kind: {@link #train} on a random sample of the column, {@link #add}
 * every row with its row id, then {@link #write} the files. The IVF part (centroids, assigning
 * rows to partitions, carrying rows of existing indices over, grouping by partition) is done
 * here once; the kind encodes each row into its record ({@link IvfPqBuilder}: PQ codes,
 * {@link IvfFlatBuilder}: the vector, {@link IvfSqBuilder}: SQ codes) and writes its files.
 *
 * <p>{@link #extending} starts instead from an existing index (Lance's incremental optimize): its
 * trained parts are kept, its rows are carried over, and rows added later go into its partitions,
 * encoded as it encodes them.
 */
public abstract class IvfBuilder {
  private static final int BLOCK = 1024;

  final int dim;
  final DistanceType distanceType;
  // Null until trained (a new index) or from the start (extending an index).
  IvfCentroids ivf;
  final IvfRows rows;

  IvfBuilder(int dim, DistanceType distanceType, IvfRows rows) {
    this.dim = dim;
    this.distanceType = distanceType;
    this.rows = rows;
  }

  /**
   * A builder continuing the index {@code uuid} of the dataset at {@code store}, of whichever kind
   * it is: its trained parts, and those of its rows whose id {@code keep} accepts (the rest, e.g.
   * deleted rows, are dropped). {@link #add} then assigns new rows to its partitions.
   *
   * @throws UnsupportedIndexKindException if Javelin cannot build indices of that kind
   * @throws VectorIndexException if the files are not a valid index of their kind
   */
  public static IvfBuilder extending(ObjectStore store, String uuid, LongPredicate keep, BufferAllocator allocator)
      throws IOException {
    return moving(store, uuid, id -> keep.test(id) ? id : -1, allocator);
  }

  /** {@link #extending(ObjectStore, String, LongPredicate, BufferAllocator)}, ids moved by {@code move} (-1: dropped). */
  static IvfBuilder moving(ObjectStore store, String uuid, LongUnaryOperator move, BufferAllocator allocator)
      throws IOException {
    String dir = BTreeIndex.directory(uuid);
    IvfFiles.Header header = IvfFiles.readHeader(store, dir, allocator);
    IvfBuilder b = switch (header.kind()) {
      case IvfPqFiles.KIND -> IvfPqBuilder.of(IvfPqFiles.read(store, dir, header, allocator).model());
      case IvfFlatIndex.KIND -> new IvfFlatBuilder(header);
      case IvfSqIndex.KIND -> IvfSqBuilder.of(header, IvfSqIndex.storage(store, dir, allocator), null);
      case IvfHnswSqIndex.KIND -> IvfSqBuilder.of(header, IvfSqIndex.storage(store, dir, allocator),
          IvfHnswSqIndex.params(store, dir, allocator));
      default -> throw new UnsupportedIndexKindException(header.kind(), "Index " + dir + " is an "
          + header.kind() + " index, which Javelin cannot extend");
    };
    b.carry(store, dir, header, move, allocator);
    return b;
  }

  /**
   * Carries over the rows {@code keep} accepts of another index {@code uuid} of the same kind and
   * trained parts (a delta index of the one this builder extends), records as they are.
   *
   * @return false, adding nothing, if that index's kind or trained parts differ (its rows must be
   *     encoded anew)
   * @throws VectorIndexException if the files are not a valid index of their kind
   */
  public boolean addRowsOf(ObjectStore store, String uuid, LongPredicate keep, BufferAllocator allocator)
      throws IOException {
    String dir = BTreeIndex.directory(uuid);
    IvfFiles.Header header = IvfFiles.readHeader(store, dir, allocator);
    if (ivf == null || !kind().equals(header.kind())
        || !ivf.sameAs(new IvfCentroids(dim, header.centroids(), header.distance(), 0))
        || !sameEncoding(store, dir, header, allocator)) {
      return false;
    }
    carry(store, dir, header, id -> keep.test(id) ? id : -1, allocator);
    return true;
  }

  /** The kind built, as Lance names it. */
  abstract String kind();

  /**
   * Whether rows of the index in {@code dir} (of this kind and these centroids) are encoded as
   * this builder encodes them.
   */
  abstract boolean sameEncoding(ObjectStore store, String dir, IvfFiles.Header header, BufferAllocator allocator)
      throws IOException;

  /** Appends the rows of the index in {@code dir}, ids moved by {@code move} (-1: dropped). */
  abstract void carry(ObjectStore store, String dir, IvfFiles.Header header, LongUnaryOperator move,
      BufferAllocator allocator) throws IOException;

  /**
   * Trains the IVF centroids on {@code sampleRows} vectors (row-major in {@code sample}, which is
   * not modified; a random sample of the column): k-means on the first {@code sampleRate *
   * partitions} of them, then the kind's own training on all of them (normalised if cosine,
   * with their partitions).
   *
   * @throws VectorIndexException if there are fewer rows than partitions
   */
  void trainIvf(float[] sample, int sampleRows, int partitions, int maxIterations, int sampleRate, Random random) {
    if (sampleRows < partitions) {
      throw new VectorIndexException("Cannot train " + partitions + " IVF partitions on " + sampleRows + " rows");
    }
    float[] data = Arrays.copyOf(sample, sampleRows * dim);
    if (distanceType == DistanceType.COSINE) {
      VectorMath.normalize(data, sampleRows, dim);
    }
    boolean dot = distanceType == DistanceType.DOT;
    int ivfRows = (int) Math.min(sampleRows, (long) sampleRate * partitions);
    float[] centroids = KMeans.train(data, ivfRows, dim, partitions, maxIterations, dot, random);
    int[] assignment = new int[sampleRows];
    double loss = KMeans.assign(data, sampleRows, dim, centroids, partitions, dot, assignment);
    this.ivf = new IvfCentroids(dim, centroids, distanceType, loss);
    trainSubIndex(data, sampleRows, assignment, random);
  }

  /** The kind's training on the (normalised if cosine) sample, with each row's partition. */
  abstract void trainSubIndex(float[] data, int sampleRows, int[] assignment, Random random);

  /**
   * Encodes the (normalised if cosine) vector at {@code v} of partition {@code partition} into
   * {@code out[off ..]}; {@code scratch} holds at least 256 and P floats; {@code v} may be changed.
   */
  abstract void encode(float[] v, int partition, byte[] out, int off, float[] scratch);

  /** Bytes of one row's record. */
  abstract int bytesPerRow();

  /** Assigns {@code n} vectors (row-major, not modified) to partitions and encodes them. */
  public void add(float[] vectors, int n, long[] ids) {
    if (ivf == null) {
      throw new IllegalStateException(getClass().getSimpleName() + ".add before train");
    }
    int w = bytesPerRow();
    int[] parts = new int[n];
    byte[] out = new byte[n * w];
    int blocks = (n + BLOCK - 1) / BLOCK;
    IntStream range = IntStream.range(0, blocks);
    if (n > BLOCK) {
      range = range.parallel();
    }
    range.forEach(b -> {
      float[] v = new float[dim];
      float[] scratch = new float[Math.max(ivf.numPartitions, ProductQuantizer.CENTROIDS)];
      int end = Math.min(n, (b + 1) * BLOCK);
      for (int r = b * BLOCK; r < end; r++) {
        System.arraycopy(vectors, r * dim, v, 0, dim);
        if (distanceType == DistanceType.COSINE) {
          VectorMath.normalize(v, 1, dim);
        }
        int p = ivf.partition(v, 0, scratch);
        parts[r] = p;
        encode(v, p, out, r * w, scratch);
      }
    });
    rows.add(parts, ids, out, n);
  }

  /** Rows added so far (carried over from extended indices, and added). */
  public int rows() {
    return rows.size();
  }

  /** Rows of the extended indices that were not carried over (their ids were not kept). */
  public long rowsDropped() {
    return rows.dropped();
  }

  /**
   * Writes {@code index.idx} and {@code auxiliary.idx} under {@code dir} (e.g.
   * {@code _indices/{uuid}}).
   *
   * @return the sizes of the two files, in that order
   */
  public long[] write(ObjectStore store, String dir, BufferAllocator allocator) throws IOException {
    if (ivf == null) {
      throw new IllegalStateException(getClass().getSimpleName() + ".write before train");
    }
    IvfRows.Grouped g = rows.grouped(ivf.numPartitions);
    writeIndexFile(store, dir, g, allocator);
    writeAux(store, dir, g, allocator);
    return IvfFiles.sizes(store, dir);
  }

  /** Writes index.idx: the kind, the distance and the centroids (and what else the kind keeps there). */
  void writeIndexFile(ObjectStore store, String dir, IvfRows.Grouped g, BufferAllocator allocator)
      throws IOException {
    IvfFiles.writeHeader(store, dir, kind(), distanceType, ivf.centroids, dim, ivf.loss);
  }

  /** Writes auxiliary.idx: the rows as {@code g} lays them out, and what the kind stores besides. */
  abstract void writeAux(ObjectStore store, String dir, IvfRows.Grouped g, BufferAllocator allocator)
      throws IOException;

  /**
   * The manifest {@code index_details} lance-core 7.0.0 writes for an IVF_FLAT ({@code flat}) or
   * IVF_SQ index of these parameters: a {@code VectorIndexDetails} with the metric, the kind's
   * marker (an empty {@code flat}, or {@code sq} with 8 bits) and the build parameters it records.
   */
  public static Any details(IvfParams params, boolean flat) {
    return any(detailsOf(params, flat));
  }

  /**
   * The manifest {@code index_details} of an IVF_HNSW_SQ index as lance-core 7.0.0 writes it:
   * IVF_SQ's, with the graph's build parameters in its {@code hnsw} message and the search's
   * prefetch distance (always 2) among the build parameters.
   */
  public static Any hnswDetails(IvfParams params, IvfHnswSqIndex.HnswParams hnsw) {
    return any(detailsOf(params, false)
        .setHnsw(IndexProtos.VectorIndexDetails.Hnsw.newBuilder().setM(hnsw.m())
            .setEfConstruction(hnsw.efConstruction()).setMaxLevel(hnsw.maxLevel()))
        .putBuildParams("lance.hnsw.prefetch_distance", "2"));
  }

  private static IndexProtos.VectorIndexDetails.Builder detailsOf(IvfParams params, boolean flat) {
    IndexProtos.VectorIndexDetails.Builder d = IndexProtos.VectorIndexDetails.newBuilder()
        .setMetricType(metric(params.distanceType()))
        .putBuildParams("lance.ivf.max_iters", Integer.toString(params.maxIterations()))
        .putBuildParams("lance.ivf.sample_rate", Integer.toString(params.sampleRate()))
        .putBuildParams("lance.ivf.shuffle_partition_batches", "10240")
        .putBuildParams("lance.ivf.shuffle_partition_concurrency", "2")
        .putBuildParams("lance.skip_transpose", "false");
    if (flat) {
      d.setFlat(IndexProtos.VectorIndexDetails.Flat.getDefaultInstance());
    } else {
      d.setSq(IndexProtos.VectorIndexDetails.ScalarQuantization.newBuilder().setNumBits(8))
          .putBuildParams("lance.sq.sample_rate", Integer.toString(params.sampleRate()));
    }
    return d;
  }

  private static Any any(IndexProtos.VectorIndexDetails.Builder d) {
    return Any.newBuilder().setTypeUrl(IvfPqBuilder.DETAILS_TYPE_URL).setValue(d.build().toByteString()).build();
  }

  static IndexProtos.VectorMetricType metric(DistanceType distance) {
    return switch (distance) {
      case L2 -> IndexProtos.VectorMetricType.L2;
      case COSINE -> IndexProtos.VectorMetricType.Cosine;
      case DOT -> IndexProtos.VectorMetricType.Dot;
    };
  }
}
