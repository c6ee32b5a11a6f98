package dev.javelin.core;

/** How an update writes the new values (see {@link UpdateBuilder#mode}). */
public enum UpdateMode {
  /**
   * Rows that match move: they are rewritten to new fragments and deleted where they were
   * (Lance's default). Best when few rows change.
   */
  REWRITE_ROWS,
  /**
   * The assigned columns of every fragment holding a matching row are rewritten as one new data
   * file (Lance's {@code REWRITE_COLUMNS}); no row moves. Best when most rows but few columns
   * change. Not with stable row ids.
   */
  REWRITE_COLUMNS,
  /**
   * The new values go into small overlay files holding only the matching rows; no data file is
   * rewritten and no row moves. Javelin's extension of the format: Lance refuses such a dataset
   * until a compaction folds the overlays in (see docs/overlays.md).
   */
  OVERLAY
}
