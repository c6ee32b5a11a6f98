package dev.javelin.core.expr;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

  /**
   * {@code array_has_any(column, [values])} ({@code all} false) or {@code array_has_all(column,
   * [values])} ({@code all} true); {@code array_has(column, value)} and {@code array_contains} are
   * the one-value any. Values as for {@link Compare}, at least one, none null.
   */
  record ArrayHas(String column, boolean all, List<Object> values, String sql) implements FilterShape {}

  /**
   * A string predicate that holds only for values containing every one of {@code literals} as a
   * substring: {@code contains(column, 'x')}, and {@code column LIKE 'pattern'} (the pattern's
   * runs between wildcards, none empty).
   */
  record Substrings(String column, List<String> literals, String sql) implements FilterShape {}

  /** A part no simple predicate describes (its source text). */
  record Other(String sql) implements FilterShape {}

  /** The shape of a parsed filter. */
  static FilterShape of(String sql, Node root) {
    return shape(sql, root);
  }

  private static FilterShape shape(String sql, Node n) {
    if (n instanceof Node.Logic l) {
      List<FilterShape> parts = new ArrayList<>();
      flatten(sql, l, l.and(), parts);
      return l.and() ? new And(List.copyOf(parts)) : new Or(mergeEqualities(parts));
    }
    String text = sql.substring(n.start(), n.end());
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
    if (n instanceof Node.Call call) {
      return call(call, text);
    }
    if (n instanceof Node.Like like) {
      String col = column(like.arg());
      if (col == null || like.negated() || like.caseless()) {
        return new Other(text);
      }
      List<String> runs = likeRuns(like.pattern());
      return runs.isEmpty() ? new Other(text) : new Substrings(col, runs, text);
    }
    return new Other(text);
  }

  // The list and substring functions an index can answer.
  private static FilterShape call(Node.Call call, String text) {
    String name = call.name().toLowerCase(java.util.Locale.ROOT);
    if (call.args().size() != 2) {
      return new Other(text);
    }
    String col = column(call.args().get(0));
    Node arg = call.args().get(1);
    if (col == null) {
      return new Other(text);
    }
    switch (name) {
      case "array_has", "array_contains": {
        Object v = literal(arg);
        return v == null ? new Other(text) : new ArrayHas(col, false, List.of(v), text);
      }
      case "array_has_any", "array_has_all": {
        if (!(arg instanceof Node.Array a) || a.items().isEmpty()) {
          return new Other(text);
        }
        List<Object> values = new ArrayList<>();
        for (Node item : a.items()) {
          Object v = literal(item);
          if (v == null) {
            return new Other(text);
          }
          values.add(v);
        }
        return new ArrayHas(col, name.equals("array_has_all"), List.copyOf(values), text);
      }
      case "contains": {
        Object v = literal(arg);
        return v instanceof String str && !str.isEmpty() ? new Substrings(col, List.of(str), text) : new Other(text);
      }
      default:
        return new Other(text);
    }
  }

  // The literal runs of a LIKE pattern between its wildcards (% and _; a backslash makes the next
  // character literal), as Like reads it.
  private static List<String> likeRuns(String pattern) {
    List<String> out = new ArrayList<>();
    StringBuilder run = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\\' && i + 1 < pattern.length()) {
        run.append(pattern.charAt(++i));
      } else if (c == '%' || c == '_') {
        if (run.length() > 0) {
          out.add(run.toString());
          run.setLength(0);
        }
      } else {
        run.append(c);
      }
    }
    if (run.length() > 0) {
      out.add(run.toString());
    }
    return List.copyOf(out);
  }

  // The parts of a chain, with parenthesised chains of the same operator taken in.
  private static void flatten(String sql, Node.Logic l, boolean and, List<FilterShape> out) {
    for (Node p : l.parts()) {
      if (p instanceof Node.Logic inner && inner.and() == and) {
        flatten(sql, inner, and, out);
      } else {
        out.add(shape(sql, p));
      }
    }
  }

  // ORed equalities and IN lists of one column become one IN (at the place of the first), so an
  // index answers a long OR chain with one search.
  private static List<FilterShape> mergeEqualities(List<FilterShape> parts) {
    Map<String, List<Compare>> byColumn = new LinkedHashMap<>();
    for (FilterShape p : parts) {
      if (p instanceof Compare c && (c.op() == Op.EQ || c.op() == Op.IN)) {
        byColumn.computeIfAbsent(c.column(), k -> new ArrayList<>()).add(c);
      }
    }
    List<FilterShape> out = new ArrayList<>();
    Set<String> placed = new HashSet<>();
    for (FilterShape p : parts) {
      if (!(p instanceof Compare c && (c.op() == Op.EQ || c.op() == Op.IN))) {
        out.add(p);
        continue;
      }
      List<Compare> group = byColumn.get(c.column());
      if (group.size() == 1) {
        out.add(c);
      } else if (placed.add(c.column())) {
        List<Object> values = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (Compare g : group) {
          values.addAll(g.values());
          texts.add(g.sql());
        }
        out.add(new Compare(c.column(), Op.IN, List.copyOf(values), String.join(" OR ", texts)));
      }
    }
    return List.copyOf(out);
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
