package dev.javelin.core.exceptions;

import dev.javelin.table.exceptions.TableException;

/**
 * An update cannot be done as asked: it assigns no column, or a column the dataset lacks or
 * that is nested. The message names the column and the dataset; nothing was written.
 */
public class InvalidUpdateException extends TableException {
  private final String column;

  public InvalidUpdateException(String message, String column) {
    super(message);
    this.column = column;
  }

  /** The column the update names, or null if it names none. */
  public String column() {
    return column;
  }
}
