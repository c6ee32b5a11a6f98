package dev.javelin.index.internal.btree;


/** Sorts an {@code int[]} with a primitive comparator: a merge sort, O(n log n), no boxing. */
final class IntSort {
  /** Compares two ints. */
  interface IntComparator {
    int compare(int a, int b);
  }

  private IntSort() {}

  static void sort(int[] a, IntComparator c) {
    if (a.length < 2) {
      return;
    }
    int[] tmp = a.clone();
    mergeSort(tmp, a, 0, a.length, c);
  }

  // Sorts src[from, to) into dst[from, to); both start with the same contents.
  private static void mergeSort(int[] src, int[] dst, int from, int to, IntComparator c) {
    int n = to - from;
    if (n < 16) {
      for (int i = from + 1; i < to; i++) {
        int v = dst[i];
        int j = i - 1;
        while (j >= from && c.compare(dst[j], v) > 0) {
          dst[j + 1] = dst[j];
          j--;
        }
        dst[j + 1] = v;
      }
      return;
    }
    int mid = (from + to) >>> 1;
    mergeSort(dst, src, from, mid, c);
    mergeSort(dst, src, mid, to, c);
    if (c.compare(src[mid - 1], src[mid]) <= 0) {
      System.arraycopy(src, from, dst, from, n);
      return;
    }
    for (int i = from, p = from, q = mid; i < to; i++) {
      if (q >= to || (p < mid && c.compare(src[p], src[q]) <= 0)) {
        dst[i] = src[p++];
      } else {
        dst[i] = src[q++];
      }
    }
  }
}
