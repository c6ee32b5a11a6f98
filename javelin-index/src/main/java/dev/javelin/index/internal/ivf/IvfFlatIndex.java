package dev.javelin.index.internal.ivf;

import dev.javelin.common.Json;
import dev.javelin.common.ThreadPools;
import dev.javelin.index.DistanceType;
import dev.javelin.index.exceptions.VectorIndexException;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * An open IVF_FLAT index ({@link IvfIndex}): each partition stores its rows' vectors as they are
 * (normalised for cosine), in auxiliary.idx's {@code flat: fixed_size_list<float32, dim>} column
 * with storage document {@code {"dim": d}}. A search is exact within the partitions it probes.
 */
public final class IvfFlatIndex extends IvfIndex {
  static final String KIND = "IVF_FLAT";
  static final IvfFiles.Column FLAT = new IvfFiles.Column("flat",
      new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE), 4, false);
  // Row-major, partition by partition as rowIds.
  private final float[] vectors;

  private IvfFlatIndex(IvfFiles.Header header, IvfFiles.Aux aux, ThreadPools pools) {
    super(aux.width(), header.centroids(), header.distance(), aux.offsets(), aux.lengths(), aux.rowIds(), pools);
    this.vectors = IvfFiles.floats(aux.records());
  }

  static IvfFlatIndex open(ObjectStore store, String dir, IvfFiles.Header header, BufferAllocator allocator,
      ThreadPools pools) throws IOException {
    return new IvfFlatIndex(header, read(store, dir, header, allocator), pools);
  }

  /** Reads auxiliary.idx, checking its shapes against index.idx's centroids. */
  static IvfFiles.Aux read(ObjectStore store, String dir, IvfFiles.Header header, BufferAllocator allocator)
      throws IOException {
    IvfFiles.Aux aux = IvfFiles.readAux(store, dir, FLAT, storage -> -1, allocator);
    checkShapes(dir, header, aux);
    return aux;
  }

  // The record width is the dimension: the centroids and partitions must agree with it.
  static void checkShapes(String dir, IvfFiles.Header header, IvfFiles.Aux aux) {
    int dim = aux.width();
    int centroids = header.centroids().length;
    if (dim == 0 || centroids % dim != 0 || centroids / dim != aux.offsets().length) {
      throw new VectorIndexException("Index " + dir + " has inconsistent shapes: " + centroids
          + " centroid values, " + aux.offsets().length + " partitions, vectors of " + dim + " dimensions");
    }
  }

  /** The storage document of auxiliary.idx. */
  static String storage(int dim) {
    return Json.write(Json.object().put("dim", dim));
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public boolean approximate() {
    return false;
  }

  @Override
  Object prepare(float[] q, int k, int ef) {
    return q;
  }

  @Override
  NearestRows scan(Object query, long[] probed, float[] probedDist, AtomicInteger next, int k,
      LongPredicate accept) {
    float[] q = (float[]) query;
    NearestRows top = new NearestRows(k);
    float[] dist = SCRATCH.get();
    if (dist.length < maxLength) {
      dist = new float[maxLength];
      SCRATCH.set(dist);
    }
    for (int at = next.getAndIncrement(); at < probed.length; at = next.getAndIncrement()) {
      int c = (int) probed[at];
      int n = lengths[c];
      int base = (int) offsets[c];
      if (distanceType == DistanceType.L2) {
        for (int i = 0; i < n; i++) {
          dist[i] = VectorMath.l2(q, 0, vectors, (base + i) * dim, dim);
        }
      } else if (distanceType == DistanceType.DOT) {
        for (int i = 0; i < n; i++) {
          dist[i] = 1f - VectorMath.dot(q, 0, vectors, (base + i) * dim, dim);
        }
      } else {
        for (int i = 0; i < n; i++) {
          dist[i] = distanceType.distance(q, 0, vectors, (base + i) * dim, dim);
        }
      }
      offerAll(dist, base, n, top, accept);
    }
    return top;
  }

  // Per-thread distances of a partition's rows.
  private static final ThreadLocal<float[]> SCRATCH = ThreadLocal.withInitial(() -> new float[0]);
}
