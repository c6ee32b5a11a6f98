package dev.javelin.format.internal.v20;

import java.util.Arrays;

/**
 * Requested values split by page: piece i is values [from, to) of page {@code page[i]}, going to
 * position {@code dest[i]} of the output. Pieces are in page order.
 */
final class Pieces {
  int size;
  int[] page;
  long[] from;
  long[] to;
  long[] dest;

  Pieces(int capacity) {
    int c = Math.max(4, Math.min(capacity, 1 << 16));
    page = new int[c];
    from = new long[c];
    to = new long[c];
    dest = new long[c];
  }

  void add(int p, long f, long t, long d) {
    if (size == page.length) {
      int c = size * 2;
      page = Arrays.copyOf(page, c);
      from = Arrays.copyOf(from, c);
      to = Arrays.copyOf(to, c);
      dest = Arrays.copyOf(dest, c);
    }
    page[size] = p;
    from[size] = f;
    to[size] = t;
    dest[size] = d;
    size++;
  }

  /** The index one past the last piece of the same page as piece {@code i}. */
  int groupEnd(int i) {
    int j = i;
    while (j < size && page[j] == page[i]) {
      j++;
    }
    return j;
  }

  /** The values pieces [i, j) take. */
  long count(int i, int j) {
    long n = 0;
    for (int k = i; k < j; k++) {
      n += to[k] - from[k];
    }
    return n;
  }
}
