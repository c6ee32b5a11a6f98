package dev.javelin.core.compaction;

/** How a fragment rewrite writes its new files. */
public enum CompactionMode {
  /** Decode the rows and encode them again (the only mode Javelin has so far). */
  REENCODE
}
