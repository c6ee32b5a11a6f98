package dev.javelin.format.internal.encoding;

import java.util.Arrays;

/** Sorted, disjoint, non-empty row ranges [start, end). Immutable. */
public final class RowRanges {
  private final long[] starts;
  private final long[] ends;
  private final long numRows;

  private RowRanges(long[] starts, long[] ends) {
    this.starts = starts;
    this.ends = ends;
    long n = 0;
    for (int i = 0; i < starts.length; i++) {
      n += ends[i] - starts[i];
    }
    this.numRows = n;
  }

  /** One range [start, end); empty when start == end. */
  public static RowRanges of(long start, long end) {
    if (start < 0 || end < start) {
      throw new IllegalArgumentException("Invalid row range [" + start + ", " + end + ")");
    }
    if (start == end) {
      return new RowRanges(new long[0], new long[0]);
    }
    return new RowRanges(new long[] {start}, new long[] {end});
  }

  /**
   * Ranges covering the given rows, which must be sorted and without duplicates; adjacent rows
   * are merged into one range.
   */
  public static RowRanges ofSortedRows(long[] rows) {
    long[] s = new long[rows.length];
    long[] e = new long[rows.length];
    int n = 0;
    for (int i = 0; i < rows.length; i++) {
      long r = rows[i];
      if (r < 0 || (i > 0 && r <= rows[i - 1])) {
        throw new IllegalArgumentException("Rows must be sorted, unique and non-negative; got " + r
            + (i > 0 ? " after " + rows[i - 1] : ""));
      }
      if (n > 0 && e[n - 1] == r) {
        e[n - 1] = r + 1;
      } else {
        s[n] = r;
        e[n] = r + 1;
        n++;
      }
    }
    return new RowRanges(Arrays.copyOf(s, n), Arrays.copyOf(e, n));
  }

  public int size() {
    return starts.length;
  }

  public long start(int i) {
    return starts[i];
  }

  public long end(int i) {
    return ends[i];
  }

  /** Total rows across all ranges. */
  public long numRows() {
    return numRows;
  }

  public boolean isEmpty() {
    return starts.length == 0;
  }

  /** One past the last row, or 0 when empty. */
  public long last() {
    return starts.length == 0 ? 0 : ends[ends.length - 1];
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < starts.length; i++) {
      b.append(i == 0 ? "" : ", ").append(starts[i]).append("..").append(ends[i]);
    }
    return b.append(']').toString();
  }
}
