package dev.javelin.index.internal.scalar;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.Comparator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The values of the column types the bitmap, zone map and bloom filter kinds index, as Java values
 * that compare as Lance orders them: {@link Long} for integers, dates (days or milliseconds) and
 * timestamps, {@link Double} for floats (IEEE total order: NaN above +inf, -0.0 below 0.0),
 * {@link String} for strings, {@code byte[]} for binaries (unsigned lexicographic), {@link Boolean}
 * for booleans. Query literals ({@link dev.javelin.index.internal.btree.ScalarQuery} values) are
 * brought to the same form by {@link #literal}.
 */
public final class ScalarValues {
  private ScalarValues() {}

  /** Orders non-null values of one column type. */
  public static final Comparator<Object> ORDER = ScalarValues::compare;

  /** Whether a column of {@code type} can be indexed by these kinds. */
  public static boolean supports(ArrowType type) {
    if (type instanceof ArrowType.Int i) {
      return !(i.getBitWidth() == 64 && !i.getIsSigned());
    }
    return type instanceof ArrowType.FloatingPoint fp && fp.getPrecision() != org.apache.arrow.vector.types.FloatingPointPrecision.HALF
        || type instanceof ArrowType.Utf8 || type instanceof ArrowType.LargeUtf8
        || type instanceof ArrowType.Binary || type instanceof ArrowType.Bool
        || type instanceof ArrowType.Date || type instanceof ArrowType.Timestamp;
  }

  /** The value at {@code i}, or null when it is null. */
  public static Object read(FieldVector v, int i) {
    if (v.isNull(i)) {
      return null;
    }
    if (v instanceof UInt8Vector u) {
      throw new IllegalArgumentException("uint64 columns are not supported: " + v.getField());
    }
    if (v instanceof BaseIntVector b) {
      return b.getValueAsLong(i);
    }
    if (v instanceof Float8Vector f) {
      return f.get(i);
    }
    if (v instanceof Float4Vector f) {
      return (double) f.get(i);
    }
    if (v instanceof VarCharVector s) {
      return new String(s.get(i), StandardCharsets.UTF_8);
    }
    if (v instanceof LargeVarCharVector s) {
      return new String(s.get(i), StandardCharsets.UTF_8);
    }
    if (v instanceof VarBinaryVector b) {
      return b.get(i);
    }
    if (v instanceof BitVector b) {
      return b.get(i) != 0;
    }
    if (v instanceof DateDayVector d) {
      return (long) d.get(i);
    }
    if (v instanceof DateMilliVector d) {
      return d.get(i);
    }
    if (v instanceof TimeStampVector t) {
      return t.get(i);
    }
    throw new IllegalArgumentException("Cannot index values of type " + v.getField().getType() + ": " + v.getField());
  }

  /**
   * A query literal in the form {@link #read} gives for a column of {@code type}, or null when it
   * cannot be compared with the column's values.
   */
  public static Object literal(Object v, ArrowType type) {
    if (type instanceof ArrowType.Int || type instanceof ArrowType.Timestamp) {
      return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte
          ? ((Number) v).longValue() : null;
    }
    if (type instanceof ArrowType.FloatingPoint) {
      return v instanceof Number n ? n.doubleValue() : null;
    }
    if (type instanceof ArrowType.Utf8 || type instanceof ArrowType.LargeUtf8) {
      return v instanceof String ? v : null;
    }
    if (type instanceof ArrowType.Binary) {
      return v instanceof byte[] ? v : null;
    }
    if (type instanceof ArrowType.Bool) {
      return v instanceof Boolean ? v : null;
    }
    if (type instanceof ArrowType.Date d) {
      long days;
      if (v instanceof LocalDate ld) {
        days = ld.toEpochDay();
      } else if (v instanceof Number n) {
        days = n.longValue();
      } else {
        return null;
      }
      return d.getUnit() == DateUnit.DAY ? days : days * 86_400_000L;
    }
    return null;
  }

  /** Compares two non-null values of one column type. */
  public static int compare(Object a, Object b) {
    if (a instanceof Long x) {
      return Long.compare(x, (Long) b);
    }
    if (a instanceof Double x) {
      return Double.compare(x, (Double) b);
    }
    if (a instanceof String x) {
      return compareCodePoints(x, (String) b);
    }
    if (a instanceof byte[] x) {
      return Arrays.compareUnsigned(x, (byte[]) b);
    }
    if (a instanceof Boolean x) {
      return Boolean.compare(x, (Boolean) b);
    }
    throw new IllegalArgumentException("Not an indexed value: " + a);
  }

  // Code point order, which is UTF-8 byte order as Lance compares strings (String.compareTo
  // compares UTF-16 units, which orders characters above U+FFFF below U+E000..U+FFFF).
  private static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int x = a.codePointAt(i);
      int y = b.codePointAt(j);
      if (x != y) {
        return Integer.compare(x, y);
      }
      i += Character.charCount(x);
      j += Character.charCount(y);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  /** Whether {@code v} is a float NaN. */
  public static boolean isNaN(Object v) {
    return v instanceof Double d && d.isNaN();
  }
}
