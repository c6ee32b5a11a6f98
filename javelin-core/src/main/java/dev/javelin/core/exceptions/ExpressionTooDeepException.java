package dev.javelin.core.exceptions;

import dev.javelin.core.expr.Expression;

/**
 * The expression nests deeper than {@link Expression#MAX_DEPTH} levels; {@link #position()} is
 * where the first level past the limit opens.
 */
public final class ExpressionTooDeepException extends ExpressionSyntaxException {
  public ExpressionTooDeepException(String expression, int offset) {
    super(expression, offset, "the expression is too deeply nested (at most " + Expression.MAX_DEPTH
        + " levels of parentheses, NOT, signs and operators)");
  }
}
