package dev.javelin.core.util;

import java.util.Arrays;

/**
 * A stable least-significant-digit radix sort of longs, for the engine's own sorts of many
 * numbers (vector search's candidate row addresses, a clustering's keys packed with their
 * positions); not part of the dataset API. Values are sorted by their bits above the lowest
 * {@code skip}, taken relative to the smallest, so only the bits in which they differ cost a
 * pass (11 bits a pass); all passes' histograms come from one read, and a pass in which every
 * value has the same digit is skipped.
 */
public final class LongRadixSort {
  private static final int DIGIT_BITS = 11;
  private static final int DIGITS = 1 << DIGIT_BITS;
  // Plain sorts (skip 0): below this many, or above this many passes, a comparison sort is as fast.
  private static final int MIN_RADIX = 512;
  private static final int MAX_PASSES = 4;

  private LongRadixSort() {}

  /** Sorts {@code a} ascending (signed), in place. */
  public static void sort(long[] a) {
    long[] sorted = sortAbove(a, a.length, 0);
    if (sorted != a) {
      System.arraycopy(sorted, 0, a, 0, a.length);
    }
  }

  /**
   * Sorts {@code a[0..n)} ascending by {@code v >> skip} (signed), stably: values equal above
   * their lowest {@code skip} bits keep their order (so positions packed into the low bits of
   * values in position order break ties by position).
   *
   * @return the sorted values: {@code a} itself or a new array of {@code n}
   */
  public static long[] sortAbove(long[] a, int n, int skip) {
    if (n < 2) {
      return a;
    }
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int i = 0; i < n; i++) {
      long v = a[i] >> skip;
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    int bits = 64 - Long.numberOfLeadingZeros(max - min); // the span, as unsigned
    int passes = (bits + DIGIT_BITS - 1) / DIGIT_BITS;
    if (skip == 0 && (n < MIN_RADIX || passes > MAX_PASSES)) {
      Arrays.sort(a, 0, n); // equal values are identical: stability does not matter
      return a;
    }
    int[][] counts = new int[passes][DIGITS];
    for (int i = 0; i < n; i++) {
      long v = (a[i] >> skip) - min;
      for (int p = 0; p < passes; p++) {
        counts[p][(int) (v >>> (p * DIGIT_BITS)) & (DIGITS - 1)]++;
      }
    }
    long[] src = a;
    long[] dst = new long[n];
    for (int p = 0; p < passes; p++) {
      int shift = p * DIGIT_BITS;
      int[] c = counts[p];
      if (c[(int) (((src[0] >> skip) - min) >>> shift) & (DIGITS - 1)] == n) {
        continue; // every value has this digit: the pass would not move anything
      }
      int sum = 0;
      for (int d = 0; d < DIGITS; d++) {
        int x = c[d];
        c[d] = sum;
        sum += x;
      }
      for (int i = 0; i < n; i++) {
        long v = src[i];
        dst[c[(int) (((v >> skip) - min) >>> shift) & (DIGITS - 1)]++] = v;
      }
      long[] t = src;
      src = dst;
      dst = t;
    }
    return src;
  }
}
