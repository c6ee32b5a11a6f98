package dev.javelin.table.exceptions;


/**
 * Data to write holds nulls in a field the dataset's schema declares not nullable (a top-level
 * column, a struct child or a list item); {@link #field()} is its dotted path. Raised before the
 * batch holding them is written; nothing is committed and the files the operation had written
 * are deleted.
 */
public final class NullValueException extends SchemaMismatchException {
  NullValueException(String message, String field) {
    super(message, field);
  }
}
