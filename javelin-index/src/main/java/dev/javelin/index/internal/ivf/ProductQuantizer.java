package dev.javelin.index.internal.ivf;

import java.util.Random;

/**
 * 8-bit product quantisation: a vector of {@code dim} floats is cut into {@code m} sub-vectors,
 * each replaced by the number of its nearest of 256 centroids. The codebook is laid out as Lance
 * stores it: sub-vector 0's 256 centroids, then sub-vector 1's, ... ({@code 256 * dim} floats,
 * a {@code [256, dim]} tensor).
 */
public final class ProductQuantizer {
  public static final int CENTROIDS = 256;

  final int dim;
  final int m;
  final int subDim;
  final float[] codebook;
  // DOT compares by inner product; L2 and cosine (normalised data) by squared L2.
  final boolean dot;
  // Each sub-vector's centroids transposed, [subDim][256], one block of rows per sub-vector:
  // row j * subDim + i is coordinate i of sub-vector j's 256 centroids.
  final float[][] codebookT;

  ProductQuantizer(int dim, int m, float[] codebook, boolean dot) {
    this.dim = dim;
    this.m = m;
    this.subDim = dim / m;
    this.codebook = codebook;
    this.dot = dot;
    this.codebookT = new float[m * subDim][];
    for (int j = 0; j < m; j++) {
      float[][] t = VectorMath.transpose(codebook, j * CENTROIDS * subDim, CENTROIDS, subDim);
      System.arraycopy(t, 0, codebookT, j * subDim, subDim);
    }
  }

  /** Trains one 256-centroid k-means per sub-vector on {@code rows} training vectors. */
  static ProductQuantizer train(float[] data, int rows, int dim, int m, int maxIters, boolean dot, Random random) {
    int subDim = dim / m;
    float[] codebook = new float[CENTROIDS * dim];
    float[] sub = new float[rows * subDim];
    for (int j = 0; j < m; j++) {
      for (int r = 0; r < rows; r++) {
        System.arraycopy(data, r * dim + j * subDim, sub, r * subDim, subDim);
      }
      // Codes approximate the vectors themselves, so they are trained and chosen by L2 for every
      // distance type (max-inner-product clustering collapses onto the longest centroids).
      float[] c = KMeans.train(sub, rows, subDim, CENTROIDS, maxIters, false, random);
      System.arraycopy(c, 0, codebook, j * CENTROIDS * subDim, CENTROIDS * subDim);
    }
    return new ProductQuantizer(dim, m, codebook, dot);
  }

  /** Squared norms of every codebook centroid, for {@link #encode}. */
  float[] norms() {
    float[] n = new float[m * CENTROIDS];
    for (int i = 0; i < n.length; i++) {
      n[i] = VectorMath.dot(codebook, i * subDim, codebook, i * subDim, subDim);
    }
    return n;
  }

  /**
   * Writes the {@code m} codes of the vector at {@code v[off..off+dim)} to {@code out[outOff..]};
   * {@code scratch} holds at least 256 floats.
   */
  void encode(float[] v, int off, float[] norms, byte[] out, int outOff, float[] scratch) {
    for (int j = 0; j < m; j++) {
      int base = j * CENTROIDS;
      int best = 0;
      float bestScore = Float.MAX_VALUE;
      VectorMath.dotsTransposed(v, off + j * subDim, subDim, codebookT, j * subDim, CENTROIDS, scratch);
      for (int c = 0; c < CENTROIDS; c++) {
        float score = norms[base + c] - 2 * scratch[c];
        if (score < bestScore) {
          bestScore = score;
          best = c;
        }
      }
      out[outOff + j] = (byte) best;
    }
  }

  /**
   * {@code scale} times the inner products of each sub-vector j of {@code v[off..off+dim)} with
   * its 256 centroids, into {@code out[j]} (256 floats each); {@code scratch} holds 256 floats.
   */
  void dotTable(float[] v, int off, float scale, float[][] out, float[] scratch) {
    for (int j = 0; j < m; j++) {
      VectorMath.dotsTransposed(v, off + j * subDim, subDim, codebookT, j * subDim, CENTROIDS, scratch);
      float[] t = out[j];
      for (int c = 0; c < CENTROIDS; c++) {
        t[c] = scale * scratch[c];
      }
    }
  }

  /**
   * The table of partial distances from {@code q} to every centroid, {@code m * 256} floats:
   * squared L2 per sub-vector, or minus the inner product for DOT.
   */
  float[] distanceTable(float[] q) {
    float[][] tables = new float[m][CENTROIDS];
    distanceTable(q, tables, VectorMath.l2sScratch(CENTROIDS));
    float[] table = new float[m * CENTROIDS];
    for (int j = 0; j < m; j++) {
      System.arraycopy(tables[j], 0, table, j * CENTROIDS, CENTROIDS);
    }
    return table;
  }

  /**
   * {@link #distanceTable(float[])} into one array of 256 floats per sub-vector, as
   * {@link AdcKernel} takes it, with {@code scratch} from {@link VectorMath#l2sScratch}{@code
   * (256)}: no allocation, for the per-partition tables of a search.
   */
  void distanceTable(float[] q, float[][] tables, float[][] scratch) {
    for (int j = 0; j < m; j++) {
      if (!dot) {
        VectorMath.l2sTransposed(q, j * subDim, subDim, codebookT, j * subDim, CENTROIDS, tables[j], 0, scratch);
        continue;
      }
      for (int c = 0; c < CENTROIDS; c++) {
        tables[j][c] = -VectorMath.dot(q, j * subDim, codebook, (j * CENTROIDS + c) * subDim, subDim);
      }
    }
  }
}
