package dev.javelin.index.internal.scalar;

/**
 * Cuts a stream of rows (in row address order) into zones as Lance does: a zone ends after
 * {@code rowsPerZone} rows or at the end of a fragment. Each zone spans from its first row's
 * offset to its last row's, so the rows deleted between them belong to it.
 */
public final class ZoneCutter {
  /** Receives each zone when it ends. */
  public interface Sink {
    void zone(long fragment, long start, long length);
  }

  private final long rowsPerZone;
  private final Sink sink;
  private long fragment = -1;
  private long first;
  private long last;
  private long rows;

  public ZoneCutter(long rowsPerZone, Sink sink) {
    if (rowsPerZone <= 0) {
      throw new IllegalArgumentException("rows per zone must be positive: " + rowsPerZone);
    }
    this.rowsPerZone = rowsPerZone;
    this.sink = sink;
  }

  /**
   * Places the row at {@code address}; returns true when it starts a new zone (the caller resets
   * its statistics after {@link Sink#zone} flushed the previous one).
   */
  public boolean place(long address) {
    long f = address >>> 32;
    long offset = address & 0xFFFFFFFFL;
    boolean fresh = false;
    if (rows > 0 && (f != fragment || rows == rowsPerZone)) {
      flush();
    }
    if (rows == 0) {
      fragment = f;
      first = offset;
      fresh = true;
    }
    last = offset;
    rows++;
    return fresh;
  }

  /** Ends the current zone, if any. */
  public void flush() {
    if (rows > 0) {
      sink.zone(fragment, first, last - first + 1);
      rows = 0;
    }
  }
}
