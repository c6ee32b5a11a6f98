package dev.javelin.cli;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.TemporalAccessor;
import java.util.regex.Pattern;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Values written as text, as CSV cells and JSON strings hold them: what type a cell looks like
 * (for inference) and how it parses. Numbers with leading zeros ("01234") look like text, since
 * making them numbers would lose the zeros; ISO dates look like date32, ISO date-times like
 * timestamp[us] (or timestamp[us,UTC] when they carry an offset).
 */
final class TextValues {
  private TextValues() {}

  /** What a cell looks like, from the narrowest to the widest. */
  enum Kind {
    NONE,
    BOOL,
    INT,
    FLOAT,
    DATE,
    TIMESTAMP,
    TIMESTAMP_TZ,
    STRING
  }

  static final Pattern INT = Pattern.compile("[+-]?\\d+");
  static final Pattern FLOAT =
      Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?|NaN|[+-]?Infinity");
  private static final Pattern LEADING_ZERO = Pattern.compile("[+-]?0\\d.*");
  private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
  private static final Pattern DATE_TIME =
      Pattern.compile("\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?");
  private static final Pattern OFFSET = Pattern.compile("(Z|[+-]\\d{2}(:?\\d{2})?)");
  private static final DateTimeFormatter TIMESTAMP = new DateTimeFormatterBuilder()
      .append(DateTimeFormatter.ISO_LOCAL_DATE)
      .optionalStart()
      .appendLiteral('T')
      .append(DateTimeFormatter.ISO_LOCAL_TIME)
      .optionalStart()
      .appendOffsetId()
      .toFormatter();

  /** The kind of one non-empty cell. */
  static Kind kind(String cell) {
    String s = cell.trim();
    if (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false")) {
      return Kind.BOOL;
    }
    if (LEADING_ZERO.matcher(s).matches() && !s.matches("[+-]?0\\..*")) {
      return Kind.STRING;
    }
    if (INT.matcher(s).matches()) {
      try {
        Long.parseLong(s);
        return Kind.INT;
      } catch (NumberFormatException e) {
        // Too big for int64: keep the digits as text rather than lose them to a double.
        return Kind.STRING;
      }
    }
    if (FLOAT.matcher(s).matches()) {
      return Kind.FLOAT;
    }
    return temporal(s);
  }

  /** DATE, TIMESTAMP or TIMESTAMP_TZ if the text is an ISO date or date-time, else STRING. */
  static Kind temporal(String s) {
    try {
      if (DATE.matcher(s).matches()) {
        LocalDate.parse(s);
        return Kind.DATE;
      }
      if (s.length() >= 16 && DATE_TIME.matcher(s).lookingAt()) {
        java.util.regex.Matcher m = DATE_TIME.matcher(s);
        m.lookingAt();
        String rest = s.substring(m.end());
        if (rest.isEmpty()) {
          parseInstant(s);
          return Kind.TIMESTAMP;
        }
        if (OFFSET.matcher(rest).matches()) {
          parseInstant(s);
          return Kind.TIMESTAMP_TZ;
        }
      }
    } catch (DateTimeParseException e) {
      return Kind.STRING;
    }
    return Kind.STRING;
  }

  static Kind merge(Kind a, Kind b) {
    if (a == Kind.NONE || a == b) {
      return b;
    }
    if (b == Kind.NONE) {
      return a;
    }
    if ((a == Kind.INT && b == Kind.FLOAT) || (a == Kind.FLOAT && b == Kind.INT)) {
      return Kind.FLOAT;
    }
    if ((a == Kind.DATE && b == Kind.TIMESTAMP) || (a == Kind.TIMESTAMP && b == Kind.DATE)) {
      return Kind.TIMESTAMP;
    }
    return Kind.STRING;
  }

  /** The type inferred for a column of this kind (text when nothing was seen). */
  static ArrowType type(Kind kind) {
    switch (kind) {
      case BOOL:
        return ArrowType.Bool.INSTANCE;
      case INT:
        return new ArrowType.Int(64, true);
      case FLOAT:
        return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case DATE:
        return new ArrowType.Date(DateUnit.DAY);
      case TIMESTAMP:
        return new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
      case TIMESTAMP_TZ:
        return new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC");
      default:
        return ArrowType.Utf8.INSTANCE;
    }
  }

  static boolean parseBool(String s) {
    String x = s.trim();
    if (x.equalsIgnoreCase("true") || x.equals("1")) {
      return true;
    }
    if (x.equalsIgnoreCase("false") || x.equals("0")) {
      return false;
    }
    throw new IllegalArgumentException("not a bool");
  }

  static double parseDouble(String s) {
    String x = s.trim();
    if (!FLOAT.matcher(x).matches()) {
      throw new NumberFormatException("not a number");
    }
    return Double.parseDouble(x);
  }

  /** An ISO date or date-time ('T' or a space between), in UTC unless it has an offset. */
  static Instant parseInstant(String s) {
    String x = s.trim();
    int space = x.indexOf(' ');
    if (space == 10) {
      x = x.substring(0, 10) + 'T' + x.substring(11).trim();
    }
    TemporalAccessor t = TIMESTAMP.parseBest(x, OffsetDateTime::from, LocalDateTime::from, LocalDate::from);
    if (t instanceof OffsetDateTime) {
      return ((OffsetDateTime) t).toInstant();
    }
    if (t instanceof LocalDateTime) {
      return ((LocalDateTime) t).toInstant(ZoneOffset.UTC);
    }
    return ((LocalDate) t).atStartOfDay().toInstant(ZoneOffset.UTC);
  }

  /** An instant as a count of {@code unit} since the epoch. */
  static long epoch(Instant at, TimeUnit unit) {
    long s = at.getEpochSecond();
    long n = at.getNano();
    switch (unit) {
      case SECOND:
        return s;
      case MILLISECOND:
        return Math.addExact(Math.multiplyExact(s, 1_000L), n / 1_000_000);
      case MICROSECOND:
        return Math.addExact(Math.multiplyExact(s, 1_000_000L), n / 1_000);
      default:
        return Math.addExact(Math.multiplyExact(s, 1_000_000_000L), n);
    }
  }

  /** A time of day ("12:30:00.5") as a count of {@code unit} since midnight. */
  static long timeOfDay(String s, TimeUnit unit) {
    long nanos = LocalTime.parse(s.trim()).toNanoOfDay();
    switch (unit) {
      case SECOND:
        return nanos / 1_000_000_000L;
      case MILLISECOND:
        return nanos / 1_000_000L;
      case MICROSECOND:
        return nanos / 1_000L;
      default:
        return nanos;
    }
  }
}
