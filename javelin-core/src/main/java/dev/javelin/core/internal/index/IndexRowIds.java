package dev.javelin.core.internal.index;

import dev.javelin.core.Dataset;
import dev.javelin.table.Fragment;
import dev.javelin.table.deletion.Deletes;
import dev.javelin.table.exceptions.TableErrors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.roaringbitmap.RoaringBitmap;

/**
 * How an index names a dataset's rows, as Lance does: by stable row id when the dataset has stable
 * row ids, otherwise by row address ({@code fragment_id << 32 | physical offset}).
 */
final class IndexRowIds {
  private IndexRowIds() {}

  /**
   * The ids of fragment {@code f}'s physical rows (deleted ones included), or null when they are
   * row addresses, computed by {@link #id}.
   */
  static long[] of(Dataset ds, Fragment f) {
    if (!ds.hasStableRowIds() || f.physicalRows() == 0) {
      return null;
    }
    return f.rowIdSequence(ds.store()).orElseThrow(() -> TableErrors.corrupt(ds.location(),
        "Fragment " + f.id() + " has no row id sequence in a dataset with stable row ids")).toArray();
  }

  /** The id of physical row {@code offset} of fragment {@code fragmentId}, given {@link #of}. */
  static long id(long[] ids, long fragmentId, long offset) {
    return ids == null ? fragmentId << 32 | offset : ids[(int) offset];
  }

  /**
   * Which index row ids still name a live row of one of {@code fragments} in {@code ds}'s version
   * (rows of other fragments, of retired fragments and deleted rows are rejected). With stable row
   * ids a row is found where it lives now, so an index row of a row that an update moved to a
   * fragment outside {@code fragments} is rejected too (the moved copy is indexed with its new
   * fragment).
   */
  static LongPredicate liveIn(Dataset ds, RoaringBitmap fragments, BufferAllocator allocator) throws IOException {
    List<Fragment> live = ds.manifest().fragments();
    if (ds.hasStableRowIds()) {
      RowIdIndex index = ds.rowIdIndex();
      return id -> {
        long at;
        try {
          at = index.lookup(id);
        } catch (IOException e) {
          throw new UncheckedIOException("Reading a deletion file failed: " + ds.location(), e);
        }
        return at >= 0 && fragments.contains((int) live.get((int) (at >>> 32)).id());
      };
    }
    Map<Long, RoaringBitmap> deleted = new HashMap<>();
    for (Fragment f : live) {
      if (f.id() <= 0xFFFFFFFFL && fragments.contains((int) f.id())) {
        deleted.put(f.id(), Deletes.deletedRows(ds.store(), f, allocator));
      }
    }
    return address -> {
      RoaringBitmap d = deleted.get(address >>> 32);
      return d != null && !d.contains((int) (address & 0xFFFFFFFFL));
    };
  }
}
