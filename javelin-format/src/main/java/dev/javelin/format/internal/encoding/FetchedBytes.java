package dev.javelin.format.internal.encoding;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Bytes of one file fetched ahead, by file position: reads that fall inside them cost no I/O. One
 * source keeps its own for a take; a remote file's scans share one, so that the row ranges a
 * parallel scan reads side by side fetch the pages they share once. Pieces that touch or overlap
 * are merged (so a later read never spans two), and past the budget the oldest pieces are
 * dropped (a read of them then goes to the file). Safe for concurrent use; {@link #fetchLock()}
 * lets one fetch at a time find and fill gaps, so two readers never fetch the same bytes.
 */
public final class FetchedBytes {
  private final long budget;
  private final TreeMap<Long, ByteBuffer> pieces = new TreeMap<>();
  // Piece starts in the order they were made, oldest first (stale entries are skipped).
  private final ArrayDeque<Long> order = new ArrayDeque<>();
  private final Object fetchLock = new Object();
  private long bytes;

  public FetchedBytes(long budget) {
    this.budget = budget;
  }

  /** Held by a fetch while it finds the gaps, reads them and keeps the bytes. */
  Object fetchLock() {
    return fetchLock;
  }

  /** The bytes held. */
  synchronized long bytes() {
    return bytes;
  }

  /** Bytes [position, position + length) as a little-endian slice, or null when not all held. */
  synchronized ByteBuffer slice(long position, long length) {
    Map.Entry<Long, ByteBuffer> e = pieces.floorEntry(position);
    if (e == null || position + length > e.getKey() + e.getValue().capacity()) {
      return null;
    }
    return e.getValue().slice((int) (position - e.getKey()), (int) length).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** The parts of [s, e) no piece holds, as start, end pairs. */
  synchronized long[] gaps(long s, long e) {
    long[] out = new long[4];
    int n = 0;
    long at = s;
    Map.Entry<Long, ByteBuffer> before = pieces.floorEntry(s);
    if (before != null) {
      at = Math.max(at, before.getKey() + before.getValue().capacity());
    }
    for (Map.Entry<Long, ByteBuffer> x : pieces.subMap(s, false, e, false).entrySet()) {
      if (x.getKey() > at) {
        if (n + 2 > out.length) {
          out = Arrays.copyOf(out, out.length * 2);
        }
        out[n++] = at;
        out[n++] = x.getKey();
      }
      at = Math.max(at, x.getKey() + x.getValue().capacity());
    }
    if (at < e) {
      if (n + 2 > out.length) {
        out = Arrays.copyOf(out, out.length * 2);
      }
      out[n++] = at;
      out[n++] = e;
    }
    return Arrays.copyOf(out, n);
  }

  /**
   * Keeps {@code data}, read at {@code s}, merged with the pieces it overlaps or touches (their
   * bytes are copied, not read again); then drops the oldest pieces while over the budget.
   */
  synchronized void insert(long s, ByteBuffer data) {
    long e = s + data.remaining();
    long from = s;
    long to = e;
    Map.Entry<Long, ByteBuffer> before = pieces.floorEntry(s);
    if (before != null && before.getKey() + before.getValue().capacity() >= s) {
      from = before.getKey();
    }
    Map<Long, ByteBuffer> joined = pieces.subMap(from, true, e, true);
    for (Map.Entry<Long, ByteBuffer> x : joined.entrySet()) {
      to = Math.max(to, x.getKey() + x.getValue().capacity());
    }
    if (to - from > Integer.MAX_VALUE - 64) {
      return; // too large to hold as one piece: those reads go to the file
    }
    ByteBuffer merged = ByteBuffer.allocate((int) (to - from)).order(ByteOrder.LITTLE_ENDIAN);
    for (Map.Entry<Long, ByteBuffer> x : List.copyOf(joined.entrySet())) {
      ByteBuffer piece = x.getValue();
      merged.put((int) (x.getKey() - from), piece, 0, piece.capacity());
      bytes -= piece.capacity();
      pieces.remove(x.getKey());
    }
    merged.put((int) (s - from), data, data.position(), data.remaining());
    pieces.put(from, merged);
    order.addLast(from);
    bytes += merged.capacity();
    for (int tries = order.size(); bytes > budget && tries > 0; tries--) {
      Long oldest = order.pollFirst();
      if (oldest == from) {
        order.addLast(oldest); // never the piece just made
        continue;
      }
      ByteBuffer dropped = pieces.remove(oldest);
      if (dropped != null) {
        bytes -= dropped.capacity();
      }
    }
  }

  /** Drops the pieces that no range of {@code plan} needs. */
  synchronized void retainOnly(ReadPlan plan) {
    long[][] ranges = plan.coalesced(0, Long.MAX_VALUE);
    pieces.entrySet().removeIf(x -> {
      long s = x.getKey();
      long e = s + x.getValue().capacity();
      int i = Arrays.binarySearch(ranges[0], e);
      i = i >= 0 ? i - 1 : -i - 2; // the last range starting before e
      boolean needed = i >= 0 && ranges[1][i] > s;
      if (!needed) {
        bytes -= x.getValue().capacity();
      }
      return !needed;
    });
  }
}
