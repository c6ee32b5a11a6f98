package dev.javelin.index.internal.btree;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A predicate on one indexed column, with Lance's semantics: comparisons never match nulls, only
 * {@link #isNull()} does; floats compare in IEEE total order (NaN equals NaN and is above +inf).
 * Values: a {@link Number} for integer, float, time and timestamp columns (timestamps in the
 * column's unit), a {@link java.time.LocalDate} or a day count for dates, a {@link String} for
 * strings, {@code byte[]} for binaries, a {@link Boolean} for booleans.
 */
public final class ScalarQuery {
  /** The kinds of predicate. */
  public enum Kind { EQUALS, LESS, LESS_OR_EQUAL, GREATER, GREATER_OR_EQUAL, BETWEEN, IN, IS_NULL }

  private final Kind kind;
  private final List<Object> values;

  private ScalarQuery(Kind kind, List<Object> values) {
    this.kind = kind;
    for (Object v : values) {
      if (v == null) {
        throw new IllegalArgumentException(kind + " needs non-null values (nulls match only isNull())");
      }
    }
    this.values = List.copyOf(values);
  }

  public static ScalarQuery equalTo(Object value) {
    return new ScalarQuery(Kind.EQUALS, Collections.singletonList(value));
  }

  public static ScalarQuery lessThan(Object value) {
    return new ScalarQuery(Kind.LESS, Collections.singletonList(value));
  }

  public static ScalarQuery lessOrEqual(Object value) {
    return new ScalarQuery(Kind.LESS_OR_EQUAL, Collections.singletonList(value));
  }

  public static ScalarQuery greaterThan(Object value) {
    return new ScalarQuery(Kind.GREATER, Collections.singletonList(value));
  }

  public static ScalarQuery greaterOrEqual(Object value) {
    return new ScalarQuery(Kind.GREATER_OR_EQUAL, Collections.singletonList(value));
  }

  /** {@code low <= x <= high} (SQL BETWEEN). */
  public static ScalarQuery between(Object low, Object high) {
    return new ScalarQuery(Kind.BETWEEN, Arrays.asList(low, high));
  }

  /** {@code x IN (values)}; an empty list matches nothing. */
  public static ScalarQuery in(List<?> values) {
    return new ScalarQuery(Kind.IN, List.copyOf(Objects.requireNonNull(values)));
  }

  public static ScalarQuery isNull() {
    return new ScalarQuery(Kind.IS_NULL, List.of());
  }

  public Kind kind() {
    return kind;
  }

  /** The operands: one, two for BETWEEN, any number for IN, none for IS_NULL. */
  public List<Object> values() {
    return values;
  }

  @Override
  public String toString() {
    return kind + (values.isEmpty() ? "" : " " + values);
  }
}
