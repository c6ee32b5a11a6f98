package dev.javelin.format.exceptions;

import dev.javelin.common.JavelinException;

/**
 * Thrown when a Lance file cannot be read or written: it is truncated, corrupt, of a version or
 * encoding Javelin does not read, or does not match what the caller asked for. The message names
 * the file (when known) and what is wrong with it.
 */
public class LanceFormatException extends JavelinException {
  private final String location;

  public LanceFormatException(String location, String message) {
    super(format(location, message));
    this.location = location;
  }

  public LanceFormatException(String location, String message, Throwable cause) {
    super(format(location, message), cause);
    this.location = location;
  }

  /** The file the problem is in, or null if it is not about one file. */
  public String location() {
    return location;
  }

  private static String format(String location, String message) {
    return location == null ? message : message + ": " + location;
  }
}
