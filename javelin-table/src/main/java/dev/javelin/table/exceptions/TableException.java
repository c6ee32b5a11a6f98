package dev.javelin.table.exceptions;

import dev.javelin.common.JavelinException;

/** Base of the table layer's exceptions. Unchecked; the message names the dataset and what failed. */
public class TableException extends JavelinException {
  public TableException(String message) {
    super(message);
  }

  public TableException(String message, Throwable cause) {
    super(message, cause);
  }
}
