package dev.javelin.io;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** A listed object: its key relative to the store's root, its size in bytes, and when it was written. */
public final class ObjectInfo {
  private final String key;
  private final long size;
  private final Instant lastModified;

  public ObjectInfo(String key, long size) {
    this(key, size, null);
  }

  /** @param lastModified when the object was written, or null if the store does not say */
  public ObjectInfo(String key, long size, Instant lastModified) {
    this.key = Objects.requireNonNull(key, "key");
    this.size = size;
    this.lastModified = lastModified;
  }

  /** When the object was written, if the store says (cleanup keeps objects it cannot date). */
  public Optional<Instant> lastModified() {
    return Optional.ofNullable(lastModified);
  }

  public String key() {
    return key;
  }

  public long size() {
    return size;
  }

  /** The last path segment of the key. */
  public String name() {
    int slash = key.lastIndexOf('/');
    return slash < 0 ? key : key.substring(slash + 1);
  }

  @Override
  public String toString() {
    return key + " (" + size + " bytes)";
  }
}
