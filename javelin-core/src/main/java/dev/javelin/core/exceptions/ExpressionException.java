package dev.javelin.core.exceptions;

import dev.javelin.common.JavelinException;

/** A filter or value expression that cannot be parsed, bound to a schema, or evaluated. */
public class ExpressionException extends JavelinException {
  private final String expression;

  public ExpressionException(String expression, String message) {
    super(message);
    this.expression = expression;
  }

  /** The expression's source text. */
  public String expression() {
    return expression;
  }
}
