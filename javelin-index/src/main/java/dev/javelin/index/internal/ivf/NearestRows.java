package dev.javelin.index.internal.ivf;

import java.util.Arrays;

/**
 * The {@code k} nearest rows of one index search, each kept as one {@code long}: the distance's
 * bits made order-preserving as a signed int in the high half, the row's position in the index
 * (below 2^31) in the low half. Comparing two keys compares (distance, position), a total order,
 * so the k smallest keys of several threads' collections are exactly those of one pass.
 *
 * <p>Offers go to a buffer of {@code max(2k, 256)} keys; when it is full it is cut back to its k
 * smallest by a quickselect and the k-th becomes the bar for later offers: O(1) per offer, and
 * the select runs over plain longs (the (float, long) pairs of {@link TopK} took a fifth of a
 * search's CPU time in their cuts).
 */
final class NearestRows {
  private final int k;
  private final long[] keys;
  private int size;
  // The k-th smallest key at the last cut; Long.MAX_VALUE before the first.
  private long bar = Long.MAX_VALUE;
  // The distance of bar: a key with a larger distance cannot enter.
  private float barDistance = Float.POSITIVE_INFINITY;

  NearestRows(int k) {
    this.k = Math.max(0, k);
    this.keys = new long[Math.max(2 * this.k, 256)];
  }

  /** The key of a row at position {@code row} and distance {@code d} (not NaN). */
  static long key(float d, int row) {
    int bits = Float.floatToRawIntBits(d);
    // Negative floats order backwards by their bits: flip all but the sign so that the ints
    // order as the floats do (and -0.0 just below +0.0).
    bits ^= (bits >> 31) & 0x7FFFFFFF;
    return ((long) bits << 32) | row;
  }

  static float distance(long key) {
    int bits = (int) (key >> 32);
    bits ^= (bits >> 31) & 0x7FFFFFFF;
    return Float.intBitsToFloat(bits);
  }

  static int row(long key) {
    return (int) key;
  }

  /** Rows kept: at most k once {@link #sorted} or a cut has run, possibly more before. */
  int size() {
    return size;
  }

  /** A distance above which an offer cannot enter (+inf until the first cut): a cheap pre-check. */
  float bound() {
    return barDistance;
  }

  /** Offers the row at position {@code row} (at most 2^31 - 1) at distance {@code d}; NaN is ignored. */
  void offer(float d, int row) {
    if (k == 0 || !(d <= barDistance)) {
      return;
    }
    long key = key(d, row);
    if (key > bar) {
      return;
    }
    keys[size++] = key;
    if (size == keys.length) {
      cut();
    }
  }

  /** Offers everything {@code other} keeps. */
  void offerAll(NearestRows other) {
    if (k == 0) {
      return;
    }
    for (int i = 0; i < other.size; i++) {
      long key = other.keys[i];
      if (key <= bar) {
        keys[size++] = key;
        if (size == keys.length) {
          cut();
        }
      }
    }
  }

  /** The kept keys, smallest first. */
  long[] sorted() {
    if (size > k) {
      cut();
    }
    long[] out = Arrays.copyOf(keys, size);
    Arrays.sort(out);
    return out;
  }

  // Keeps the k smallest keys at [0, k) (keys are distinct: one per row) and raises the bar.
  private void cut() {
    if (size <= k) {
      return;
    }
    long[] a = keys;
    int lo = 0;
    int hi = size - 1;
    int target = k - 1;
    while (hi > lo) {
      // Median of three to a[hi] as the pivot, then a Lomuto partition.
      int mid = (lo + hi) >>> 1;
      if (a[lo] > a[mid]) {
        swap(a, lo, mid);
      }
      if (a[mid] > a[hi]) {
        swap(a, mid, hi);
        if (a[lo] > a[mid]) {
          swap(a, lo, mid);
        }
      }
      swap(a, mid, hi);
      long pivot = a[hi];
      int store = lo;
      for (int i = lo; i < hi; i++) {
        long v = a[i];
        if (v < pivot) {
          a[i] = a[store];
          a[store++] = v;
        }
      }
      swap(a, store, hi);
      if (store == target) {
        break;
      }
      if (target < store) {
        hi = store - 1;
      } else {
        lo = store + 1;
      }
    }
    size = k;
    // [0, k) now holds the k smallest with the k-th at k - 1 only if the loop ended on it; the
    // bar is their maximum either way.
    long max = Long.MIN_VALUE;
    for (int i = 0; i < k; i++) {
      max = Math.max(max, a[i]);
    }
    bar = max;
    barDistance = distance(max);
  }

  private static void swap(long[] a, int i, int j) {
    long t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}
