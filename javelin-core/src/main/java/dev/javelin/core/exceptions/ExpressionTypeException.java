package dev.javelin.core.exceptions;


/** An expression applies an operator to values of types it does not accept. */
public final class ExpressionTypeException extends ExpressionException {
  public ExpressionTypeException(String expression, String role, String what) {
    super(expression, role + " '" + expression + "' " + what);
  }
}
