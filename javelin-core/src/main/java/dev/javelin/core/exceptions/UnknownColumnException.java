package dev.javelin.core.exceptions;


/** An expression names a column (or nested field) the schema does not have. */
public final class UnknownColumnException extends ExpressionException {
  private final String column;

  public UnknownColumnException(String expression, String role, String column) {
    super(expression, role + " '" + expression + "' names column '" + column + "' which the dataset does not have");
    this.column = column;
  }

  /** The column as written, nested parts joined with dots. */
  public String column() {
    return column;
  }
}
