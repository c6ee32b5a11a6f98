package dev.javelin.core.expr;

import dev.javelin.core.exceptions.ExpressionException;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A function (or CAST, CASE, COALESCE...) over whole columns: the arguments are evaluated on every
 * row of the batch, then {@link Body} computes the result column from them in typed loops.
 */
final class Call extends Eval {
  /** Computes a function's column from its arguments' columns ({@code n} rows each). */
  interface Body {
    Values apply(Values[] args, int n, Call call);
  }

  final String name;
  final List<Eval> args;
  private final Body body;
  /** The expression's source text, for errors raised while evaluating. */
  final String source;

  Call(Kind kind, Kind elem, String name, List<Eval> args, Body body, String source) {
    super(kind, elem);
    this.name = name;
    this.args = List.copyOf(args);
    this.body = body;
    this.source = source;
  }

  Call(Kind kind, String name, List<Eval> args, Body body, String source) {
    this(kind, null, name, args, body, source);
  }

  @Override
  Values eval(VectorSchemaRoot batch) {
    Values[] in = new Values[args.size()];
    for (int k = 0; k < in.length; k++) {
      in[k] = args.get(k).eval(batch);
    }
    return body.apply(in, batch.getRowCount(), this);
  }

  /** An error found in the data while evaluating, naming the expression. */
  ExpressionException error(String what) {
    return new ExpressionException(source, "Expression '" + source + "' " + what);
  }

  /** The null mask of a function that is NULL where any argument is. */
  static boolean[] strictNulls(Values[] args) {
    boolean[] out = null;
    for (Values a : args) {
      if (a.nulls != null) {
        out = Values.orNulls(out, a.nulls);
      }
    }
    return out;
  }
}
