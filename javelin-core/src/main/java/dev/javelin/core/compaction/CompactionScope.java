package dev.javelin.core.compaction;

/** Which kinds of compaction task one run plans. */
public enum CompactionScope {
  /** Only fragment rewrites (small or deletion-heavy neighbours into larger fragments). */
  REWRITE_FRAGMENTS,
  /** Only column repacks (a fragment's columns into fewer data files, rows unmoved). */
  REPACK_COLUMNS,
  /** Both (the default). */
  ALL
}
