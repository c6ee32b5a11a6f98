package dev.javelin.index;

/**
 * Where rows moved when fragments were rewritten: old row address to new row address. Addresses
 * the rewrite did not touch map to themselves.
 */
@FunctionalInterface
public interface RowAddressMap {
  /** What {@link #map} returns for a row that was deleted. */
  long DELETED = -1L;

  /** The new address of the row at {@code oldAddress}, or {@link #DELETED}. */
  long map(long oldAddress);
}
