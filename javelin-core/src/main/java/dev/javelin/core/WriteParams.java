package dev.javelin.core;

import dev.javelin.common.ProgressListener;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.WriteOptions;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** Options of a write (create, append, overwrite). Immutable; build with {@link #builder()}. */
public final class WriteParams {
  /** Lance's default: about a million rows per data file. */
  public static final long DEFAULT_MAX_ROWS_PER_FILE = 1024 * 1024;
  /**
   * Rows handed to the file writer at a time. Pages are cut by size, not by this, so it only
   * bounds how much of a batch is handed over at once; small values just cost a slice per group.
   */
  public static final int DEFAULT_MAX_ROWS_PER_GROUP = 64 * 1024;

  private final LanceFileVersion fileVersion;
  private final long maxRowsPerFile;
  private final int maxRowsPerGroup;
  private final boolean enableStableRowIds;
  private final Map<String, String> storageOptions;
  private final ProgressListener progress;
  private final long maxPageBytes;

  private WriteParams(Builder b) {
    this.storageOptions = Map.copyOf(b.storageOptions);
    this.enableStableRowIds = b.enableStableRowIds;
    this.fileVersion = b.fileVersion;
    this.maxRowsPerFile = b.maxRowsPerFile;
    this.maxRowsPerGroup = b.maxRowsPerGroup;
    this.progress = b.progress;
    this.maxPageBytes = b.maxPageBytes;
  }

  /**
   * The bytes a column's page holds before it is written (default 32 MiB, as Lance; smaller pages
   * are written when the heap could not hold one per column at once).
   */
  public long maxPageBytes() {
    return maxPageBytes;
  }

  public static Builder builder() {
    return new Builder();
  }

  public static WriteParams defaults() {
    return builder().build();
  }

  /**
   * The data file version asked for; empty means 2.1 for a new dataset and the dataset's own
   * version otherwise (a dataset never mixes versions).
   */
  public Optional<LanceFileVersion> fileVersion() {
    return Optional.ofNullable(fileVersion);
  }

  public long maxRowsPerFile() {
    return maxRowsPerFile;
  }

  public int maxRowsPerGroup() {
    return maxRowsPerGroup;
  }

  /**
   * Whether a new dataset (create, or overwrite where none exists) gets stable row ids. An existing
   * dataset keeps its own setting; asking for them on one without fails the write.
   */
  public boolean enableStableRowIds() {
    return enableStableRowIds;
  }

  /**
   * The storage options a create at a URI opens its store with (Lance's keys: {@code aws_region},
   * {@code azure_storage_account_name}, ...); empty by default. A write to an open dataset uses
   * the dataset's store.
   */
  public Map<String, String> storageOptions() {
    return storageOptions;
  }

  /** Hears the write's progress: one stage, {@code write rows}, of unknown total. */
  public ProgressListener progress() {
    return progress;
  }

  public static final class Builder {
    private ProgressListener progress = ProgressListener.NONE;
    private long maxPageBytes = WriteOptions.DEFAULT_MAX_PAGE_BYTES;
    private Map<String, String> storageOptions = Map.of();
    private boolean enableStableRowIds;
    private LanceFileVersion fileVersion;
    private long maxRowsPerFile = DEFAULT_MAX_ROWS_PER_FILE;
    private int maxRowsPerGroup = DEFAULT_MAX_ROWS_PER_GROUP;

    private Builder() {}

    public Builder fileVersion(LanceFileVersion version) {
      this.fileVersion = version;
      return this;
    }

    /** Rows per data file (and so per fragment); must be positive. */
    public Builder maxRowsPerFile(long rows) {
      if (rows <= 0 || rows > 0xFFFF_FFFFL) {
        throw new IllegalArgumentException("maxRowsPerFile must be in [1, 2^32): " + rows);
      }
      this.maxRowsPerFile = rows;
      return this;
    }

    /** Rows written to a file at a time; must be positive. */
    public Builder maxRowsPerGroup(int rows) {
      if (rows <= 0) {
        throw new IllegalArgumentException("maxRowsPerGroup must be positive: " + rows);
      }
      this.maxRowsPerGroup = rows;
      return this;
    }

    /**
     * Give a new dataset stable row ids (Lance's {@code enable_stable_row_ids}, feature flag 2): rows
     * keep their {@code _rowid} across compaction and updates. Default false, as in Lance.
     */
    public Builder enableStableRowIds(boolean enable) {
      this.enableStableRowIds = enable;
      return this;
    }

    /** The storage options of a create at a URI (see {@link WriteParams#storageOptions()}). */
    public Builder storageOptions(Map<String, String> options) {
      this.storageOptions = Map.copyOf(options);
      return this;
    }

    /** The bytes a column's page holds before it is written; at least 1024. */
    public Builder maxPageBytes(long bytes) {
      if (bytes < 1024) {
        throw new IllegalArgumentException("maxPageBytes must be at least 1024, got " + bytes);
      }
      this.maxPageBytes = bytes;
      return this;
    }

    /** Hears the write's progress (rows written so far); nothing by default. */
    public Builder progress(ProgressListener listener) {
      this.progress = Objects.requireNonNull(listener, "listener");
      return this;
    }

    public WriteParams build() {
      return new WriteParams(this);
    }
  }
}
