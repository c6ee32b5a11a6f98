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
  final IvfCentroids ivf;
  final ProductQuantizer pq;
  final DistanceType distanceType;
  final double loss;

  IvfPqModel(int dim, float[] centroids, ProductQuantizer pq, DistanceType distanceType, double loss) {
    this.dim = dim;
    this.numPartitions = centroids.length / dim;
    this.centroids = centroids;
    this.ivf = new IvfCentroids(dim, centroids, distanceType, loss);
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
}
