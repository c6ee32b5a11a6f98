package dev.javelin.format;

import dev.javelin.format.LanceFileVersion;

/** Options for writing one Lance file. Immutable; build with {@link #builder()}. */
public final class WriteOptions {
  /** Lance's default: a page is flushed once it holds this many bytes. */
  public static final long DEFAULT_MAX_PAGE_BYTES = 32L << 20;

  private final LanceFileVersion version;
  private final long maxPageBytes;
  private final boolean dictionaryEncoding;
  private final boolean compression;
  private final int parallelism;
  private final long expectedRows;

  private WriteOptions(Builder b) {
    this.version = b.version;
    this.maxPageBytes = b.maxPageBytes;
    this.dictionaryEncoding = b.dictionaryEncoding;
    this.compression = b.compression;
    this.parallelism = b.parallelism;
    this.expectedRows = b.expectedRows;
  }

  /** A builder holding these options, to change some of them. */
  public Builder toBuilder() {
    return builder().version(version).maxPageBytes(maxPageBytes).dictionaryEncoding(dictionaryEncoding)
        .compression(compression).parallelism(parallelism).expectedRows(expectedRows);
  }

  public static Builder builder() {
    return new Builder();
  }

  public static WriteOptions defaults() {
    return builder().build();
  }

  public LanceFileVersion version() {
    return version;
  }

  public long maxPageBytes() {
    return maxPageBytes;
  }

  /** Whether encoders may dictionary-encode low-cardinality strings (2.0; optional). */
  public boolean dictionaryEncoding() {
    return dictionaryEncoding;
  }

  /**
   * Whether 2.1 pages may use Lance's compressive encodings (bit-packing, RLE, dictionaries, FSST,
   * zstd for large values) where they make the page smaller, as lance-core does; on by default.
   * Off: values and levels are stored as they are. A field can also opt out on its own with the field metadata
   * {@code lance-encoding:compression=none}, as in Lance.
   */
  public boolean compression() {
    return compression;
  }

  /**
   * How many threads may encode a 2.1 file's columns at once; 1 encodes on the writing thread.
   * Defaults to the number of processors, as lance-core's writer does. The file's bytes do not
   * depend on it. Above 1, a batch's encoded pages are held in memory until the whole batch is
   * encoded, then written in the order one thread would have written them.
   */
  public int parallelism() {
    return parallelism;
  }

  /**
   * How many rows the caller expects to write (0, the default: unknown). A hint only: 2.1 encoders
   * size their page buffers from it once instead of regrowing them batch by batch. The file's
   * bytes do not depend on it, and writing more or fewer rows is fine.
   */
  public long expectedRows() {
    return expectedRows;
  }

  public static final class Builder {
    private LanceFileVersion version = LanceFileVersion.V2_1;
    private long maxPageBytes = DEFAULT_MAX_PAGE_BYTES;
    private boolean dictionaryEncoding = true;
    private boolean compression = true;
    private int parallelism = Runtime.getRuntime().availableProcessors();
    private long expectedRows;

    private Builder() {}

    public Builder version(LanceFileVersion version) {
      this.version = version;
      return this;
    }

    public Builder maxPageBytes(long maxPageBytes) {
      if (maxPageBytes < 1024) {
        throw new IllegalArgumentException("maxPageBytes must be at least 1024, got " + maxPageBytes);
      }
      this.maxPageBytes = maxPageBytes;
      return this;
    }

    public Builder dictionaryEncoding(boolean enabled) {
      this.dictionaryEncoding = enabled;
      return this;
    }

    /** See {@link WriteOptions#compression()}. */
    public Builder compression(boolean enabled) {
      this.compression = enabled;
      return this;
    }

    /** See {@link WriteOptions#parallelism()}. */
    public Builder parallelism(int threads) {
      if (threads < 1) {
        throw new IllegalArgumentException("parallelism must be at least 1, got " + threads);
      }
      this.parallelism = threads;
      return this;
    }

    /** See {@link WriteOptions#expectedRows()}. */
    public Builder expectedRows(long rows) {
      if (rows < 0) {
        throw new IllegalArgumentException("expectedRows must not be negative, got " + rows);
      }
      this.expectedRows = rows;
      return this;
    }

    public WriteOptions build() {
      return new WriteOptions(this);
    }
  }
}
