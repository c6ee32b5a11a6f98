package dev.javelin.table.exceptions;


/** A tag name Lance would not accept (it must be letters, digits, '.', '-' or '_', and not start or end with '.', contain '..' or end with '.lock'). */
public class InvalidTagNameException extends TableException {
  InvalidTagNameException(String message) {
    super(message);
  }
}
