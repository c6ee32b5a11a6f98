package dev.javelin.table.exceptions;


/** A tag the operation names does not exist. */
public class TagNotFoundException extends TableException {
  TagNotFoundException(String message) {
    super(message);
  }
}
