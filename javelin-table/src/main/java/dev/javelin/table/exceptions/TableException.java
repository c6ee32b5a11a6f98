package dev.javelin.table.exceptions;


/** Base of the table layer's exceptions. Unchecked; the message names the dataset and what failed. */
public class TableException extends RuntimeException {
  public TableException(String message) {
    super(message);
  }

  public TableException(String message, Throwable cause) {
    super(message, cause);
  }
}
