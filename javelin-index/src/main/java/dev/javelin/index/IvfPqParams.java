package dev.javelin.index;

import dev.javelin.index.internal.ivf.ProductQuantizer;
import java.util.Objects;

/**
 * How to build an IVF_PQ index. Defaults follow lance-core 7.0.0: 50 k-means iterations for IVF
 * and for PQ, 256 training rows per IVF partition and per PQ centroid, 8-bit codes.
 *
 * @param numPartitions IVF partitions (k-means clusters)
 * @param numSubVectors PQ sub-vectors; must divide the dimension
 * @param distanceType how vectors are compared
 * @param ivfMaxIterations k-means rounds for the IVF centroids
 * @param pqMaxIterations k-means rounds for each PQ codebook
 * @param sampleRate training rows per IVF partition (and per PQ centroid)
 * @param seed the random seed of sampling and k-means
 */
public record IvfPqParams(int numPartitions, int numSubVectors, DistanceType distanceType, int ivfMaxIterations,
    int pqMaxIterations, int sampleRate, long seed) {
  /** Bits per PQ code; Javelin builds 8-bit codes only, as Lance does by default. */
  public static final int NUM_BITS = 8;

  public IvfPqParams {
    if (numPartitions < 1) {
      throw new IllegalArgumentException("numPartitions must be at least 1, got " + numPartitions);
    }
    if (numSubVectors < 1) {
      throw new IllegalArgumentException("numSubVectors must be at least 1, got " + numSubVectors);
    }
    if (ivfMaxIterations < 1 || pqMaxIterations < 1 || sampleRate < 1) {
      throw new IllegalArgumentException("Iterations and sample rate must be positive");
    }
    Objects.requireNonNull(distanceType, "distanceType");
  }

  /** The given shape with Lance's defaults for the rest (50 iterations each, sample rate 256). */
  public static IvfPqParams of(int numPartitions, int numSubVectors, DistanceType distanceType) {
    return new IvfPqParams(numPartitions, numSubVectors, distanceType, 50, 50, 256, 42L);
  }

  /**
   * Lance's defaults for a column: {@code sqrt(rows)} partitions, and {@code dim/16} sub-vectors
   * (else {@code dim/8}, else 1).
   */
  public static IvfPqParams defaults(long rows, int dimension, DistanceType distanceType) {
    int partitions = (int) Math.max(1, Math.min(Math.round(Math.sqrt(rows)), 4096));
    int sub = dimension % 16 == 0 ? dimension / 16 : dimension % 8 == 0 ? dimension / 8 : 1;
    return of(partitions, sub, distanceType);
  }

  /** The same with other k-means round limits for IVF and PQ. */
  public IvfPqParams withIterations(int ivf, int pq) {
    return new IvfPqParams(numPartitions, numSubVectors, distanceType, ivf, pq, sampleRate, seed);
  }

  /** The same with another number of training rows per partition / centroid. */
  public IvfPqParams withSampleRate(int rate) {
    return new IvfPqParams(numPartitions, numSubVectors, distanceType, ivfMaxIterations, pqMaxIterations, rate, seed);
  }

  /** The same with another random seed. */
  public IvfPqParams withSeed(long s) {
    return new IvfPqParams(numPartitions, numSubVectors, distanceType, ivfMaxIterations, pqMaxIterations, sampleRate, s);
  }

  /** Training rows the builder wants: enough for the IVF k-means and for the PQ codebooks. */
  public int sampleSize() {
    return (int) Math.min(Integer.MAX_VALUE / 2, Math.max((long) sampleRate * numPartitions,
        (long) sampleRate * ProductQuantizer.CENTROIDS));
  }
}
