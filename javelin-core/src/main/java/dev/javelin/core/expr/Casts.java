package dev.javelin.core.expr;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * CAST(x AS type), TRY_CAST and {@code x::type} with Arrow's cast rules as Lance applies them: a
 * value that does not convert (a string that is no number, a number out of the target's range, NaN
 * to an integer) fails the expression, or gives NULL under TRY_CAST.
 */
final class Casts {
  private Casts() {}

  /** The kind a type name (as {@link Parser#typeName} gives it) casts to. */
  static Kind kindOf(String type) {
    return switch (type) {
      case "BOOLEAN" -> Kind.BOOL;
      case "FLOAT", "DOUBLE" -> Kind.DOUBLE;
      case "STRING" -> Kind.STRING;
      case "DATE" -> Kind.DATE;
      default -> type.startsWith("TIMESTAMP") ? Kind.TIMESTAMP : Kind.LONG;
    };
  }

  /** Whether a value of {@code from} can be cast to {@code type} at all. */
  static boolean allowed(Kind from, String type) {
    Kind to = kindOf(type);
    if (from == Kind.NULL || from == to || from == Kind.STRING || to == Kind.STRING) {
      return from != Kind.LIST && from != Kind.OTHER;
    }
    return switch (to) {
      case BOOL, DOUBLE -> from == Kind.LONG || from == Kind.DOUBLE || from == Kind.BOOL;
      case LONG -> from == Kind.LONG || from == Kind.DOUBLE || from == Kind.BOOL || from == Kind.DATE
          || from == Kind.TIMESTAMP;
      case DATE -> from == Kind.TIMESTAMP || from == Kind.LONG;
      case TIMESTAMP -> from == Kind.DATE || from == Kind.LONG;
      default -> false;
    };
  }

  /** The cast of {@code arg} (of a kind {@link #allowed}) to {@code type}. */
  static Call of(Eval arg, String type, boolean lenient, String source) {
    Kind to = kindOf(type);
    // A timestamp column's integer value is in its own unit, as Arrow casts it.
    long unit = arg instanceof Eval.Column c && c.type instanceof ArrowType.Timestamp t ? nanosPer(t.getUnit()) : 1;
    // A float32 column is written with a float's shortest digits (0.1, not 0.10000000149011612).
    boolean float32 = arg instanceof Eval.Column c && c.type instanceof ArrowType.FloatingPoint fp
        && fp.getPrecision() != org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE;
    String name = (lenient ? "TRY_CAST AS " : "CAST AS ") + type;
    return new Call(to, name, List.of(arg), (a, n, call) -> {
      Values x = a[0];
      Values out = new Values(to, n);
      boolean[] nulls = x.nulls == null ? new boolean[n] : x.nulls.clone();
      Converter conv = new Converter(call, type, lenient, nulls);
      switch (to) {
        case LONG -> {
          long[] r = new long[n];
          for (int i = 0; i < n; i++) {
            if (!nulls[i]) {
              r[i] = conv.toLong(x, i, unit);
            }
          }
          out.longs = r;
        }
        case DOUBLE -> {
          double[] r = new double[n];
          boolean single = type.equals("FLOAT");
          for (int i = 0; i < n; i++) {
            if (!nulls[i]) {
              double d = conv.toDouble(x, i);
              r[i] = single ? (float) d : d;
            }
          }
          out.doubles = r;
        }
        case BOOL -> {
          boolean[] r = new boolean[n];
          for (int i = 0; i < n; i++) {
            if (!nulls[i]) {
              r[i] = conv.toBool(x, i);
            }
          }
          out.bools = r;
        }
        case DATE, TIMESTAMP -> {
          long[] r = new long[n];
          for (int i = 0; i < n; i++) {
            if (!nulls[i]) {
              r[i] = to == Kind.DATE ? conv.toDate(x, i) : conv.toTimestamp(x, i);
            }
          }
          out.longs = r;
        }
        default -> {
          Values.StringsBuilder b = new Values.StringsBuilder(n);
          for (int i = 0; i < n; i++) {
            if (nulls[i]) {
              b.add("");
            } else if (x.kind == Kind.STRING) {
              b.add(x.strings.bytes(), x.strings.start(i), x.strings.length(i));
            } else if (x.kind == Kind.LONG) {
              b.add(x.longs[i]);
            } else {
              b.add(float32 ? floatText((float) x.doubles[i]) : toText(x, i));
            }
          }
          out.strings = b.build();
        }
      }
      out.nulls = nulls;
      return out;
    }, source);
  }

