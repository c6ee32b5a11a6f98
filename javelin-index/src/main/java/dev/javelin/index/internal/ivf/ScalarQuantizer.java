package dev.javelin.index.internal.ivf;

/**
 * Lance's 8-bit scalar quantization: one range {@code [start, end]} for all dimensions; a value
 * becomes {@code (v - start) * 255 / (end - start)} truncated to 0..255 (saturating; NaN is 0),
 * computed in double as Lance does; all zeros when the range is empty.
 */
record ScalarQuantizer(double start, double end) {
  /** The bounds of the first {@code rows} vectors of {@code data} (every value of them). */
  static ScalarQuantizer fit(float[] data, int rows, int dim) {
    double lo = Double.MAX_VALUE;
    double hi = -Double.MAX_VALUE;
    for (int i = 0; i < rows * dim; i++) {
      lo = Math.min(lo, data[i]);
      hi = Math.max(hi, data[i]);
    }
    return new ScalarQuantizer(lo, hi);
  }

  /** Encodes {@code dim} values from {@code v[off]} into {@code out[to ..]}. */
  void encode(float[] v, int off, int dim, byte[] out, int to) {
    if (start == end) {
      for (int i = 0; i < dim; i++) {
        out[to + i] = 0;
      }
      return;
    }
    double range = end - start;
    for (int i = 0; i < dim; i++) {
      double x = (v[off + i] - start) * 255.0 / range;
      // Saturating, as Rust's `as u8`; NaN fails both tests and the cast gives 0.
      int b = x >= 255 ? 255 : x > 0 ? (int) x : 0;
      out[to + i] = (byte) b;
    }
  }

  /** What a distance between codes is multiplied by to be one between vectors: range^2 / 255^2. */
  float distanceScale() {
    float range = (float) (end - start);
    return range * range / (255f * 255f);
  }

  /** Squared L2 between the code {@code q} and the code at {@code codes[off]}. */
  static float l2(byte[] q, byte[] codes, int off, int dim) {
    int sum = 0;
    for (int i = 0; i < dim; i++) {
      int d = (q[i] & 0xFF) - (codes[off + i] & 0xFF);
      sum += d * d;
    }
    return sum;
  }

  /** Inner product of the code {@code q} and the code at {@code codes[off]}. */
  static float dot(byte[] q, byte[] codes, int off, int dim) {
    long sum = 0;
    for (int i = 0; i < dim; i++) {
      sum += (q[i] & 0xFF) * (codes[off + i] & 0xFF);
    }
    return sum;
  }
}
