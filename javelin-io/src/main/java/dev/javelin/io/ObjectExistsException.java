package dev.javelin.io;

import java.io.IOException;

/** {@link ObjectStore#putIfAbsent} found the key already taken. */
public class ObjectExistsException extends IOException {
  private final String key;

  public ObjectExistsException(String location, String key) {
    super("Object already exists: " + location + "/" + key);
    this.key = key;
  }

  /** The key that was taken. */
  public String key() {
    return key;
  }
}
