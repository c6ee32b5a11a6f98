package dev.javelin.core.cluster;

import dev.javelin.core.util.LongRadixSort;

/**
 * Dense ranks of 64-bit keys by a radix sort of (key, position) pairs: a few linear passes
 * instead of a comparison sort followed by a binary search per row, which dominated the key
 * pass of a clustering at a million rows (about 5x the time). Also orders rows by dense rank
 * with a counting sort, stable, so ties keep source order.
 */
final class DenseRanks {
  private DenseRanks() {}

  private static final int DIGIT_BITS = 11;
  private static final int DIGITS = 1 << DIGIT_BITS;

  /** The rank of each of {@code keys[0..n)} among their distinct values, compared as signed longs. */
  static KeyColumn.Ranked of(long[] keys, int n) {
    int[] pos = sortedPositions(keys, n);
    int[] ranks = new int[n];
    int rank = -1;
    for (int i = 0; i < n; i++) {
      if (i == 0 || keys[pos[i]] != keys[pos[i - 1]]) {
        rank++;
      }
      ranks[pos[i]] = rank;
    }
    return new KeyColumn.Ranked(ranks, rank + 1);
  }

  /**
   * The positions {@code 0..n-1} ordered by {@code keys} (signed), equal keys in position order.
   * Keys are taken relative to their minimum, so only the bits in which they differ are sorted
   * on, 11 at a time.
   */
  static int[] sortedPositions(long[] keys, int n) {
    int[] pos = new int[n];
    for (int i = 0; i < n; i++) {
      pos[i] = i;
    }
    if (n < 2) {
      return pos;
    }
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int i = 0; i < n; i++) {
      min = Math.min(min, keys[i]);
      max = Math.max(max, keys[i]);
    }
    int bits = 64 - Long.numberOfLeadingZeros(max - min); // the span, as unsigned
    int passes = (bits + DIGIT_BITS - 1) / DIGIT_BITS;
    if (passes == 0) {
      return pos;
    }
    int posBits = 32 - Integer.numberOfLeadingZeros(n - 1);
    if (bits + posBits <= 63) { // a non-negative word: the sort compares signed
      return packedPositions(keys, n, min, posBits);
    }
    long[] k = new long[n];
    for (int i = 0; i < n; i++) {
      k[i] = keys[i] - min;
    }
    // Every pass's histogram in one read of the keys.
    int[][] counts = new int[passes][DIGITS];
    for (int i = 0; i < n; i++) {
      long v = k[i];
      for (int p = 0; p < passes; p++) {
        counts[p][(int) (v >>> (p * DIGIT_BITS)) & (DIGITS - 1)]++;
      }
    }
    long[] k2 = new long[n];
    int[] pos2 = new int[n];
    for (int p = 0; p < passes; p++) {
      int shift = p * DIGIT_BITS;
      int[] c = counts[p];
      if (c[(int) (k[0] >>> shift) & (DIGITS - 1)] == n) {
        continue; // every key has this digit: the pass would not move anything
      }
      int sum = 0;
      for (int b = 0; b < DIGITS; b++) {
        int x = c[b];
        c[b] = sum;
        sum += x;
      }
      for (int i = 0; i < n; i++) {
        long v = k[i];
        int at = c[(int) (v >>> shift) & (DIGITS - 1)]++;
        k2[at] = v;
        pos2[at] = pos[i];
      }
      long[] tk = k;
      k = k2;
      k2 = tk;
      int[] tp = pos;
      pos = pos2;
      pos2 = tp;
    }
    return pos;
  }

  // The same order when a key's span and a position fit in one long together (keys of up to 44
  // bits at a million rows): each word carries its position below its key, so the passes move
  // one array of 8-byte words instead of two (12 bytes), and ties stay in position order since
  // the words start in position order and the sort is stable.
  private static int[] packedPositions(long[] keys, int n, long min, int posBits) {
    long[] a = new long[n];
    for (int i = 0; i < n; i++) {
      a[i] = ((keys[i] - min) << posBits) | i;
    }
    a = LongRadixSort.sortAbove(a, n, posBits);
    int[] pos = new int[n];
    long mask = (1L << posBits) - 1;
    for (int i = 0; i < n; i++) {
      pos[i] = (int) (a[i] & mask);
    }
    return pos;
  }

  /**
   * The positions of the rows in order of {@code ranks} (each in {@code [0, distinct)}), ties in
   * position order.
   */
  static int[] order(int[] ranks, int distinct) {
    int[] start = new int[distinct + 1];
    for (int r : ranks) {
      start[r + 1]++;
    }
    for (int r = 0; r < distinct; r++) {
      start[r + 1] += start[r];
    }
    int[] out = new int[ranks.length];
    for (int i = 0; i < ranks.length; i++) {
      out[start[ranks[i]]++] = i;
    }
    return out;
  }
}
