package dev.javelin.core.cluster;

/**
 * Positions of d-dimensional points on a Z-order (Morton) or Hilbert curve. A point has one
 * coordinate of {@code bits} bits per dimension; the position has {@code d * bits} bits, which
 * must fit in 63 so positions compare as non-negative longs.
 */
final class SpaceFillingCurves {
  private SpaceFillingCurves() {}

  /** The most bits per coordinate for {@code dims} dimensions (at most 31, so scaling fits a long). */
  static int bitsPerDimension(int dims) {
    return Math.min(31, 63 / dims);
  }

  /** Morton order: bit b of every coordinate, from the most significant bit down, dimension 0 first. */
  static long zorder(long[] coords, int bits) {
    check(coords.length, bits);
    long out = 0;
    for (int b = bits - 1; b >= 0; b--) {
      for (long c : coords) {
        out = (out << 1) | ((c >>> b) & 1L);
      }
    }
    return out;
  }

  /**
   * The Hilbert index, by John Skilling's method ("Programming the Hilbert curve", 2004): the
   * coordinates are turned in place into the curve's "transposed" index (undo the rotations and
   * reflections level by level from the top bit, then Gray-encode), whose bits read out in
   * Morton order are the index. Consecutive indices are neighbouring cells (distance 1), which is
   * what keeps the cells of one destination close together.
   */
  static long hilbert(long[] coords, int bits) {
    int n = coords.length;
    check(n, bits);
    long[] x = coords.clone();
    long top = 1L << (bits - 1);
    for (long q = top; q > 1; q >>>= 1) {
      long p = q - 1;
      for (int i = 0; i < n; i++) {
        if ((x[i] & q) != 0) {
          x[0] ^= p; // reflect the low bits of dimension 0
        } else {
          long t = (x[0] ^ x[i]) & p; // swap the low bits of dimensions 0 and i
          x[0] ^= t;
          x[i] ^= t;
        }
      }
    }
    for (int i = 1; i < n; i++) {
      x[i] ^= x[i - 1];
    }
    long t = 0;
    for (long q = top; q > 1; q >>>= 1) {
      if ((x[n - 1] & q) != 0) {
        t ^= q - 1;
      }
    }
    for (int i = 0; i < n; i++) {
      x[i] ^= t;
    }
    return zorder(x, bits);
  }

  private static void check(int dims, int bits) {
    if (dims < 1 || bits < 1 || (long) dims * bits > 63) {
      throw new IllegalArgumentException("A curve position needs 1..63 bits: " + dims + " dimensions of " + bits
          + " bits");
    }
  }
}
