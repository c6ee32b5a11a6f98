package dev.javelin.core.compaction;

import dev.javelin.core.exceptions.CompactionException;
import dev.javelin.index.RowAddressMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.roaringbitmap.RoaringBitmap;

/**
 * Where a fragment rewrite moved each row, worked out rather than stored (as Lance's
 * {@code transpose_row_addrs}): the live rows of a group's old fragments, in order, fill its new
 * fragments in order. An address of a fragment no group rewrote maps to itself.
 */
final class RewriteAddressMap implements RowAddressMap {
  /** One rewritten group: the old fragments with their deleted offsets, the new ids and sizes. */
  record Group(List<Long> oldIds, List<Long> oldPhysicalRows, List<RoaringBitmap> deleted, List<Long> newIds,
      List<Long> newRows) {}

  private record Old(Group group, long liveBefore, RoaringBitmap deleted, long physicalRows) {}

  private final Map<Long, Old> old = new HashMap<>();
  private final Map<Group, long[]> newStarts = new HashMap<>();

  RewriteAddressMap(List<Group> groups) {
    for (Group g : groups) {
      long live = 0;
      for (int i = 0; i < g.oldIds().size(); i++) {
        old.put(g.oldIds().get(i), new Old(g, live, g.deleted().get(i), g.oldPhysicalRows().get(i)));
        live += g.oldPhysicalRows().get(i) - g.deleted().get(i).getLongCardinality();
      }
      long[] starts = new long[g.newIds().size() + 1];
      for (int i = 0; i < g.newIds().size(); i++) {
        starts[i + 1] = starts[i] + g.newRows().get(i);
      }
      if (starts[starts.length - 1] != live) {
        throw new CompactionException("A rewrite of fragments " + g.oldIds() + " wrote " + starts[starts.length - 1]
            + " rows but they hold " + live + " live rows");
      }
      newStarts.put(g, starts);
    }
  }

  @Override
  public long map(long oldAddress) {
    Old o = old.get(oldAddress >>> 32);
    if (o == null) {
      return oldAddress;
    }
    int offset = (int) oldAddress;
    if (Integer.toUnsignedLong(offset) >= o.physicalRows() || o.deleted().contains(offset)) {
      return DELETED;
    }
    // rank counts deleted offsets up to and including offset, which is live here.
    long k = o.liveBefore() + offset - o.deleted().rankLong(offset);
    long[] starts = newStarts.get(o.group());
    int lo = 0;
    int hi = starts.length - 2;
    while (lo < hi) { // the last new fragment whose first row is at or before k
      int mid = (lo + hi + 1) >>> 1;
      if (starts[mid] <= k) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return (o.group().newIds().get(lo) << 32) | (k - starts[lo]);
  }
}
