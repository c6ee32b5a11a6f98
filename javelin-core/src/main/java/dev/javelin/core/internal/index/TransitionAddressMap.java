package dev.javelin.core.internal.index;

import dev.javelin.format.exceptions.CorruptFileException;
import dev.javelin.index.RowAddressMap;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.rowmap.RowMapReader;
import dev.javelin.table.stablepartition.StablePartitionTransition;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Old row address to current row address through reordered rewrites, materialized for remapping
 * whole indices (where {@link AddressTranslator} translates the few addresses a query found): each
 * source row's destination address ({@code destinations[label] << 32 | rank}) is worked out once
 * from one sequential pass over its row map, eight bytes per source row. An address landing in a
 * source of a later transition goes on through it; a row deleted when a rewrite read it (null
 * label), or an offset past the source's rows, maps to {@link RowAddressMap#DELETED}; addresses
 * outside the transitions map to themselves.
 */
final class TransitionAddressMap implements RowAddressMap {
  // Source fragment id -> the new address of each of its physical rows.
  private final Map<Long, long[]> moved = new HashMap<>();

  /**
   * @param transitions the transitions to map through, oldest first (an index's
   *     {@link IndexCoverage#through()})
   */
  TransitionAddressMap(ObjectStore store, List<StablePartitionTransition> transitions, BufferAllocator allocator)
      throws IOException {
    for (StablePartitionTransition t : transitions) {
      read(store, t, allocator);
    }
  }

  private void read(ObjectStore store, StablePartitionTransition t, BufferAllocator allocator) throws IOException {
    try (RowMapReader map = RowMapReader.open(store, t.rowMapPath(), allocator)) {
      long total = 0;
      for (StablePartitionTransition.Source s : t.sources()) {
        total += s.physicalRows();
      }
      if (map.rows() != total) {
        throw new CorruptFileException(map.location(), "Row map holds " + map.rows()
            + " rows but transition sources " + t.sources() + " hold " + total);
      }
      long[] next = new long[t.destinations().size()]; // rows placed in each destination so far
      int[] labels = new int[RowMapReader.CHUNK];
      long position = 0;
      for (StablePartitionTransition.Source s : t.sources()) {
        if (s.physicalRows() > Integer.MAX_VALUE) {
          throw new IllegalArgumentException("Fragment " + s.id() + " has " + s.physicalRows()
              + " rows, more than an index remap can hold: " + store.location());
        }
        long[] to = new long[(int) s.physicalRows()];
        int done = 0;
        while (done < to.length) {
          int n = Math.min(to.length - done, RowMapReader.CHUNK);
          map.labels(position, n, labels);
          for (int i = 0; i < n; i++) {
            int l = labels[i];
            to[done + i] = l < 0 ? DELETED : (t.destinations().get(l) << 32) | next[l]++;
          }
          done += n;
          position += n;
        }
        moved.put(s.id(), to);
      }
    }
  }

  @Override
  public long map(long oldAddress) {
    long a = oldAddress;
    // Transitions are in order and a destination is only ever a source of a later one, so this
    // follows a chain and ends.
    while (true) {
      long[] to = moved.get(a >>> 32);
      if (to == null) {
        return a;
      }
      long offset = a & 0xFFFFFFFFL;
      if (offset >= to.length) {
        return DELETED;
      }
      a = to[(int) offset];
      if (a == DELETED) {
        return DELETED;
      }
    }
  }

  @Override
  public String toString() {
    return "TransitionAddressMap" + Arrays.toString(moved.keySet().toArray());
  }
}
