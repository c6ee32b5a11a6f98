package dev.javelin.core.expr;

/** An expression applies an operator to values of types it does not accept. */
public final class ExpressionTypeException extends ExpressionException {
  ExpressionTypeException(String expression, String role, String what) {
    super(expression, role + " '" + expression + "' " + what);
  }
}
