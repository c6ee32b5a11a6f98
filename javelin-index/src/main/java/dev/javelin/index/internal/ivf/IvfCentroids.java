package dev.javelin.index.internal.ivf;

import dev.javelin.index.DistanceType;
import java.util.Arrays;
import java.util.Random;

/**
 * The IVF part every index kind shares: the partitions' centroids and the distance, k-means
 * training on a sample, and the partition a vector goes to. For cosine the vectors are
 * normalised first (by the caller) and everything lives in L2 space; DOT assigns to the largest
 * inner product.
 */
final class IvfCentroids {
  final int dim;
  final int numPartitions;
  final float[] centroids;
  final DistanceType distanceType;
  final double loss;
  private final float[] norms;
  // [dim][partitions], for the SIMD-friendly assignment loop.
  private final float[][] transposed;

  IvfCentroids(int dim, float[] centroids, DistanceType distanceType, double loss) {
    this.dim = dim;
    this.numPartitions = centroids.length / dim;
    this.centroids = centroids;
    this.distanceType = distanceType;
    this.loss = loss;
    this.norms = KMeans.norms(centroids, numPartitions, dim);
    this.transposed = VectorMath.transpose(centroids, 0, numPartitions, dim);
  }

  /**
   * Trains {@code partitions} centroids by k-means on the first {@code rows} vectors of
   * {@code data} (row-major, normalised if cosine), at most {@code maxIters} rounds.
   */
  static IvfCentroids train(float[] data, int rows, int dim, int partitions, int maxIters, DistanceType distance,
      Random random) {
    boolean dot = distance == DistanceType.DOT;
    float[] centroids = KMeans.train(data, rows, dim, partitions, maxIters, dot, random);
    double loss = KMeans.assign(data, rows, dim, centroids, partitions, dot, new int[rows]);
    return new IvfCentroids(dim, centroids, distance, loss);
  }

  /** Whether rows assigned by {@code other} are assigned the same here: equal centroids and distance. */
  boolean sameAs(IvfCentroids other) {
    return dim == other.dim && distanceType == other.distanceType && Arrays.equals(centroids, other.centroids);
  }

  /** The partition of a (normalised if cosine) vector; {@code scratch} holds at least P floats. */
  int partition(float[] v, int off, float[] scratch) {
    VectorMath.dotsTransposed(v, off, dim, transposed, 0, numPartitions, scratch);
    boolean dot = distanceType == DistanceType.DOT;
    int best = 0;
    float bestScore = Float.MAX_VALUE;
    for (int c = 0; c < numPartitions; c++) {
      float score = dot ? -scratch[c] : norms[c] - 2 * scratch[c];
      if (score < bestScore) {
        bestScore = score;
        best = c;
      }
    }
    return best;
  }
}
