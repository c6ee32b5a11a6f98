package dev.javelin.index;

import java.util.Objects;

/**
 * How to build an IVF index whose partitions need no training of their own (IVF_FLAT, IVF_SQ).
 * Defaults follow lance-core 7.0.0: 50 k-means iterations, 256 training rows per partition.
 *
 * @param numPartitions IVF partitions (k-means clusters)
 * @param distanceType how vectors are compared
 * @param maxIterations k-means rounds for the centroids
 * @param sampleRate training rows per partition
 * @param seed the random seed of sampling and k-means
 */
public record IvfParams(int numPartitions, DistanceType distanceType, int maxIterations, int sampleRate, long seed) {
  public IvfParams {
    if (numPartitions < 1) {
      throw new IllegalArgumentException("numPartitions must be at least 1, got " + numPartitions);
    }
    if (maxIterations < 1 || sampleRate < 1) {
      throw new IllegalArgumentException("Iterations and sample rate must be positive");
    }
    Objects.requireNonNull(distanceType, "distanceType");
  }

  /** {@code numPartitions} partitions ranked by {@code distanceType}, Lance's defaults for the rest. */
  public static IvfParams of(int numPartitions, DistanceType distanceType) {
    return new IvfParams(numPartitions, distanceType, 50, 256, 42L);
  }

  /** The same with another k-means round limit. */
  public IvfParams withIterations(int iterations) {
    return new IvfParams(numPartitions, distanceType, iterations, sampleRate, seed);
  }

  /** Training rows the builder wants. */
  public int sampleSize() {
    return (int) Math.min(Integer.MAX_VALUE / 2, (long) sampleRate * numPartitions);
  }
}
