package dev.javelin.table.io;

import java.util.Objects;

/** A listed object: its key relative to the store's root, and its size in bytes. */
public final class ObjectInfo {
  private final String key;
  private final long size;

  public ObjectInfo(String key, long size) {
    this.key = Objects.requireNonNull(key, "key");
    this.size = size;
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
