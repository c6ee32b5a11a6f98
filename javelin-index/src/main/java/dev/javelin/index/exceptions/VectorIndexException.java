package dev.javelin.index.exceptions;

import dev.javelin.common.JavelinException;

/** A vector index cannot be built, read or used as asked; the message names the index or column. */
public class VectorIndexException extends JavelinException {
  public VectorIndexException(String message) {
    super(message);
  }

  public VectorIndexException(String message, Throwable cause) {
    super(message, cause);
  }
}
