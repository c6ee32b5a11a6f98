package dev.javelin.index.internal.ivf;

import java.util.Arrays;
import java.util.function.LongUnaryOperator;

/**
 * The rows of an IVF index being built, of any kind: each row's partition, row id and record
 * ({@code bytesPerRow} bytes: PQ codes, a vector, SQ codes), in the order they came. Rows are
 * added, or carried over from an index's files (ids moved or dropped), and {@link #grouped} lays
 * them out by partition as the files store them. With {@code transposed} (PQ) a partition's
 * records are stored byte column by byte column (all rows' byte 0, then byte 1, ...).
 */
final class IvfRows {
  /** What {@link #grouped} returns: the partition layout, and the row ids and records in it. */
  record Grouped(long[] offsets, int[] lengths, long[] rowIds, byte[] records) {}

  private final int bytesPerRow;
  private final boolean transposed;
  private int rows;
  private long dropped;
  private int[] partitions = new int[1024];
  private long[] rowIds = new long[1024];
  private byte[] records;

  IvfRows(int bytesPerRow, boolean transposed) {
    this.bytesPerRow = bytesPerRow;
    this.transposed = transposed;
    this.records = new byte[1024 * bytesPerRow];
  }

  int size() {
    return rows;
  }

  /** Rows of carried files that were dropped (their ids mapped to -1). */
  long dropped() {
    return dropped;
  }

  /** Adds {@code n} rows: partitions, ids and records back to back. */
  void add(int[] parts, long[] ids, byte[] recs, int n) {
    ensure(rows + n);
    System.arraycopy(parts, 0, partitions, rows, n);
    System.arraycopy(ids, 0, rowIds, rows, n);
    System.arraycopy(recs, 0, records, rows * bytesPerRow, n * bytesPerRow);
    rows += n;
  }

  /**
   * Carries over the rows of files laid out as {@code offsets}/{@code lengths}, each id replaced
   * by {@code move}'s answer; rows it maps to -1 are dropped.
   */
  void carry(long[] offsets, int[] lengths, long[] ids, byte[] recs, LongUnaryOperator move) {
    int w = bytesPerRow;
    for (int part = 0; part < lengths.length; part++) {
      int n = lengths[part];
      int base = (int) offsets[part];
      for (int i = 0; i < n; i++) {
        long id = move.applyAsLong(ids[base + i]);
        if (id < 0) {
          dropped++;
          continue;
        }
        ensure(rows + 1);
        partitions[rows] = part;
        rowIds[rows] = id;
        if (transposed) {
          for (int j = 0; j < w; j++) {
            records[rows * w + j] = recs[base * w + j * n + i];
          }
        } else {
          System.arraycopy(recs, (base + i) * w, records, rows * w, w);
        }
        rows++;
      }
    }
  }

  private void ensure(int capacity) {
    if (capacity > partitions.length) {
      int size = Math.max(capacity, partitions.length * 2);
      partitions = Arrays.copyOf(partitions, size);
      rowIds = Arrays.copyOf(rowIds, size);
      records = Arrays.copyOf(records, size * bytesPerRow);
    }
  }

  /** The rows laid out by partition ({@code p} partitions), in the order they came within each. */
  Grouped grouped(int p) {
    int w = bytesPerRow;
    int[] lengths = new int[p];
    for (int r = 0; r < rows; r++) {
      lengths[partitions[r]]++;
    }
    long[] offsets = new long[p];
    for (int i = 1; i < p; i++) {
      offsets[i] = offsets[i - 1] + lengths[i - 1];
    }
    int[] fill = new int[p];
    long[] outIds = new long[rows];
    byte[] outRecords = new byte[rows * w];
    for (int r = 0; r < rows; r++) {
      int part = partitions[r];
      int idx = fill[part]++;
      int n = lengths[part];
      int base = (int) offsets[part];
      outIds[base + idx] = rowIds[r];
      if (transposed) {
        for (int j = 0; j < w; j++) {
          outRecords[base * w + j * n + idx] = records[r * w + j];
        }
      } else {
        System.arraycopy(records, r * w, outRecords, (base + idx) * w, w);
      }
    }
    return new Grouped(offsets, lengths, outIds, outRecords);
  }
}
