package dev.javelin.index.internal.ivf;

import dev.javelin.index.DistanceType;
import java.util.Arrays;

/**
 * The trained parts of an IVF_PQ index: partition centroids and the PQ codebook. For cosine the
 * vectors are normalised before everything, and centroids and codes live in L2 space; for DOT
 * there are no residuals.
 */
final class IvfPqModel {
  final int dim;
  final int numPartitions;
  final float[] centroids;
  final float[] centroidNorms;
  // [dim][partitions], for the SIMD-friendly assignment loop.
  final float[][] centroidsT;
  final ProductQuantizer pq;
  final DistanceType distanceType;
  final double loss;

  IvfPqModel(int dim, float[] centroids, ProductQuantizer pq, DistanceType distanceType, double loss) {
    this.dim = dim;
    this.numPartitions = centroids.length / dim;
    this.centroids = centroids;
    this.centroidNorms = KMeans.norms(centroids, numPartitions, dim);
    this.centroidsT = VectorMath.transpose(centroids, 0, numPartitions, dim);
    this.pq = pq;
    this.distanceType = distanceType;
    this.loss = loss;
  }

  /** Whether rows encoded by {@code other} mean the same here: equal centroids, codebook and distance. */
  boolean sameAs(IvfPqModel other) {
    return dim == other.dim && distanceType == other.distanceType && pq.m == other.pq.m
        && Arrays.equals(centroids, other.centroids) && Arrays.equals(pq.codebook, other.pq.codebook);
  }

  boolean residual() {
    return distanceType != DistanceType.DOT;
  }

  /** The partition of a (normalised if cosine) vector; {@code scratch} holds at least P floats. */
  int partition(float[] v, int off, float[] scratch) {
    VectorMath.dotsTransposed(v, off, dim, centroidsT, 0, numPartitions, scratch);
    boolean dot = distanceType == DistanceType.DOT;
    int best = 0;
    float bestScore = Float.MAX_VALUE;
    for (int c = 0; c < numPartitions; c++) {
      float score = dot ? -scratch[c] : centroidNorms[c] - 2 * scratch[c];
      if (score < bestScore) {
        bestScore = score;
        best = c;
      }
    }
    return best;
  }
}
