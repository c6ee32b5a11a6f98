package dev.javelin.core.expr;

import dev.javelin.core.exceptions.ExpressionSyntaxException;
import dev.javelin.core.exceptions.ExpressionTooDeepException;
import dev.javelin.core.exceptions.ExpressionTypeException;
import dev.javelin.core.exceptions.UnknownColumnException;
import dev.javelin.format.schema.LanceSchema;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A parsed filter or value expression in Javelin's small SQL dialect, not yet tied to a schema.
 *
 * <p>Grammar, loosest binding first: {@code OR}, {@code AND}, {@code NOT}, then predicates
 * ({@code = != <> < <= > >=}, {@code [NOT] IN (...)}, {@code [NOT] BETWEEN a AND b},
 * {@code [NOT] LIKE 'pattern'} with {@code %}, {@code _} and backslash escapes,
 * {@code IS [NOT] NULL}), then {@code + -}, then {@code * / %}, then unary minus. Literals:
 * integers, decimals and exponents (floats), {@code 'strings'} ({@code ''} escapes a quote; {@code "double quotes"} also make a
 * string, as in Lance),
 * {@code TRUE}, {@code FALSE}, {@code NULL}, {@code DATE 'YYYY-MM-DD'},
 * {@code TIMESTAMP 'YYYY-MM-DD HH:MM:SS[.f]'} (UTC), arrays {@code [a, b]}. Columns: names,
 * {@code a.b.c} or {@code a['b']} for struct fields, {@code `quoted`} names (backticks only, as in
 * Lance), {@code list[i]} for list elements. Also {@code IS [NOT] TRUE/FALSE}, {@code [NOT] ILIKE},
 * {@code ||}, {@code CAST(x AS type)}, {@code x::type}, {@code TRY_CAST}, {@code CASE},
 * {@code EXTRACT(part FROM x)} and the functions of {@code docs/filters.md} (string, regexp, math,
 * date/time, list, COALESCE, NULLIF). Keywords are case-insensitive.
 *
 * <p>Expressions nest at most {@link #MAX_DEPTH} levels: each pair of parentheses, each NOT and
 * sign, and each comparison, predicate or arithmetic operator opens one level for what it holds
 * ({@code a + b + c} is two levels deep), while a chain of ANDs or of ORs and an IN list open one
 * level however long they are. Deeper expressions fail with {@link ExpressionTooDeepException}.
 *
 * <pre>{@code
 * BoundExpression f = Expression.parse("price > 10 AND name LIKE 'a%'").bindFilter(ds.schema());
 * int[] rows = f.select(batch);
 * }</pre>
 */
public final class Expression {
  /**
   * The deepest nesting an expression may have (see the class comment for how levels count): far
   * beyond what people write, and shallow enough that parsing, binding, planning and evaluating
   * (one stack frame or two per level) fit a 256 KiB thread stack.
   */
  public static final int MAX_DEPTH = 128;

  private final String sql;
  private final Node root;

  private Expression(String sql, Node root) {
    this.sql = sql;
    this.root = root;
  }

  /**
   * Parses an expression.
   *
   * @throws ExpressionSyntaxException if the text is not valid, with the 1-based position
   * @throws ExpressionTooDeepException if it nests deeper than {@link #MAX_DEPTH} levels
   */
  public static Expression parse(String sql) {
    Objects.requireNonNull(sql, "sql");
    return new Expression(sql, Parser.parse(sql));
  }

  /** The source text. */
  public String sql() {
    return sql;
  }

  /**
   * The filter's structure for index planning: AND/OR of simple column-vs-literal predicates
   * (see {@link FilterShape}); parts of other forms are {@link FilterShape.Other}.
   */
  public FilterShape shape() {
    return FilterShape.of(sql, root);
  }

  /** The top-level column names as written (first part of each reference), in order of use. */
  public Set<String> columns() {
    Set<String> out = new LinkedHashSet<>();
    collect(root, out);
    return out;
  }

  private static void collect(Node n, Set<String> out) {
    if (n instanceof Node.Column c) {
      out.add(c.path().get(0));
    } else if (n instanceof Node.Logic l) {
      l.parts().forEach(x -> collect(x, out));
    } else if (n instanceof Node.Unary u) {
      collect(u.arg(), out);
    } else if (n instanceof Node.Binary b) {
      collect(b.left(), out);
      collect(b.right(), out);
    } else if (n instanceof Node.IsNull i) {
      collect(i.arg(), out);
    } else if (n instanceof Node.In i) {
      collect(i.arg(), out);
      i.list().forEach(x -> collect(x, out));
    } else if (n instanceof Node.Between b) {
      collect(b.arg(), out);
      collect(b.low(), out);
      collect(b.high(), out);
    } else if (n instanceof Node.Like l) {
      collect(l.arg(), out);
    } else if (n instanceof Node.IsBool b) {
      collect(b.arg(), out);
    } else if (n instanceof Node.Call c) {
      c.args().forEach(x -> collect(x, out));
    } else if (n instanceof Node.Cast c) {
      collect(c.arg(), out);
    } else if (n instanceof Node.Case c) {
      if (c.operand() != null) {
        collect(c.operand(), out);
      }
      for (int k = 0; k < c.whens().size(); k++) {
        collect(c.whens().get(k), out);
        collect(c.thens().get(k), out);
      }
      if (c.otherwise() != null) {
        collect(c.otherwise(), out);
      }
    } else if (n instanceof Node.Array a) {
      a.items().forEach(x -> collect(x, out));
    } else if (n instanceof Node.Index i) {
      collect(i.arg(), out);
      collect(i.index(), out);
    }
  }

  /**
   * Binds as a filter: it must give true/false (or NULL, which selects nothing).
   *
   * @throws UnknownColumnException if it names a column the schema lacks
   * @throws ExpressionTypeException if operand types do not fit, or it is not a condition
   */
  public BoundExpression bindFilter(LanceSchema schema) {
    return bindFilter(schema.toArrow());
  }

  /** Binds as a filter against an Arrow schema. */
  public BoundExpression bindFilter(Schema schema) {
    Binder b = new Binder(sql, "Filter", schema);
    Eval e = b.bind(root);
    if (e.kind == Kind.NULL) {
      e = new Eval.Literal(Kind.BOOL, null);
    }
    if (e.kind == Kind.LIST && e instanceof Call c && c.name.equals("regexp_match")) {
      e = b.condition(root, e);
    }
    if (e.kind != Kind.BOOL) {
      String type = e instanceof Eval.Column c && (e.kind == Kind.OTHER || e.kind == Kind.LIST) ? c.type.toString()
          : e.kind == Kind.LIST ? "list of " + e.elem.display : e.kind.display;
      throw b.typeError("is not a condition: it gives " + type + " values");
    }
    return new BoundExpression(sql, e, b.columns);
  }

  /**
   * Binds as a value expression (a computed column): numbers, strings, booleans, dates or
   * timestamps.
   *
   * @throws UnknownColumnException if it names a column the schema lacks
   * @throws ExpressionTypeException if operand types do not fit
   */
  public BoundExpression bindValue(LanceSchema schema) {
    return bindValue(schema.toArrow());
  }

  /** Binds as a value expression against an Arrow schema. */
  public BoundExpression bindValue(Schema schema) {
    Binder b = new Binder(sql, "Expression", schema);
    Eval e = b.bind(root);
    if (e.kind == Kind.OTHER || e.kind == Kind.LIST) {
      String type = e instanceof Eval.Column c ? c.type.toString() : "list of " + e.elem.display;
      throw b.typeError("gives values of type " + type + " which expressions cannot compute");
    }
    return new BoundExpression(sql, e, b.columns);
  }

  @Override
  public String toString() {
    return sql;
  }
}
