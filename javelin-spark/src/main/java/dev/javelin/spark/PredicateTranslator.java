package dev.javelin.spark;

import dev.javelin.core.exceptions.ExpressionTooDeepException;
import dev.javelin.core.expr.Expression;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.connector.expressions.GeneralScalarExpression;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Spark's V2 predicates (what {@code DELETE FROM ... WHERE} hands a table) in Javelin's
 * expression language, or null when any part has no exact Javelin form. All or nothing: a
 * delete must remove exactly the rows the whole predicate selects (Spark's own conversion to V1
 * filters keeps one side of an OR whose other side it cannot convert, which would delete too
 * few rows).
 */
final class PredicateTranslator {
  private static final Map<String, String> COMPARISONS = Map.of("=", "=", "<>", "<>", "<", "<", "<=", "<=",
      ">", ">", ">=", ">=");
  // Arithmetic Javelin evaluates as Spark does on integers (division differs: Spark's is real).
  private static final List<String> ARITHMETIC = List.of("+", "-", "*", "%");

  private PredicateTranslator() {}

  /** The conjunction of {@code predicates} ("TRUE" if there are none), or null. */
  static String translate(Predicate[] predicates) {
    List<String> parts = new ArrayList<>();
    for (Predicate p : predicates) {
      String t = expression(p, 0);
      if (t == null) {
        return null;
      }
      parts.add("(" + t + ")");
    }
    String out = parts.isEmpty() ? "TRUE" : String.join(" AND ", parts);
    try {
      Expression.parse(out);
    } catch (ExpressionTooDeepException e) {
      return null;
    }
    return out;
  }

  /** One V2 expression (a predicate or a value) in Javelin's language, or null. */
  static String expression(org.apache.spark.sql.connector.expressions.Expression e) {
    String out = expression(e, 0);
    if (out == null) {
      return null;
    }
    try {
      Expression.parse(out);
    } catch (ExpressionTooDeepException x) {
      return null;
    }
    return out;
  }

  private static String expression(org.apache.spark.sql.connector.expressions.Expression e, int depth) {
    if (depth > Expression.MAX_DEPTH) {
      return null;
    }
    if (e instanceof NamedReference r) {
      String[] names = r.fieldNames();
      return names.length == 1 ? "`" + names[0].replace("`", "``") + "`" : null;
    }
    if (e instanceof Literal<?> l) {
      return literal(l.value(), l.dataType());
    }
    if (!(e instanceof GeneralScalarExpression g)) {
      return null;
    }
    String name = g.name();
    org.apache.spark.sql.connector.expressions.Expression[] c = g.children();
    switch (name) {
      case "ALWAYS_TRUE":
        return "TRUE";
      case "ALWAYS_FALSE":
        return "FALSE";
      case "AND":
      case "OR": {
        String l = expression(c[0], depth + 1);
        String r = expression(c[1], depth + 1);
        return l == null || r == null ? null : "(" + l + ") " + name + " (" + r + ")";
      }
      case "NOT": {
        String x = expression(c[0], depth + 1);
        return x == null ? null : "NOT (" + x + ")";
      }
      case "IS_NULL":
      case "IS_NOT_NULL": {
        String x = expression(c[0], depth + 1);
        return x == null ? null : "(" + x + ")" + (name.equals("IS_NULL") ? " IS NULL" : " IS NOT NULL");
      }
      case "IN": {
        String x = expression(c[0], depth + 1);
        if (x == null || c.length < 2) {
          return null;
        }
        List<String> vs = new ArrayList<>();
        for (int i = 1; i < c.length; i++) {
          if (!(c[i] instanceof Literal<?>)) {
            return null;
          }
          String v = expression(c[i], depth + 1);
          if (v == null) {
            return null;
          }
          vs.add(v);
        }
        return "(" + x + ") IN (" + String.join(", ", vs) + ")";
      }
      case "STARTS_WITH": {
        String x = expression(c[0], depth + 1);
        if (x == null || !(c[1] instanceof Literal<?> l) || !(l.value() instanceof UTF8String s)) {
          return null;
        }
        String v = s.toString();
        if (v.contains("%") || v.contains("_") || v.contains("\\")) {
          return null;
        }
        return "(" + x + ") LIKE " + quote(v + "%");
      }
      default:
        break;
    }
    if (COMPARISONS.containsKey(name) || ARITHMETIC.contains(name)) {
      if (c.length != 2) {
        return null;
      }
      if (ARITHMETIC.contains(name) && !(integral(c[0]) && integral(c[1]))) {
        return null;
      }
      String l = expression(c[0], depth + 1);
      String r = expression(c[1], depth + 1);
      return l == null || r == null ? null : "(" + l + ") " + COMPARISONS.getOrDefault(name, name) + " (" + r + ")";
    }
    return null;
  }

  // Whether an arithmetic operand is a column or integer literal (Spark types a column's
  // arithmetic by its operands; only integers are evaluated alike).
  private static boolean integral(org.apache.spark.sql.connector.expressions.Expression e) {
    if (e instanceof Literal<?> l) {
      DataType t = l.dataType();
      return t.equals(DataTypes.LongType) || t.equals(DataTypes.IntegerType) || t.equals(DataTypes.ShortType)
          || t.equals(DataTypes.ByteType);
    }
    return e instanceof NamedReference || e instanceof GeneralScalarExpression g
        && ARITHMETIC.contains(g.name()) && integral(g.children()[0]) && integral(g.children()[1]);
  }

  private static String literal(Object v, DataType type) {
    if (v == null) {
      return "NULL"; // compares as Spark's NULL does: never TRUE
    }
    if (v instanceof UTF8String s) {
      return quote(s.toString());
    } else if (v instanceof Integer i && type.equals(DataTypes.DateType)) {
      return "DATE '" + LocalDate.ofEpochDay(i) + "'";
    } else if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
      return v.toString();
    } else if (v instanceof Double d) {
      return Double.isFinite(d) ? BigDecimal.valueOf(d).toPlainString() : null;
    } else if (v instanceof Boolean b) {
      return b ? "TRUE" : "FALSE";
    }
    return null;
  }

  private static String quote(String s) {
    return "'" + s.replace("'", "''") + "'";
  }
}
