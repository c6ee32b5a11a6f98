package dev.javelin.index.internal.ivf;

import java.util.Arrays;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * Lloyd's k-means as Lance runs it for IVF and PQ: random initial centroids picked among the
 * training rows, at most {@code maxIters} rounds, stopping early when the loss improves by less
 * than 1e-4 (relative); an emptied cluster takes a point of the largest cluster. L2 assigns to
 * the nearest centroid, DOT to the largest inner product (cosine data is normalised by the caller
 * and clustered with L2).
 */
final class KMeans {
  private static final double TOLERANCE = 1e-4;
  private static final int BLOCK = 512;

  private KMeans() {}

  /** The centroids, {@code k * dim} floats. Needs {@code rows >= k}. */
  static float[] train(float[] data, int rows, int dim, int k, int maxIters, boolean dot, Random random) {
    float[] centroids = new float[k * dim];
    int[] pick = sample(rows, k, random);
    for (int c = 0; c < k; c++) {
      System.arraycopy(data, pick[c] * dim, centroids, c * dim, dim);
    }
    int[] assignment = new int[rows];
    double previous = Double.MAX_VALUE;
    for (int iter = 0; iter < Math.max(1, maxIters); iter++) {
      double loss = assign(data, rows, dim, centroids, k, dot, assignment);
      update(data, rows, dim, centroids, k, assignment, random);
      if (previous != Double.MAX_VALUE && Math.abs(previous - loss) <= TOLERANCE * Math.abs(previous)) {
        break;
      }
      previous = loss;
    }
    return centroids;
  }

  /** {@code k} distinct row numbers below {@code rows}, in random order. */
  static int[] sample(int rows, int k, Random random) {
    int[] all = new int[rows];
    for (int i = 0; i < rows; i++) {
      all[i] = i;
    }
    for (int i = 0; i < k; i++) {
      int j = i + random.nextInt(rows - i);
      int t = all[i];
      all[i] = all[j];
      all[j] = t;
    }
    return Arrays.copyOf(all, k);
  }

  /**
   * Writes each row's nearest centroid into {@code out} and returns the summed distance (squared
   * L2, or minus the inner product for DOT). Runs on the caller's fork-join pool (the common pool
   * unless called from another) for large inputs; the result does not depend on the thread count.
   */
  static double assign(float[] data, int rows, int dim, float[] centroids, int k, boolean dot, int[] out) {
    float[] norms = new float[k];
    if (!dot) {
      for (int c = 0; c < k; c++) {
        norms[c] = VectorMath.dot(centroids, c * dim, centroids, c * dim, dim);
      }
    }
    int blocks = (rows + BLOCK - 1) / BLOCK;
    IntStream range = IntStream.range(0, blocks);
    if ((long) rows * k * dim > 4_000_000L) {
      range = range.parallel();
    }
    float[][] t = VectorMath.transpose(centroids, 0, k, dim);
    // Each block's loss is kept and they are summed in block order afterwards, so the total (which
    // decides when training stops) is the same bit for bit on any number of threads.
    double[] losses = new double[blocks];
    range.forEach(b -> {
      double loss = 0;
      float[] ips = new float[k];
      int end = Math.min(rows, (b + 1) * BLOCK);
      for (int r = b * BLOCK; r < end; r++) {
        int off = r * dim;
        VectorMath.dotsTransposed(data, off, dim, t, 0, k, ips);
        int best = 0;
        float bestScore = Float.MAX_VALUE;
        for (int c = 0; c < k; c++) {
          // ||x - c||^2 = ||x||^2 - 2 x.c + ||c||^2; ||x||^2 is the same for every c.
          float score = dot ? -ips[c] : norms[c] - 2 * ips[c];
          if (score < bestScore) {
            bestScore = score;
            best = c;
          }
        }
        out[r] = best;
        loss += dot ? bestScore : bestScore + VectorMath.dot(data, off, data, off, dim);
      }
      losses[b] = loss;
    });
    double total = 0;
    for (double l : losses) {
      total += l;
    }
    return total;
  }

  private static void update(float[] data, int rows, int dim, float[] centroids, int k, int[] assignment,
      Random random) {
    double[] sums = new double[k * dim];
    int[] counts = new int[k];
    for (int r = 0; r < rows; r++) {
      int c = assignment[r];
      counts[c]++;
      int off = r * dim;
      int coff = c * dim;
      for (int i = 0; i < dim; i++) {
        sums[coff + i] += data[off + i];
      }
    }
    for (int c = 0; c < k; c++) {
      if (counts[c] > 0) {
        for (int i = 0; i < dim; i++) {
          centroids[c * dim + i] = (float) (sums[c * dim + i] / counts[c]);
        }
      }
    }
    for (int c = 0; c < k; c++) {
      if (counts[c] == 0) {
        // Split the largest cluster: move this centroid next to a random member of it.
        int largest = 0;
        for (int j = 1; j < k; j++) {
          if (counts[j] > counts[largest]) {
            largest = j;
          }
        }
        int member = -1;
        int seen = 0;
        for (int r = 0; r < rows; r++) {
          if (assignment[r] == largest && random.nextInt(++seen) == 0) {
            member = r;
          }
        }
        if (member < 0) {
          continue;
        }
        for (int i = 0; i < dim; i++) {
          float v = data[member * dim + i];
          centroids[c * dim + i] = v + (float) (1e-4 * (random.nextDouble() - 0.5) * (Math.abs(v) + 1e-3));
        }
        counts[largest] -= 1;
        counts[c] = 1;
        assignment[member] = c;
      }
    }
  }

  /** Squared norms of the centroids (the L2 shortcut's {@code ||c||^2}). */
  static float[] norms(float[] centroids, int k, int dim) {
    float[] norms = new float[k];
    for (int c = 0; c < k; c++) {
      norms[c] = VectorMath.dot(centroids, c * dim, centroids, c * dim, dim);
    }
    return norms;
  }
}
