package dev.javelin.table;

import dev.javelin.table.rowids.StableRowIds;
import java.util.ArrayList;
import java.util.List;

/**
 * The manifest's reader and writer feature flags: which bits Lance defines, and which of them
 * Javelin understands (so far) for reading and for writing.
 */
public final class FeatureFlags {
  /** Fragments may have deletion files. */
  public static final long DELETION_FILES = 1;
  /** Rows have stable row ids (fragment row id sequences, next_row_id). */
  public static final long STABLE_ROW_IDS = 2;
  /** Deprecated marker of the 2.x file format; harmless. */
  public static final long USE_V2_FORMAT_DEPRECATED = 4;
  /** The manifest has table config (writer only). */
  public static final long TABLE_CONFIG = 8;
  /** Data files may live under other base paths. */
  public static final long BASE_PATHS = 16;
  /** Writers must not write _transactions files (writer only). */
  public static final long DISABLE_TRANSACTION_FILE = 32;
  /**
   * Javelin's own flag, set (reader and writer) while a fragment has data overlays
   * ({@link Overlay}). A high bit, so that Lance does not assign it to something else; Lance
   * 7.0.0 refuses to open a dataset with an unknown reader flag, which is what keeps it from
   * reading base values where overlays hold newer ones.
   */
  public static final long OVERLAYS = 1L << 40;

  /**
   * What Javelin reads correctly. Files under base paths are read from there (see
   * {@link BasePaths}). Stable row ids do not change what a scan returns.
   */
  static final long READABLE = DELETION_FILES | STABLE_ROW_IDS | USE_V2_FORMAT_DEPRECATED | TABLE_CONFIG | BASE_PATHS
      | DISABLE_TRANSACTION_FILE | OVERLAYS;

  /**
   * What Javelin can commit on top of. Every operation carries existing fragments' base ids and
   * writes its new files under the dataset's own root. Appends and overwrites assign stable row ids to new rows (other operations
   * are refused on such datasets until they maintain row ids: see StableRowIds). Transaction files are written even under
   * DISABLE_TRANSACTION_FILE, which costs a file and breaks nothing.
   */
  static final long WRITABLE = DELETION_FILES | STABLE_ROW_IDS | USE_V2_FORMAT_DEPRECATED | TABLE_CONFIG
      | BASE_PATHS | DISABLE_TRANSACTION_FILE | OVERLAYS;

  private FeatureFlags() {}

  /** The reader flags of a manifest that Javelin does not understand (0 if none). */
  public static long unreadable(long readerFlags) {
    return readerFlags & ~READABLE;
  }

  /** The writer flags of a manifest that Javelin does not understand (0 if none). */
  public static long unwritable(long writerFlags) {
    return writerFlags & ~WRITABLE;
  }

  /** Names the bits, e.g. "deletion files, unknown flag 64". */
  public static String describe(long flags) {
    List<String> names = new ArrayList<>();
    for (int bit = 0; bit < 64; bit++) {
      long f = 1L << bit;
      if ((flags & f) == 0) {
        continue;
      }
      names.add(f == DELETION_FILES ? "deletion files"
          : f == STABLE_ROW_IDS ? "stable row ids"
          : f == USE_V2_FORMAT_DEPRECATED ? "v2 format (deprecated flag)"
          : f == TABLE_CONFIG ? "table config"
          : f == BASE_PATHS ? "base paths"
          : f == DISABLE_TRANSACTION_FILE ? "no transaction files"
          : f == OVERLAYS ? "data overlays (Javelin)"
          : "unknown flag " + Long.toUnsignedString(f));
    }
    return String.join(", ", names);
  }
}
