package dev.javelin.core.expr;

/** An expression names a column (or nested field) the schema does not have. */
public final class UnknownColumnException extends ExpressionException {
  private final String column;

  UnknownColumnException(String expression, String role, String column) {
    super(expression, role + " '" + expression + "' names column '" + column + "' which the dataset does not have");
    this.column = column;
  }

  /** The column as written, nested parts joined with dots. */
  public String column() {
    return column;
  }
}
