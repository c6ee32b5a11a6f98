package dev.javelin.table.exceptions;


/** Data to add does not match the dataset's schema; the message names the field. */
public class SchemaMismatchException extends TableException {
  private final String field;

  SchemaMismatchException(String message, String field) {
    super(message);
    this.field = field;
  }

  /** The first field that differs. */
  public String field() {
    return field;
  }
}
