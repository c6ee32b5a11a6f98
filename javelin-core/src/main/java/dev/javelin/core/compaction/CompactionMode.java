package dev.javelin.core.compaction;

import dev.javelin.core.exceptions.CompactionException;

/** How a fragment rewrite or a column repack writes its new files. */
public enum CompactionMode {
  /** Decode the rows and encode them again. */
  REENCODE,
  /**
   * Copy the encoded pages of the source files into the new files without decoding them when the
   * task's fragments allow it, and re-encode otherwise. A rewrite needs no deletions and the same
   * files and file version in every fragment; a repack needs its source files in one file version
   * (2.0, 2.1 or 2.2) with no global buffer but the schema. A repack that re-encodes logs why.
   */
  TRY_BINARY_COPY,
  /**
   * Binary copy or fail: a rewrite or repack that cannot be copied throws {@link
   * CompactionException}. Unlike Lance, whose repacks always re-encode, repacks are planned in
   * this mode too.
   */
  FORCE_BINARY_COPY
}
