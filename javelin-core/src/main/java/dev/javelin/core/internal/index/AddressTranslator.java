package dev.javelin.core.internal.index;

import dev.javelin.format.exceptions.CorruptFileException;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.rowmap.RowMapReader;
import dev.javelin.table.stablepartition.StablePartitionTransition;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Maps row addresses an index recorded before reordered rewrites to the rows' current addresses:
 * an address (source fragment, offset) of a transition is its row map position (the source's first
 * position plus the offset), whose label names the destination and whose rank is the offset
 * there; an address landing in a source of a later transition goes on through that one. A row
 * deleted when a rewrite read it (null label) has no current address. Addresses outside every
 * transition's sources are left as they are. Deletions after the rewrites are not applied here:
 * the caller applies the destinations' current deletion vectors, as for any indexed fragment.
 *
 * <p>Batched: each transition's positions are sorted and read chunk by chunk (one label and rank
 * pass over the span of each chunk touched), from readers shared through {@link RowMapCache}.
 */
public final class AddressTranslator {
  /** The translation of an address that has no current row. */
  public static final long DROPPED = -1;

  private final RowMapCache rowMaps;
  private final ObjectStore store;
  private final List<StablePartitionTransition> transitions;
  // Source fragment id -> (index of its transition, its first row map position).
  private final Map<Long, long[]> sources = new HashMap<>();

  /**
   * @param rowMaps where the transitions' row map readers are shared (the dataset's session's)
   * @param transitions the transitions to translate through, oldest first (an index's
   *     {@link IndexCoverage#through()})
   */
  public AddressTranslator(RowMapCache rowMaps, ObjectStore store, List<StablePartitionTransition> transitions) {
    this.rowMaps = rowMaps;
    this.store = store;
    this.transitions = transitions;
    for (int t = 0; t < transitions.size(); t++) {
      long first = 0;
      for (StablePartitionTransition.Source s : transitions.get(t).sources()) {
        sources.put(s.id(), new long[] {t, first, s.physicalRows()});
        first += s.physicalRows();
      }
    }
  }

  /** Whether there is anything to translate through. */
  public boolean isIdentity() {
    return transitions.isEmpty();
  }

  /** The current addresses of {@code found} (rows without one left out). */
  public Roaring64NavigableMap translate(Roaring64NavigableMap found) throws IOException {
    if (isIdentity() || found.isEmpty()) {
      return found;
    }
    long[] out = translate(found.toArray());
    Roaring64NavigableMap r = new Roaring64NavigableMap();
    for (long a : out) {
      if (a != DROPPED) {
        r.addLong(a);
      }
    }
    return r;
  }

  /** The current address of each of {@code addresses}, or {@link #DROPPED}, in the same order. */
  public long[] translate(long[] addresses) throws IOException {
    long[] out = addresses.clone();
    if (isIdentity()) {
      return out;
    }
    // Transitions in order: a destination of one can only be a source of a later one, so a
    // single forward pass follows every chain.
    for (int t = 0; t < transitions.size(); t++) {
      int n = 0;
      long[] keyed = new long[16]; // row map positions
      int[] which = new int[16]; // the index in out of each
      long lastFragment = -1;
      long[] s = null;
      for (int i = 0; i < out.length; i++) {
        long a = out[i];
        if (a == DROPPED) {
          continue;
        }
        if (a >>> 32 != lastFragment) {
          // Addresses come in runs of one fragment: one lookup per run.
          lastFragment = a >>> 32;
          s = sources.get(lastFragment);
        }
        if (s == null || s[0] != t) {
          continue;
        }
        long offset = a & 0xFFFFFFFFL;
        if (offset >= s[2]) {
          out[i] = DROPPED; // not a row of the source as the rewrite read it
          continue;
        }
        if (n == keyed.length) {
          keyed = Arrays.copyOf(keyed, n * 2);
          which = Arrays.copyOf(which, n * 2);
        }
        keyed[n] = s[1] + offset;
        which[n] = i;
        n++;
      }
      if (n > 0) {
        through(transitions.get(t), keyed, which, n, out);
      }
    }
    return out;
  }

  // Translates out[which[j]] (at row map position positions[j]) through t, chunk by chunk.
  private void through(StablePartitionTransition t, long[] positions, int[] which, int n, long[] out)
      throws IOException {
    int[] order = new int[n];
    boolean sorted = true;
    for (int j = 0; j < n; j++) {
      order[j] = j;
      sorted &= j == 0 || positions[j - 1] <= positions[j];
    }
    if (!sorted) {
      // Addresses arrive sorted by fragment id, which is usually the sources' order too.
      Integer[] boxed = new Integer[n];
      for (int j = 0; j < n; j++) {
        boxed[j] = j;
      }
      Arrays.sort(boxed, (x, y) -> Long.compare(positions[x], positions[y]));
      for (int j = 0; j < n; j++) {
        order[j] = boxed[j];
      }
    }
    List<Long> dest = t.destinations();
    try (RowMapCache.Lease lease = rowMaps.lease(store, t.rowMapPath())) {
      RowMapReader map = lease.reader();
      if (n > 0 && positions[order[n - 1]] >= map.rows()) {
        throw new CorruptFileException(map.location(), "Row map holds " + map.rows()
            + " rows but transition sources " + t.sources() + " need position " + positions[order[n - 1]]);
      }
      // Sized for the widest span asked (one position for a point lookup), not a whole chunk:
      // zeroing two chunk-sized arrays per query was most of a point query's translation cost.
      int widest = 0;
      for (int j = 0; j < n; ) {
        long first = positions[order[j]];
        long chunk = first / RowMapReader.CHUNK;
        int end = j;
        while (end < n && positions[order[end]] / RowMapReader.CHUNK == chunk) {
          end++;
        }
        widest = (int) Math.max(widest, positions[order[end - 1]] - first + 1);
        j = end;
      }
      int[] labels = new int[widest];
      long[] ranks = new long[widest];
      int j = 0;
      while (j < n) {
        long first = positions[order[j]];
        long chunk = first / RowMapReader.CHUNK;
        int end = j;
        while (end < n && positions[order[end]] / RowMapReader.CHUNK == chunk) {
          end++;
        }
        long last = positions[order[end - 1]];
        int span = (int) (last - first + 1);
        map.ranks(first, span, labels, ranks);
        for (int k = j; k < end; k++) {
          int at = (int) (positions[order[k]] - first);
          int label = labels[at];
          out[which[order[k]]] = label < 0 ? DROPPED : (dest.get(label) << 32) | ranks[at];
        }
        j = end;
      }
    }
  }
}
