package dev.javelin.core.exceptions;


/** The expression text is not valid; {@link #position()} says where (1-based character). */
public class ExpressionSyntaxException extends ExpressionException {
  /** Longer expressions are shortened in messages (the whole text is in {@link #expression()}). */
  private static final int SHOWN = 200;

  private final int position;

  public ExpressionSyntaxException(String expression, int offset, String what) {
    super(expression, "Cannot parse " + quote(expression) + " at position " + (offset + 1) + ": " + what);
    this.position = offset + 1;
  }

  private static String quote(String expression) {
    if (expression.length() <= SHOWN) {
      return "'" + expression + "'";
    }
    return "'" + expression.substring(0, SHOWN - 20) + "...' (" + expression.length() + " characters)";
  }

  /** 1-based character position of the problem. */
  public int position() {
    return position;
  }
}
