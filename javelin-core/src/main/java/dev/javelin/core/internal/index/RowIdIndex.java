package dev.javelin.core.internal.index;

import dev.javelin.core.Dataset;
import dev.javelin.table.Fragment;
import dev.javelin.table.deletion.Deletes;
import dev.javelin.table.exceptions.TableErrors;
import dev.javelin.table.rowids.RowIdSequence;
import dev.javelin.table.rowids.U64Segment;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PrimitiveIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * Finds the live row holding a stable row id in one dataset version. Built once per
 * {@link Dataset} (a version never changes): each fragment's sequence and its [min, max] id, sorted
 * by min, so a lookup only searches fragments whose range holds the id. An id may sit in several
 * fragments (an update leaves the old copy deleted); the live copy wins.
 */
public final class RowIdIndex {
  /** {@link #lookup} result: no fragment holds the id. */
  static final long UNKNOWN = -1;
  /** {@link #lookup} result: every row holding the id is deleted. */
  public static final long DELETED = -2;

  private final Dataset ds;
  private final Entry[] entries; // by min
  private final long[] mins;
  private final long[] maxSoFar; // max of entries[0..i].max: stops the backward search

  private static final class Entry {
    final int fragment; // index in the manifest's fragment list
    final long min;
    final long max;
    final RowIdSequence ids;
    RoaringBitmap deleted; // loaded on first use

    Entry(int fragment, long min, long max, RowIdSequence ids) {
      this.fragment = fragment;
      this.min = min;
      this.max = max;
      this.ids = ids;
    }
  }

  private RowIdIndex(Dataset ds, Entry[] entries) {
    this.ds = ds;
    this.entries = entries;
    this.mins = new long[entries.length];
    this.maxSoFar = new long[entries.length];
    long max = Long.MIN_VALUE;
    for (int i = 0; i < entries.length; i++) {
      mins[i] = entries[i].min;
      max = Math.max(max, entries[i].max);
      maxSoFar[i] = max;
    }
  }

  /** Reads every fragment's row id sequence (inline ones cost nothing to read). */
  public static RowIdIndex build(Dataset ds) {
    List<Fragment> fragments = ds.manifest().fragments();
    List<Entry> out = new ArrayList<>();
    for (int i = 0; i < fragments.size(); i++) {
      Fragment f = fragments.get(i);
      if (f.physicalRows() == 0) {
        continue;
      }
      RowIdSequence ids = f.rowIdSequence(ds.store()).orElseThrow(() -> TableErrors.corrupt(ds.location(),
          "Fragment " + f.id() + " has no row id sequence in a dataset with stable row ids"));
      long min = Long.MAX_VALUE;
      long max = Long.MIN_VALUE;
      for (U64Segment s : ids.segments()) {
        if (s.length() == 0) {
          continue;
        }
        if (s.kind() == U64Segment.Kind.ARRAY) {
          for (PrimitiveIterator.OfLong it = s.iterator(); it.hasNext(); ) {
            long v = it.nextLong();
            min = Math.min(min, v);
            max = Math.max(max, v);
          }
        } else {
          // Every other form is sorted.
          min = Math.min(min, s.get(0));
          max = Math.max(max, s.get(s.length() - 1));
        }
      }
      out.add(new Entry(i, min, max, ids));
    }
    Entry[] entries = out.toArray(new Entry[0]);
    Arrays.sort(entries, Comparator.comparingLong((Entry e) -> e.min));
    return new RowIdIndex(ds, entries);
  }

  /**
   * The live row holding {@code rowId} as {@code fragmentIndex << 32 | physical row} (the index
   * in the manifest's fragment list), or {@link #UNKNOWN} or {@link #DELETED}.
   */
  public long lookup(long rowId) throws IOException {
    int hi = upperBound(rowId); // entries [0, hi) have min <= rowId
    boolean sawDeleted = false;
    for (int i = hi - 1; i >= 0 && maxSoFar[i] >= rowId; i--) {
      Entry e = entries[i];
      if (e.max < rowId) {
        continue;
      }
      long row = e.ids.indexOf(rowId);
      if (row < 0) {
        continue;
      }
      if (deleted(e).contains((int) row)) {
        sawDeleted = true;
        continue;
      }
      return (long) e.fragment << 32 | row;
    }
    return sawDeleted ? DELETED : UNKNOWN;
  }

  private int upperBound(long rowId) {
    int lo = 0;
    int hi = mins.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (mins[mid] <= rowId) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private RoaringBitmap deleted(Entry e) throws IOException {
    synchronized (e) {
      if (e.deleted == null) {
        e.deleted = Deletes.deletedRows(ds.store(), ds.manifest().fragments().get(e.fragment), ds.allocator());
      }
      return e.deleted;
    }
  }
}
