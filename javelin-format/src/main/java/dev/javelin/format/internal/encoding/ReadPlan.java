package dev.javelin.format.internal.encoding;

import java.util.Arrays;

/**
 * The byte ranges of a file that a take will read, gathered from its decoders before they decode
 * (see {@link FieldDecoder#plan}), so that {@link ColumnSource#fetch} can read each distinct range
 * once, coalescing neighbours, instead of each decoder reading a chunk per requested row. Ranges
 * may repeat and overlap. Not thread-safe.
 */
public final class ReadPlan {
  private long[] starts = new long[16];
  private long[] ends = new long[16];
  private int size;

  /** Adds the bytes [position, position + length) of the file; empty ranges are ignored. */
  public void add(long position, long length) {
    if (length <= 0 || position < 0) {
      return;
    }
    long end = position + length;
    // Rows sorted by address mostly extend or repeat the last range: keep that one entry.
    if (size > 0 && position >= starts[size - 1] && position <= ends[size - 1]) {
      ends[size - 1] = Math.max(ends[size - 1], end);
      return;
    }
    if (size == starts.length) {
      starts = Arrays.copyOf(starts, size * 2);
      ends = Arrays.copyOf(ends, size * 2);
    }
    starts[size] = position;
    ends[size] = end;
    size++;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** The bytes of the ranges added (overlaps counted twice). */
  public long bytes() {
    long n = 0;
    for (int i = 0; i < size; i++) {
      n += ends[i] - starts[i];
    }
    return n;
  }

  /**
   * The ranges sorted and merged where they overlap or lie at most {@code gap} bytes apart, as
   * {@code [starts, ends]}; a merged range does not grow past {@code maxLength} bytes (a single
   * range longer than that is kept as it is).
   */
  long[][] coalesced(long gap, long maxLength) {
    Integer[] order = new Integer[size];
    for (int i = 0; i < size; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (x, y) -> Long.compare(starts[x], starts[y]));
    long[] s = new long[size];
    long[] e = new long[size];
    int n = 0;
    for (int k = 0; k < size; k++) {
      int i = order[k];
      if (n > 0 && starts[i] <= e[n - 1] + gap && Math.max(e[n - 1], ends[i]) - s[n - 1] <= maxLength) {
        e[n - 1] = Math.max(e[n - 1], ends[i]);
      } else {
        s[n] = starts[i];
        e[n] = ends[i];
        n++;
      }
    }
    return new long[][] {Arrays.copyOf(s, n), Arrays.copyOf(e, n)};
  }
}
