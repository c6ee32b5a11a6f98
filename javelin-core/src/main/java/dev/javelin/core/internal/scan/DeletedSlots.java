package dev.javelin.core.internal.scan;

import dev.javelin.format.Gather;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.roaringbitmap.RoaringBitmap;

/**
 * Lines values computed for a fragment's live rows up with its physical rows: a data file added
 * to a fragment must hold one value per physical row, deleted ones included. Batches of live-row
 * values come in order; each is widened to cover the physical rows from the end of the previous
 * one up to the next live row not in it (or the fragment's end). A deleted slot gets a copy of a
 * neighbouring live row's value, as Lance's updater does (no reader ever sees it).
 */
public final class DeletedSlots {
  private final RoaringBitmap deleted;
  private final long physicalRows;
  private long position;

  public DeletedSlots(RoaringBitmap deleted, long physicalRows) {
    this.deleted = deleted;
    this.physicalRows = physicalRows;
  }

  /** Physical rows covered so far. */
  public long position() {
    return position;
  }

  /**
   * The batch row to copy into each physical slot covered by the next {@code live} live rows, or
   * null when those slots are exactly the batch's rows (no deleted slot among them).
   *
   * @throws IllegalStateException if the fragment has fewer live rows left
   */
  public int[] next(int live) {
    if (live == 0) {
      return null;
    }
    long start = position;
    if (position + live > physicalRows) {
      throw new IllegalStateException("More values than live rows: " + live + " from physical row " + start
          + " of " + physicalRows);
    }
    // The common case, no deleted slot among these rows nor right after them: no index needed.
    // Checked with one bitmap lookup instead of one per row.
    long nextDeleted = position >= physicalRows ? -1 : deleted.nextValue((int) position);
    if (nextDeleted < 0 || nextDeleted > position + live) {
      position += live;
      return null;
    }
    int[] out = new int[live + 16];
    int size = 0;
    int last = -1;
    int placed = 0;
    while (placed < live) {
      if (position >= physicalRows) {
        throw new IllegalStateException("More values than live rows: " + live + " from physical row " + start
            + " of " + physicalRows);
      }
      if (size == out.length) {
        out = Arrays.copyOf(out, size * 2);
      }
      if (deleted.contains((int) position)) {
        out[size++] = Math.max(last, 0);
      } else {
        last = placed++;
        out[size++] = last;
      }
      position++;
    }
    while (position < physicalRows && deleted.contains((int) position)) {
      if (size == out.length) {
        out = Arrays.copyOf(out, size * 2);
      }
      out[size++] = last;
      position++;
    }
    return size == live ? null : Arrays.copyOf(out, size);
  }

  /**
   * A new root holding the batch's vectors widened to the slots {@code idx} (see {@link #next}),
   * which the caller closes; null when {@code idx} is null (the batch itself fits).
   */
  public static VectorSchemaRoot widen(VectorSchemaRoot batch, int[] idx, BufferAllocator allocator) {
    if (idx == null) {
      return null;
    }
    List<FieldVector> out = new ArrayList<>();
    try {
      for (FieldVector v : batch.getFieldVectors()) {
        out.add(Gather.gather(v, idx, allocator));
      }
    } catch (RuntimeException e) {
      out.forEach(FieldVector::close);
      throw e;
    }
    List<Field> fields = new ArrayList<>();
    out.forEach(v -> fields.add(v.getField()));
    return new VectorSchemaRoot(fields, out, idx.length);
  }
}
