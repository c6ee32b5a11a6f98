package dev.javelin.core.compaction;

/** How a fragment rewrite writes its new files. */
public enum CompactionMode {
  /** Decode the rows and encode them again. */
  REENCODE,
  /**
   * Copy the encoded pages of the source files into the new files without decoding them when the
   * task's fragments allow it (no deletions, the same files and file version in every fragment),
   * and re-encode otherwise.
   */
  TRY_BINARY_COPY,
  /**
   * Binary copy or fail: a rewrite that cannot be copied throws {@link CompactionException}.
   * Column repacks are not planned in this mode (they re-encode).
   */
  FORCE_BINARY_COPY
}
