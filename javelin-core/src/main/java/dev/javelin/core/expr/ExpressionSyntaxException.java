package dev.javelin.core.expr;

/** The expression text is not valid; {@link #position()} says where (1-based character). */
public final class ExpressionSyntaxException extends ExpressionException {
  private final int position;

  ExpressionSyntaxException(String expression, int offset, String what) {
    super(expression, "Cannot parse '" + expression + "' at position " + (offset + 1) + ": " + what);
    this.position = offset + 1;
  }

  /** 1-based character position of the problem. */
  public int position() {
    return position;
  }
}
