package dev.javelin.format;

import java.util.List;

/** What to read from a file: columns, rows, batch size. Immutable; build with {@link #builder()}. */
public final class ReadOptions {
  public static final int DEFAULT_BATCH_SIZE = 8192;

  private final List<String> columns;
  private final long startRow;
  private final long endRow;
  private final int batchSize;
  private final int parallelism;

  private ReadOptions(Builder b) {
    this.columns = b.columns;
    this.startRow = b.startRow;
    this.endRow = b.endRow;
    this.batchSize = b.batchSize;
    this.parallelism = b.parallelism;
  }

  public static Builder builder() {
    return new Builder();
  }

  public static ReadOptions all() {
    return builder().build();
  }

  /** Top-level column names to read, in the order given; null for all columns. */
  public List<String> columns() {
    return columns;
  }

  public long startRow() {
    return startRow;
  }

  /** One past the last row to read; −1 for the end of the file. */
  public long endRow() {
    return endRow;
  }

  public int batchSize() {
    return batchSize;
  }

  /** Threads decoding the scan (1, the default: the caller's thread only). */
  public int parallelism() {
    return parallelism;
  }

  public static final class Builder {
    private List<String> columns;
    private long startRow;
    private long endRow = -1;
    private int batchSize = DEFAULT_BATCH_SIZE;
    private int parallelism = 1;

    private Builder() {}

    public Builder columns(List<String> columns) {
      this.columns = columns == null ? null : List.copyOf(columns);
      return this;
    }

    public Builder columns(String... columns) {
      return columns(List.of(columns));
    }

    /** Reads rows [start, end) only. */
    public Builder rows(long start, long end) {
      if (start < 0 || end < start) {
        throw new IllegalArgumentException("Invalid row range " + start + ":" + end);
      }
      this.startRow = start;
      this.endRow = end;
      return this;
    }

    public Builder batchSize(int batchSize) {
      if (batchSize < 1) {
        throw new IllegalArgumentException("Batch size must be positive, got " + batchSize);
      }
      this.batchSize = batchSize;
      return this;
    }

    /**
     * Decodes on this many threads (default 1): the columns split into that many groups decoded
     * at once, and the next batch decoded while the caller works on the current one (two batches
     * in memory at most). Batches are the same either way. Scans of one column only gain the
     * overlap; a caller already reading several files at once (a dataset scan) should keep 1.
     */
    public Builder parallelism(int threads) {
      if (threads < 1) {
        throw new IllegalArgumentException("Parallelism must be positive, got " + threads);
      }
      this.parallelism = threads;
      return this;
    }

    public ReadOptions build() {
      return new ReadOptions(this);
    }
  }
}
