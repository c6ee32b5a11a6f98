package dev.javelin.index.internal.scalar;

import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * What a scalar index found.
 *
 * @param rows the row addresses that may match (all of them match for an exact kind)
 * @param zones zones the index holds (0 for kinds without zones)
 * @param zonesSkipped zones left out because they cannot hold a match
 * @param rowsSkipped rows of the zones left out (their address spans, deleted rows included)
 */
public record ScalarSearch(Roaring64NavigableMap rows, long zones, long zonesSkipped, long rowsSkipped) {
  /** An exact answer (no zones). */
  public static ScalarSearch exact(Roaring64NavigableMap rows) {
    return new ScalarSearch(rows, 0, 0, 0);
  }
}
