package dev.javelin.core.exceptions;

import dev.javelin.table.exceptions.TableException;

/**
 * A column to add, drop or alter cannot be: a name clash, a missing column, a nullability the
 * data cannot have. The message names the column and the dataset; nothing was written.
 */
public class SchemaEvolutionException extends TableException {
  private final String column;

  public SchemaEvolutionException(String message, String column) {
    super(message);
    this.column = column;
  }

  /** The column (a dotted path for a nested one) the change is about. */
  public String column() {
    return column;
  }
}
