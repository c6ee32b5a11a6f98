package dev.javelin.index.internal.scalar;

import java.util.Arrays;
import java.util.function.IntPredicate;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * The zones of a zone map or bloom filter: runs of rows of one fragment, each named by its
 * fragment, the physical offset of its first row and the span to its last row (deleted rows in
 * between included), as lance-core 7.0.0 records them.
 */
public final class Zones {
  private long[] fragments = new long[16];
  private long[] starts = new long[16];
  private long[] lengths = new long[16];
  private int size;

  /** Adds a zone. */
  public void add(long fragment, long start, long length) {
    if (size == fragments.length) {
      fragments = Arrays.copyOf(fragments, size * 2);
      starts = Arrays.copyOf(starts, size * 2);
      lengths = Arrays.copyOf(lengths, size * 2);
    }
    fragments[size] = fragment;
    starts[size] = start;
    lengths[size] = length;
    size++;
  }

  public int size() {
    return size;
  }

  public long fragment(int z) {
    return fragments[z];
  }

  public long start(int z) {
    return starts[z];
  }

  public long length(int z) {
    return lengths[z];
  }

  /** The rows of every zone {@code keep} accepts, with counts of the zones and rows it rejects. */
  public ScalarSearch select(IntPredicate keep) {
    Roaring64NavigableMap rows = new Roaring64NavigableMap();
    long skipped = 0;
    long rowsSkipped = 0;
    for (int z = 0; z < size; z++) {
      if (keep.test(z)) {
        long from = (fragments[z] << 32) + starts[z];
        rows.addRange(from, from + lengths[z]);
      } else {
        skipped++;
        rowsSkipped += lengths[z];
      }
    }
    return new ScalarSearch(rows, size, skipped, rowsSkipped);
  }
}
