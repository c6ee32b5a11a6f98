package dev.javelin.index.ivf;

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
  final ProductQuantizer pq;
  final DistanceType distanceType;
  final double loss;

  IvfPqModel(int dim, float[] centroids, ProductQuantizer pq, DistanceType distanceType, double loss) {
    this.dim = dim;
    this.numPartitions = centroids.length / dim;
    this.centroids = centroids;
    this.centroidNorms = KMeans.norms(centroids, numPartitions, dim);
    this.pq = pq;
    this.distanceType = distanceType;
    this.loss = loss;
  }

  boolean residual() {
    return distanceType != DistanceType.DOT;
  }

  /** The partition of a (normalised if cosine) vector. */
  int partition(float[] v, int off) {
    return KMeans.nearest(v, off, dim, centroids, centroidNorms, numPartitions, distanceType == DistanceType.DOT);
  }
}