  static long nanosPer(org.apache.arrow.vector.types.TimeUnit unit) {
    return switch (unit) {
      case SECOND -> 1_000_000_000L;
      case MILLISECOND -> 1_000_000L;
      case MICROSECOND -> 1_000L;
      case NANOSECOND -> 1L;
    };
  }

  private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");
  private static final Pattern DECIMAL = Pattern.compile(
      "[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?|[+-]?(?i:nan|inf|infinity)");

  /** Converts single values; a failure is an error, or NULL (marked in {@code nulls}) when lenient. */
  private static final class Converter {
    private final Call call;
    private final String type;
    private final boolean lenient;
    private final boolean[] nulls;

    Converter(Call call, String type, boolean lenient, boolean[] nulls) {
      this.call = call;
      this.type = type;
      this.lenient = lenient;
      this.nulls = nulls;
    }

    private long fail(int i, String value) {
      if (!lenient) {
        throw call.error("cannot cast " + value + " to " + type);
      }
      nulls[i] = true;
      return 0;
    }

    private long range(int i, long v, String shown) {
      long lo;
      long hi;
      switch (type) {
        case "TINYINT" -> { lo = Byte.MIN_VALUE; hi = Byte.MAX_VALUE; }
        case "SMALLINT" -> { lo = Short.MIN_VALUE; hi = Short.MAX_VALUE; }
        case "INT" -> { lo = Integer.MIN_VALUE; hi = Integer.MAX_VALUE; }
        case "TINYINT UNSIGNED" -> { lo = 0; hi = 255; }
        case "SMALLINT UNSIGNED" -> { lo = 0; hi = 65535; }
        case "INT UNSIGNED" -> { lo = 0; hi = 0xFFFFFFFFL; }
        case "BIGINT UNSIGNED" -> { lo = 0; hi = Long.MAX_VALUE; }
        default -> { lo = Long.MIN_VALUE; hi = Long.MAX_VALUE; }
      }
      return v < lo || v > hi ? fail(i, shown) : v;
    }

    long toLong(Values x, int i, long unit) {
      switch (x.kind) {
        case LONG:
          return range(i, x.longs[i], "value " + x.longs[i]);
        case DATE:
          return range(i, x.longs[i], "date " + LocalDate.ofEpochDay(x.longs[i]));
        case TIMESTAMP:
          return range(i, Math.floorDiv(x.longs[i], unit), "timestamp " + timestampText(x.longs[i]));
        case BOOL:
          return x.bools[i] ? 1 : 0;
        case DOUBLE: {
          double d = x.doubles[i];
          // Truncated toward zero; NaN, infinities and values past 2^63 do not convert.
          if (Double.isNaN(d) || d >= 0x1p63 || d < -0x1p63) {
            return fail(i, "value " + doubleText(d));
          }
          return range(i, (long) d, "value " + doubleText(d));
        }
        default: {
          String s = x.strings.string(i);
          if (!INTEGER.matcher(s).matches()) {
            return fail(i, "string '" + s + "'");
          }
          try {
            return range(i, Long.parseLong(s), "string '" + s + "'");
          } catch (NumberFormatException e) {
            return fail(i, "string '" + s + "'");
          }
        }
      }
    }

    double toDouble(Values x, int i) {
      return switch (x.kind) {
        case LONG -> x.longs[i];
        case DOUBLE -> x.doubles[i];
        case BOOL -> x.bools[i] ? 1 : 0;
        default -> {
          String s = x.strings.string(i);
          if (!DECIMAL.matcher(s).matches()) {
            fail(i, "string '" + s + "'");
            yield 0;
          }
          String lower = s.toLowerCase(Locale.ROOT);
          boolean negative = lower.startsWith("-");
          if (lower.endsWith("nan")) {
            yield Double.NaN;
          }
          if (lower.endsWith("inf") || lower.endsWith("infinity")) {
            yield negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
          }
          yield Double.parseDouble(s);
        }
      };
    }

    boolean toBool(Values x, int i) {
      switch (x.kind) {
        case BOOL:
          return x.bools[i];
        case LONG:
          return x.longs[i] != 0;
        case DOUBLE:
          return x.doubles[i] != 0;
        default: {
          String s = x.strings.string(i);
          switch (s.toLowerCase(Locale.ROOT)) {
            case "true", "t", "yes", "y", "on", "1":
              return true;
            case "false", "f", "no", "n", "off", "0":
              return false;
            default:
              fail(i, "string '" + s + "'");
              return false;
          }
        }
      }
    }

