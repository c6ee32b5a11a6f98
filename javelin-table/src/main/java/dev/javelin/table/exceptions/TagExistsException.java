package dev.javelin.table.exceptions;


/** A tag to create exists already. */
public class TagExistsException extends TableException {
  TagExistsException(String message) {
    super(message);
  }
}
