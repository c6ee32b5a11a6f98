package dev.javelin.format.internal.v20;

import dev.javelin.format.internal.encoding.RowRanges;
import java.util.Arrays;

/** Sorted, disjoint [start, end) ranges of rows or list items, built in order. */
final class Ranges {
  final long[] starts;
  final long[] ends;
  final int size;
  final long total;

  private Ranges(long[] starts, long[] ends, int size, long total) {
    this.starts = starts;
    this.ends = ends;
    this.size = size;
    this.total = total;
  }

  static Ranges of(RowRanges rows) {
    Builder b = new Builder();
    for (int i = 0; i < rows.size(); i++) {
      b.add(rows.start(i), rows.end(i));
    }
    return b.build();
  }

  /** Collects ranges in ascending order, merging ranges that touch. */
  static final class Builder {
    private long[] starts = new long[8];
    private long[] ends = new long[8];
    private int size;
    private long total;

    /** Adds [start, end); empty ranges are ignored. Ranges must come in ascending order. */
    void add(long start, long end) {
      if (end <= start) {
        return;
      }
      total += end - start;
      if (size > 0 && ends[size - 1] == start) {
        ends[size - 1] = end;
        return;
      }
      if (size == starts.length) {
        starts = Arrays.copyOf(starts, size * 2);
        ends = Arrays.copyOf(ends, size * 2);
      }
      starts[size] = start;
      ends[size] = end;
      size++;
    }

    Ranges build() {
      return new Ranges(starts, ends, size, total);
    }
  }
}
