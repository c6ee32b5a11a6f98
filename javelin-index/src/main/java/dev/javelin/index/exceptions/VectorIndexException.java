package dev.javelin.index.exceptions;


/** A vector index cannot be built, read or used as asked; the message names the index or column. */
public class VectorIndexException extends RuntimeException {
  public VectorIndexException(String message) {
    super(message);
  }

  public VectorIndexException(String message, Throwable cause) {
    super(message, cause);
  }
}
