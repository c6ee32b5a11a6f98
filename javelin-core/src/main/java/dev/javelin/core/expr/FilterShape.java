package dev.javelin.core.expr;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * The structure of a filter as far as an index can use it: AND / OR of simple predicates on one
 * column against literals; everything else is {@link Other}. Planning only: rows an index finds
 * for a shape are a superset of the rows the filter selects only when the filter is evaluated on
 * them again.
 */
public sealed interface FilterShape {
  /** The kinds of simple predicate. */
  enum Op { EQ, LT, LE, GT, GE, BETWEEN, IN, IS_NULL }

  /** All parts must hold. */
  record And(List<FilterShape> parts) implements FilterShape {}

  /** One part must hold. */
  record Or(List<FilterShape> parts) implements FilterShape {}

  /**
   * {@code column op values}: one value, two for BETWEEN (low, high), any number for IN (NULL
   * items left out: they never match), none for IS_NULL. Values are Long, Double, String,
   * Boolean or LocalDate (a DATE literal). The column is a top-level name as written.
   */
  record Compare(String column, Op op, List<Object> values, String sql) implements FilterShape {}

  /** A part no simple predicate describes (its source text). */
  record Other(String sql) implements FilterShape {}

  /** The shape of a parsed filter. */
  static FilterShape of(String sql, Node root) {
    return shape(sql, root);
  }

  private static FilterShape shape(String sql, Node n) {
    String text = sql.substring(n.start(), n.end());
    if (n instanceof Node.Binary b && (b.op().equals("AND") || b.op().equals("OR"))) {
      List<FilterShape> parts = new ArrayList<>();
      boolean and = b.op().equals("AND");
      flatten(sql, b.left(), b.op(), parts);
      flatten(sql, b.right(), b.op(), parts);
      return and ? new And(List.copyOf(parts)) : new Or(List.copyOf(parts));
    }
    if (n instanceof Node.Binary b) {
      Op op = switch (b.op()) {
        case "=" -> Op.EQ;
        case "<" -> Op.LT;
        case "<=" -> Op.LE;
        case ">" -> Op.GT;
        case ">=" -> Op.GE;
        default -> null;
      };
      if (op == null) {
        return new Other(text);
      }
      String col = column(b.left());
      Object v = literal(b.right());
      if (col == null) {
        // literal op column: flip the comparison
        col = column(b.right());
        v = literal(b.left());
        op = switch (op) {
          case LT -> Op.GT;
          case LE -> Op.GE;
          case GT -> Op.LT;
          case GE -> Op.LE;
          default -> op;
        };
      }
      return col == null || v == null ? new Other(text) : new Compare(col, op, List.of(v), text);
    }
    if (n instanceof Node.IsNull i) {
      String col = column(i.arg());
      return col == null || i.negated() ? new Other(text) : new Compare(col, Op.IS_NULL, List.of(), text);
    }
    if (n instanceof Node.In in) {
      String col = column(in.arg());
      if (col == null || in.negated()) {
        return new Other(text);
      }
      List<Object> values = new ArrayList<>();
      for (Node item : in.list()) {
        if (item instanceof Node.Literal l && l.value() == null) {
          continue;
        }
        Object v = literal(item);
        if (v == null) {
          return new Other(text);
        }
        values.add(v);
      }
      return new Compare(col, Op.IN, List.copyOf(values), text);
    }
    if (n instanceof Node.Between bt) {
      String col = column(bt.arg());
      Object lo = literal(bt.low());
      Object hi = literal(bt.high());
      return col == null || lo == null || hi == null || bt.negated() ? new Other(text)
          : new Compare(col, Op.BETWEEN, List.of(lo, hi), text);
    }
    return new Other(text);
  }

  private static void flatten(String sql, Node n, String op, List<FilterShape> out) {
    if (n instanceof Node.Binary b && b.op().equals(op)) {
      flatten(sql, b.left(), op, out);
      flatten(sql, b.right(), op, out);
    } else {
      out.add(shape(sql, n));
    }
  }

  private static String column(Node n) {
    return n instanceof Node.Column c && c.path().size() == 1 ? c.path().get(0) : null;
  }

  // The literal's value (Long, Double, String, Boolean, LocalDate), or null if not a usable literal.
  private static Object literal(Node n) {
    if (n instanceof Node.Unary u && u.op().equals("-") && u.arg() instanceof Node.Literal l) {
      if (l.value() instanceof Long v && v != Long.MIN_VALUE) {
        return -v;
      }
      if (l.value() instanceof Double d) {
        return -d;
      }
      return null;
    }
    if (!(n instanceof Node.Literal l) || l.value() == null) {
      return null;
    }
    return switch (l.kind()) {
      case LONG, DOUBLE, STRING, BOOL -> l.value();
      case DATE -> LocalDate.ofEpochDay((Long) l.value());
      default -> null;
    };
  }
}
