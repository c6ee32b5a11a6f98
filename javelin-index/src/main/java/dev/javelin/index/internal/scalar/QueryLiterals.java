package dev.javelin.index.internal.scalar;

import dev.javelin.index.internal.btree.ScalarQuery;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * A query's operands in {@link ScalarValues} form, and whether a value or a [min, max] range of
 * values can satisfy it.
 */
public final class QueryLiterals {
  private final ScalarQuery.Kind kind;
  private final List<Object> values;

  private QueryLiterals(ScalarQuery.Kind kind, List<Object> values) {
    this.kind = kind;
    this.values = values;
  }

  /**
   * The operands of {@code q} for a column of {@code type}.
   *
   * @throws IllegalArgumentException if one cannot be compared with the column's values
   */
  public static QueryLiterals of(ScalarQuery q, ArrowType type) {
    List<Object> out = new ArrayList<>();
    for (Object v : q.values()) {
      Object l = ScalarValues.literal(v, type);
      if (l == null) {
        throw new IllegalArgumentException("Cannot compare " + v + " (" + v.getClass().getSimpleName()
            + ") with values of type " + type);
      }
      out.add(l);
    }
    if (q.kind() == ScalarQuery.Kind.IN) {
      out.sort(ScalarValues.ORDER);
    }
    return new QueryLiterals(q.kind(), out);
  }

  public ScalarQuery.Kind kind() {
    return kind;
  }

  public List<Object> values() {
    return values;
  }

  /** Whether the non-null value {@code v} satisfies the query. */
  public boolean matches(Object v) {
    switch (kind) {
      case EQUALS: return ScalarValues.compare(v, values.get(0)) == 0;
      case LESS: return ScalarValues.compare(v, values.get(0)) < 0;
      case LESS_OR_EQUAL: return ScalarValues.compare(v, values.get(0)) <= 0;
      case GREATER: return ScalarValues.compare(v, values.get(0)) > 0;
      case GREATER_OR_EQUAL: return ScalarValues.compare(v, values.get(0)) >= 0;
      case BETWEEN:
        return ScalarValues.compare(v, values.get(0)) >= 0 && ScalarValues.compare(v, values.get(1)) <= 0;
      case IN:
        for (Object x : values) {
          if (ScalarValues.compare(v, x) == 0) {
            return true;
          }
        }
        return false;
      case IS_NULL: return false;
      default: throw new IllegalStateException("Unknown query kind " + kind);
    }
  }

  /**
   * Whether a zone whose non-null values lie in [min, max] (both null when it has none) and which
   * holds {@code nulls} nulls may hold a matching row.
   */
  public boolean mayMatch(Object min, Object max, long nulls) {
    if (kind == ScalarQuery.Kind.IS_NULL) {
      return nulls > 0;
    }
    if (min == null || max == null) {
      return false;
    }
    switch (kind) {
      case EQUALS: return within(values.get(0), min, max);
      case LESS: return ScalarValues.compare(min, values.get(0)) < 0;
      case LESS_OR_EQUAL: return ScalarValues.compare(min, values.get(0)) <= 0;
      case GREATER: return ScalarValues.compare(max, values.get(0)) > 0;
      case GREATER_OR_EQUAL: return ScalarValues.compare(max, values.get(0)) >= 0;
      case BETWEEN:
        return ScalarValues.compare(max, values.get(0)) >= 0 && ScalarValues.compare(min, values.get(1)) <= 0;
      case IN:
        for (Object x : values) {
          if (within(x, min, max)) {
            return true;
          }
        }
        return false;
      default: throw new IllegalStateException("Unknown query kind " + kind);
    }
  }

  private static boolean within(Object v, Object min, Object max) {
    return ScalarValues.compare(v, min) >= 0 && ScalarValues.compare(v, max) <= 0;
  }
}
