package dev.javelin.index.internal.ivf;

import java.util.Arrays;


/**
 * The inner loops: dot products and squared L2 distances over slices of float arrays. Four
 * independent accumulators let the JIT keep several multiply-adds in flight (a single running
 * sum is a dependency chain that Java may not reorder).
 */
public final class VectorMath {
  private VectorMath() {}

  public static float dot(float[] a, int aOff, float[] b, int bOff, int len) {
    float s0 = 0;
    float s1 = 0;
    float s2 = 0;
    float s3 = 0;
    int i = 0;
    for (; i + 3 < len; i += 4) {
      s0 += a[aOff + i] * b[bOff + i];
      s1 += a[aOff + i + 1] * b[bOff + i + 1];
      s2 += a[aOff + i + 2] * b[bOff + i + 2];
      s3 += a[aOff + i + 3] * b[bOff + i + 3];
    }
    for (; i < len; i++) {
      s0 += a[aOff + i] * b[bOff + i];
    }
    return (s0 + s1) + (s2 + s3);
  }

  public static float l2(float[] a, int aOff, float[] b, int bOff, int len) {
    float s0 = 0;
    float s1 = 0;
    float s2 = 0;
    float s3 = 0;
    int i = 0;
    for (; i + 3 < len; i += 4) {
      float d0 = a[aOff + i] - b[bOff + i];
      float d1 = a[aOff + i + 1] - b[bOff + i + 1];
      float d2 = a[aOff + i + 2] - b[bOff + i + 2];
      float d3 = a[aOff + i + 3] - b[bOff + i + 3];
      s0 += d0 * d0;
      s1 += d1 * d1;
      s2 += d2 * d2;
      s3 += d3 * d3;
    }
    for (; i < len; i++) {
      float d = a[aOff + i] - b[bOff + i];
      s0 += d * d;
    }
    return (s0 + s1) + (s2 + s3);
  }

  /**
   * Inner products of one vector with {@code k} vectors stored transposed ({@code t[tRow + i][c]}
   * is coordinate i of vector c), into {@code out[0..k)}. The inner loop runs over independent
   * lanes at the same index of separate arrays, which the JIT turns into SIMD code (a dot
   * product's running sum would not be vectorised, nor, measured on JDK 17, a loop reading one
   * array at an offset from where it writes another: so one array per coordinate, not one flat
   * array). Four coordinates a pass: each lane of {@code out} is loaded and stored once per four
   * multiply-adds. K-means assignment, the bulk of an index build, spends its time here.
   */
  static void dotsTransposed(float[] x, int off, int dim, float[][] t, int tRow, int k, float[] out) {
    Arrays.fill(out, 0, k, 0f);
    int i = 0;
    for (; i + 3 < dim; i += 4) {
      float x0 = x[off + i];
      float x1 = x[off + i + 1];
      float x2 = x[off + i + 2];
      float x3 = x[off + i + 3];
      float[] t0 = t[tRow + i];
      float[] t1 = t[tRow + i + 1];
      float[] t2 = t[tRow + i + 2];
      float[] t3 = t[tRow + i + 3];
      for (int c = 0; c < k; c++) {
        out[c] += (x0 * t0[c] + x1 * t1[c]) + (x2 * t2[c] + x3 * t3[c]);
      }
    }
    for (; i < dim; i++) {
      float xi = x[off + i];
      float[] ti = t[tRow + i];
      for (int c = 0; c < k; c++) {
        out[c] += xi * ti[c];
      }
    }
  }

  /**
   * Squared L2 distances of one vector to {@code k} vectors stored transposed (as in
   * {@link #dotsTransposed}), into {@code out[outOff..outOff+k)}, each equal bit for bit to
   * {@link #l2}: the same four partial sums, added in the same order, but one lane per vector.
   * {@code acc} holds four arrays of at least {@code k} floats, one per partial sum. Every loop
   * reads at most one array besides the one it writes, both from index 0: measured on JDK 17,
   * only such loops are vectorised (writing at an offset, or reading two arrays into a third,
   * runs lane by lane, about 4x slower); the sum lands in {@code out} by one array copy.
   */
  static void l2sTransposed(float[] x, int off, int dim, float[][] t, int tRow, int k, float[] out, int outOff,
      float[][] acc) {
    float[] s0 = acc[0];
    float[] s1 = acc[1];
    float[] s2 = acc[2];
    float[] s3 = acc[3];
    int i = 0;
    if (dim >= 4) {
      squares(x[off], t[tRow], k, s0);
      squares(x[off + 1], t[tRow + 1], k, s1);
      squares(x[off + 2], t[tRow + 2], k, s2);
      squares(x[off + 3], t[tRow + 3], k, s3);
      i = 4;
    } else {
      // l2 starts its sums at zero; 0 + d * d is d * d exactly, so the first square may set s0.
      squares(x[off], t[tRow], k, s0);
      Arrays.fill(s1, 0, k, 0f);
      Arrays.fill(s2, 0, k, 0f);
      Arrays.fill(s3, 0, k, 0f);
      i = 1;
    }
    for (; i + 3 < dim; i += 4) {
      accumulate(x[off + i], t[tRow + i], k, s0);
      accumulate(x[off + i + 1], t[tRow + i + 1], k, s1);
      accumulate(x[off + i + 2], t[tRow + i + 2], k, s2);
      accumulate(x[off + i + 3], t[tRow + i + 3], k, s3);
    }
    for (; i < dim; i++) {
      accumulate(x[off + i], t[tRow + i], k, s0);
    }
    // (s0 + s1) + (s2 + s3), as l2 adds them.
    addInto(s0, s1, k);
    addInto(s2, s3, k);
    addInto(s0, s2, k);
    System.arraycopy(s0, 0, out, outOff, k);
  }

  /** Four arrays of {@code k} floats, the scratch of {@link #l2sTransposed}. */
  static float[][] l2sScratch(int k) {
    return new float[4][k];
  }

  private static void squares(float xi, float[] t, int k, float[] s) {
    for (int c = 0; c < k; c++) {
      float d = xi - t[c];
      s[c] = d * d;
    }
  }

  private static void accumulate(float xi, float[] t, int k, float[] s) {
    for (int c = 0; c < k; c++) {
      float d = xi - t[c];
      s[c] += d * d;
    }
  }

  /** {@code a[c] += b[c]} for c below k (vectorised). */
  static void addInto(float[] a, float[] b, int k) {
    for (int c = 0; c < k; c++) {
      a[c] += b[c];
    }
  }

  /**
   * {@code rows} vectors of length {@code dim} (row-major from {@code v[vOff]}) transposed to
   * {@code [dim][rows]}, one array per coordinate (see {@link #dotsTransposed}).
   */
  static float[][] transpose(float[] v, int vOff, int rows, int dim) {
    float[][] t = new float[dim][rows];
    for (int r = 0; r < rows; r++) {
      for (int i = 0; i < dim; i++) {
        t[i][r] = v[vOff + r * dim + i];
      }
    }
    return t;
  }

  /** Scales each of the {@code rows} vectors of length {@code dim} to unit length (zero stays zero). */
  static void normalize(float[] data, int rows, int dim) {
    for (int r = 0; r < rows; r++) {
      int off = r * dim;
      float n = dot(data, off, data, off, dim);
      if (n > 0) {
        float inv = (float) (1.0 / Math.sqrt(n));
        for (int i = 0; i < dim; i++) {
          data[off + i] *= inv;
        }
      }
    }
  }
}