    long toDate(Values x, int i) {
      switch (x.kind) {
        case DATE:
          return x.longs[i];
        case TIMESTAMP:
          return Math.floorDiv(x.longs[i], NANOS_PER_DAY);
        case LONG:
          return range(i, x.longs[i], "value " + x.longs[i]);
        default: {
          String s = x.strings.string(i).trim();
          try {
            // A date, or a timestamp whose date part is taken.
            return s.length() == 10 ? LocalDate.parse(s).toEpochDay()
                : Math.floorDiv(Parser.parseTimestampNanos(s), NANOS_PER_DAY);
          } catch (DateTimeParseException | ArithmeticException e) {
            return fail(i, "string '" + x.strings.string(i) + "'");
          }
        }
      }
    }

    long toTimestamp(Values x, int i) {
      long precision = type.equals("TIMESTAMP") ? 1_000L : switch (type) {
        case "TIMESTAMP(0)" -> 1_000_000_000L;
        case "TIMESTAMP(3)" -> 1_000_000L;
        case "TIMESTAMP(6)" -> 1_000L;
        default -> 1L;
      };
      long nanos;
      switch (x.kind) {
        case TIMESTAMP:
          nanos = x.longs[i];
          break;
        case DATE:
          nanos = x.longs[i] * NANOS_PER_DAY;
          break;
        case LONG:
          try {
            return Math.multiplyExact(x.longs[i], precision);
          } catch (ArithmeticException e) {
            return fail(i, "value " + x.longs[i]);
          }
        default: {
          String s = x.strings.string(i);
          try {
            nanos = Parser.parseTimestampNanos(s);
          } catch (DateTimeParseException | ArithmeticException e) {
            return fail(i, "string '" + s + "'");
          }
        }
      }
      return nanos / precision * precision;
    }
  }

  static final long NANOS_PER_DAY = 86_400_000_000_000L;

  /** A value as CAST(... AS STRING) writes it. */
  static String toText(Values x, int i) {
    return switch (x.kind) {
      case LONG -> Long.toString(x.longs[i]);
      case DOUBLE -> doubleText(x.doubles[i]);
      case BOOL -> x.bools[i] ? "true" : "false";
      case DATE -> LocalDate.ofEpochDay(x.longs[i]).toString();
      case TIMESTAMP -> timestampText(x.longs[i]);
      default -> x.strings.string(i);
    };
  }

  /**
   * A float the way Arrow writes it: the shortest digits that read back the same, in plain
   * notation with at least one decimal ({@code 1.5}, {@code 3.0}, {@code -0.0}) between 1e-5 and
   * 1e16, else as {@code 1e300} / {@code 2.5e-7}; {@code NaN}, {@code inf}, {@code -inf}.
   */
  static String doubleText(double d) {
    return floatText(d, Double.toString(d));
  }

  /** A float32 value as Arrow writes it (see {@link #doubleText}). */
  static String floatText(float f) {
    return floatText(f, Float.toString(f));
  }

  // `digits` is Java's shortest text for d at its own precision.
  private static String floatText(double d, String digits) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "inf" : "-inf";
    }
    if (d == 0) {
      return 1 / d < 0 ? "-0.0" : "0.0";
    }
    BigDecimal b = new BigDecimal(digits).stripTrailingZeros();
    double a = Math.abs(d);
    if (a >= 1e-5 && a < 1e16) {
      String p = b.toPlainString();
      return p.indexOf('.') < 0 ? p + ".0" : p;
    }
    String unscaled = b.unscaledValue().abs().toString();
    int exp = unscaled.length() - 1 - b.scale();
    String mantissa = unscaled.length() == 1 ? unscaled : unscaled.charAt(0) + "." + unscaled.substring(1);
    return (d < 0 ? "-" : "") + mantissa + "e" + exp;
  }

  /** A timestamp as Arrow writes it: {@code 2024-01-01T07:00:00}, with .fff, .ffffff or .fffffffff as needed. */
  static String timestampText(long nanos) {
    LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L),
        (int) Math.floorMod(nanos, 1_000_000_000L), ZoneOffset.UTC);
    String base = t.toLocalDate() + "T" + String.format(Locale.ROOT, "%02d:%02d:%02d", t.getHour(), t.getMinute(),
        t.getSecond());
    int ns = t.getNano();
    if (ns == 0) {
      return base;
    }
    if (ns % 1_000_000 == 0) {
      return base + String.format(Locale.ROOT, ".%03d", ns / 1_000_000);
    }
    if (ns % 1_000 == 0) {
      return base + String.format(Locale.ROOT, ".%06d", ns / 1_000);
    }
    return base + String.format(Locale.ROOT, ".%09d", ns);
  }
}
