package dev.javelin.table;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What a cleanup removed. */
public final class CleanupResult {
  private final List<Long> removedVersions;
  private final long dataFiles;
  private final long deletionFiles;
  private final long transactionFiles;
  private final long indices;
  private final long indexFiles;
  private final long temporaryFiles;
  private final long bytes;
  private final long keptFiles;
  private final long keptBytes;
  private final Map<String, Long> taggedKept;

  CleanupResult(List<Long> removedVersions, long dataFiles, long deletionFiles, long transactionFiles,
      long indices, long indexFiles, long temporaryFiles, long bytes, long keptFiles, long keptBytes,
      Map<String, Long> taggedKept) {
    this.removedVersions = List.copyOf(removedVersions);
    this.dataFiles = dataFiles;
    this.deletionFiles = deletionFiles;
    this.transactionFiles = transactionFiles;
    this.indices = indices;
    this.indexFiles = indexFiles;
    this.temporaryFiles = temporaryFiles;
    this.bytes = bytes;
    this.keptFiles = keptFiles;
    this.keptBytes = keptBytes;
    this.taggedKept = Collections.unmodifiableMap(new TreeMap<>(taggedKept));
  }

  /**
   * The tags (name to version) that kept versions the policy would otherwise have removed: those
   * versions, and every file they use, stay.
   */
  public Map<String, Long> taggedVersionsKept() {
    return taggedKept;
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

  /** Temporary files a killed writer left (see {@link dev.javelin.io.ObjectStore#listTemporary}). */
  public long temporaryFilesRemoved() {
    return temporaryFiles;
  }

  /**
   * Files no kept version references that were kept all the same because a write in progress
   * may own them: younger than the grace period (unless {@link CleanupPolicy#deleteUnverified})
   * or written after the oldest kept version was committed.
   */
  public long unreferencedFilesKept() {
    return keptFiles;
  }

  /** Bytes of {@link #unreferencedFilesKept()}. */
  public long unreferencedBytesKept() {
    return keptBytes;
  }

  /** Bytes of every removed file, manifests included. */
  public long bytesRemoved() {
    return bytes;
  }

  @Override
  public String toString() {
    return "CleanupResult{versions=" + removedVersions + ", dataFiles=" + dataFiles + ", deletionFiles="
        + deletionFiles + ", transactionFiles=" + transactionFiles + ", indices=" + indices + ", temporaryFiles="
        + temporaryFiles + ", bytes=" + bytes + ", keptFiles=" + keptFiles + "}";
  }
}
