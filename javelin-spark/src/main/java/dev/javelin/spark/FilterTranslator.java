package dev.javelin.spark;

import dev.javelin.core.exceptions.ExpressionTooDeepException;
import dev.javelin.core.expr.Expression;
import java.math.BigDecimal;
import java.sql.Date;
import java.time.LocalDate;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;
import org.apache.spark.sql.sources.StringStartsWith;

/**
 * Spark data source filters in Javelin's expression language, or null for a filter it cannot
 * express (nested columns, values of other types): that filter is left to Spark.
 */
final class FilterTranslator {
  private FilterTranslator() {}

  static String translate(Filter f) {
    String out = translate(f, 0);
    if (out == null) {
      return null;
    }
    try {
      Expression.parse(out);
    } catch (ExpressionTooDeepException e) {
      return null; // nested past Javelin's limit: Spark applies it
    }
    return out;
  }

  // Spark builds AND/OR as binary trees (a long OR chain is a deep left spine); a chain of one
  // operator is gathered without recursion into one flat "(x) OR (y) OR ...", so only changes of
  // operator nest, and those at most Expression.MAX_DEPTH deep.
  private static String translate(Filter f, int depth) {
    if (depth > Expression.MAX_DEPTH) {
      return null;
    }
    if (f instanceof And || f instanceof Or) {
      boolean and = f instanceof And;
      List<String> parts = new ArrayList<>();
      Deque<Filter> todo = new ArrayDeque<>();
      todo.push(f);
      while (!todo.isEmpty()) {
        Filter g = todo.pop();
        if (and ? g instanceof And : g instanceof Or) {
          todo.push(and ? ((And) g).right() : ((Or) g).right());
          todo.push(and ? ((And) g).left() : ((Or) g).left());
          continue;
        }
        String t = translate(g, depth + 1);
        if (t == null) {
          return null;
        }
        parts.add("(" + t + ")");
      }
      return String.join(and ? " AND " : " OR ", parts);
    }
    if (f instanceof EqualTo e) {
      return cmp(e.attribute(), "=", e.value());
    } else if (f instanceof GreaterThan e) {
      return cmp(e.attribute(), ">", e.value());
    } else if (f instanceof GreaterThanOrEqual e) {
      return cmp(e.attribute(), ">=", e.value());
    } else if (f instanceof LessThan e) {
      return cmp(e.attribute(), "<", e.value());
    } else if (f instanceof LessThanOrEqual e) {
      return cmp(e.attribute(), "<=", e.value());
    } else if (f instanceof IsNull e) {
      return column(e.attribute()) == null ? null : column(e.attribute()) + " IS NULL";
    } else if (f instanceof IsNotNull e) {
      return column(e.attribute()) == null ? null : column(e.attribute()) + " IS NOT NULL";
    } else if (f instanceof In e) {
      String c = column(e.attribute());
      if (c == null || e.values().length == 0) {
        return null;
      }
      List<String> vs = new ArrayList<>();
      for (Object v : e.values()) {
        String l = literal(v);
        if (l == null) {
          return null;
        }
        vs.add(l);
      }
      return c + " IN (" + String.join(", ", vs) + ")";
    } else if (f instanceof StringStartsWith e) {
      String c = column(e.attribute());
      String v = e.value();
      if (c == null || v.contains("%") || v.contains("_") || v.contains("\\")) {
        return null;
      }
      return c + " LIKE " + literal(v + "%");
    } else if (f instanceof Not n) {
      String c = translate(n.child(), depth + 1);
      return c == null ? null : "NOT (" + c + ")";
    }
    return null;
  }

  private static String cmp(String attribute, String op, Object value) {
    String c = column(attribute);
    String v = literal(value);
    return c == null || v == null ? null : c + " " + op + " " + v;
  }

  // Spark names a nested field a.b; top-level names with dots come back-quoted. Both stay in Spark.
  private static String column(String attribute) {
    if (attribute.contains(".") || attribute.contains("`")) {
      return null;
    }
    return "`" + attribute + "`";
  }

  private static String literal(Object v) {
    if (v instanceof String s) {
      return "'" + s.replace("'", "''") + "'";
    } else if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
      return v.toString();
    } else if (v instanceof Double d) {
      return Double.isFinite(d) ? BigDecimal.valueOf(d).toPlainString() : null;
    } else if (v instanceof Boolean b) {
      return b ? "TRUE" : "FALSE";
    } else if (v instanceof LocalDate d) {
      return "DATE '" + d + "'";
    } else if (v instanceof Date d) {
      return "DATE '" + d.toLocalDate() + "'";
    }
    // Floats would widen to doubles that compare unlike Spark's floats; timestamps and decimals
    // are left to Spark too.
    return null;
  }
}
