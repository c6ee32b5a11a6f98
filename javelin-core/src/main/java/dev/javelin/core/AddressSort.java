package dev.javelin.core;

import java.util.Arrays;

/**
 * Sorts row addresses (non-negative longs) by radix: vector search sorts thousands of candidate
 * addresses per query to read them in file order, and a comparison sort of 5,000 took about a
 * quarter of the re-ranking. Addresses of a query span few bits above their minimum (the row
 * offsets, and a few fragment ids), so two to four passes of 11 bits suffice.
 */
final class AddressSort {
  private static final int BITS = 11;
  private static final int MAX_PASSES = 4;
  /** Below this many a comparison sort is as fast. */
  private static final int MIN_RADIX = 512;

  private AddressSort() {}

  /** Sorts {@code a} ascending. */
  static void sort(long[] a) {
    int n = a.length;
    if (n < MIN_RADIX) {
      Arrays.sort(a);
      return;
    }
    long min = a[0];
    long max = a[0];
    for (long v : a) {
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    int bits = 64 - Long.numberOfLeadingZeros(max - min);
    int passes = (bits + BITS - 1) / BITS;
    if (min < 0 || passes > MAX_PASSES) {
      Arrays.sort(a); // far apart fragment ids (or not addresses): too many passes
      return;
    }
    int mask = (1 << BITS) - 1;
    int[] count = new int[(1 << BITS) + 1];
    long[] src = a;
    long[] dst = new long[n];
    for (int p = 0; p < passes; p++) {
      int shift = p * BITS;
      Arrays.fill(count, 0);
      for (long v : src) {
        count[((int) ((v - min) >>> shift) & mask) + 1]++;
      }
      for (int i = 0; i < mask + 1; i++) {
        count[i + 1] += count[i];
      }
      for (long v : src) {
        dst[count[(int) ((v - min) >>> shift) & mask]++] = v;
      }
      long[] t = src;
      src = dst;
      dst = t;
    }
    if (src != a) {
      System.arraycopy(src, 0, a, 0, n);
    }
  }
}
