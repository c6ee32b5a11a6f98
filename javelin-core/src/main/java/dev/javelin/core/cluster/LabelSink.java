package dev.javelin.core.cluster;

/**
 * Receives the row map of a clustering: one call per source PHYSICAL row, in source order (every
 * row of the first source fragment by offset, then the second, ...). A live row gets
 * {@link #label} with the index of its destination in {@link ClusterResult#destinationIds()}; a
 * row deleted when the rewrite read the sources gets {@link #deleted}. Within one destination,
 * rows keep the order of their labels (a stable partition), so a row's new offset is the number
 * of earlier labels equal to its own.
 *
 * <p>The calls arrive on one thread of the clustering's own (not the caller's), while the data
 * files are being written, and all of them arrive before {@link #close} and before the commit; a
 * clustering that fails leaves the sink to be discarded by its owner (the label sequence alone is
 * never committed).
 */
interface LabelSink {
  /** The next physical row is live and goes to destination {@code destinationIndex} (0-based). */
  void label(int destinationIndex);

  /** The next physical row was deleted at rewrite time. */
  void deleted();

  /** Called once after the last row's label, with the totals, so a writer can finish its file. */
  default void close(long[] perDestination, long deletedRows) {}
}
