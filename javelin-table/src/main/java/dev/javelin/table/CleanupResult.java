package dev.javelin.table;

import java.util.List;

/** What a cleanup removed. */
public final class CleanupResult {
  private final List<Long> removedVersions;
  private final long dataFiles;
  private final long deletionFiles;
  private final long transactionFiles;
  private final long indices;
  private final long indexFiles;
  private final long bytes;

  CleanupResult(List<Long> removedVersions, long dataFiles, long deletionFiles, long transactionFiles,
      long indices, long indexFiles, long bytes) {
    this.removedVersions = List.copyOf(removedVersions);
    this.dataFiles = dataFiles;
    this.deletionFiles = deletionFiles;
    this.transactionFiles = transactionFiles;
    this.indices = indices;
    this.indexFiles = indexFiles;
    this.bytes = bytes;
  }

  /** The versions whose manifests were removed, ascending. */
  public List<Long> removedVersions() {
    return removedVersions;
  }

  /** Manifests removed (one per removed version). */
  public long manifestsRemoved() {
    return removedVersions.size();
  }

  /** Files removed from {@code data/}. */
  public long dataFilesRemoved() {
    return dataFiles;
  }

  /** Files removed from {@code _deletions/}. */
  public long deletionFilesRemoved() {
    return deletionFiles;
  }

  /** Files removed from {@code _transactions/}. */
  public long transactionFilesRemoved() {
    return transactionFiles;
  }

  /** Index directories ({@code _indices/<uuid>/}) whose files were removed. */
  public long indicesRemoved() {
    return indices;
  }

  /** Files removed from {@code _indices/}. */
  public long indexFilesRemoved() {
    return indexFiles;
  }

  /** Bytes of every removed file, manifests included. */
  public long bytesRemoved() {
    return bytes;
  }

  @Override
  public String toString() {
    return "CleanupResult{versions=" + removedVersions + ", dataFiles=" + dataFiles + ", deletionFiles="
        + deletionFiles + ", transactionFiles=" + transactionFiles + ", indices=" + indices + ", bytes=" + bytes
        + "}";
  }
}
