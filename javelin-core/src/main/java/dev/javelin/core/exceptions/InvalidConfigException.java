package dev.javelin.core.exceptions;

import dev.javelin.table.exceptions.TableException;

/**
 * A config update cannot be committed as asked: a key is blank, set and removed at once, or has a
 * value Javelin cannot use for it. The message names the key; nothing was written.
 */
public class InvalidConfigException extends TableException {
  private final String key;

  public InvalidConfigException(String message, String key, Throwable cause) {
    super(message, cause);
    this.key = key;
  }

  /** The config key at fault. */
  public String key() {
    return key;
  }
}
