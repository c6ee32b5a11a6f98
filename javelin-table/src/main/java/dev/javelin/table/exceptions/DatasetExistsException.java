package dev.javelin.table.exceptions;


/** A create found a dataset already at the location. */
public class DatasetExistsException extends TableException {
  DatasetExistsException(String message) {
    super(message);
  }
}
