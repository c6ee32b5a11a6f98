package dev.javelin.core.expr;

import java.time.LocalDate;
import java.time.temporal.IsoFields;
import java.util.List;

/** date_trunc and date_part / EXTRACT over timestamps (epoch nanoseconds, UTC); dates arrive widened to timestamps. */
final class TemporalFunctions {
  private TemporalFunctions() {}

  static final List<String> TRUNC_UNITS = List.of("year", "quarter", "month", "week", "day", "hour", "minute",
      "second", "millisecond", "microsecond");

  static final List<String> PARTS = List.of("year", "quarter", "month", "week", "day", "doy", "dow", "hour",
      "minute", "second", "millisecond", "microsecond", "nanosecond", "epoch");

  private static final long SECOND = 1_000_000_000L;
  private static final long DAY = Casts.NANOS_PER_DAY;

  /** date_trunc(unit, t): the start of t's year, month, week (Monday), day, hour... */
  static Values trunc(Values t, int n, String unit) {
    Values out = new Values(Kind.TIMESTAMP, n);
    out.nulls = t.nulls;
    long[] r = new long[n];
    long[] x = t.longs;
    long step = switch (unit) {
      case "day" -> DAY;
      case "hour" -> 3600 * SECOND;
      case "minute" -> 60 * SECOND;
      case "second" -> SECOND;
      case "millisecond" -> 1_000_000L;
      case "microsecond" -> 1_000L;
      default -> 0;
    };
    for (int i = 0; i < n; i++) {
      if (t.isNull(i)) {
        continue;
      }
      if (step > 0) {
        r[i] = Math.floorDiv(x[i], step) * step;
        continue;
      }
      long days = Math.floorDiv(x[i], DAY);
      LocalDate d = LocalDate.ofEpochDay(days);
      LocalDate start = switch (unit) {
        case "year" -> d.withDayOfYear(1);
        case "quarter" -> LocalDate.of(d.getYear(), (d.getMonthValue() - 1) / 3 * 3 + 1, 1);
        case "month" -> d.withDayOfMonth(1);
        default -> d.minusDays(d.getDayOfWeek().getValue() - 1); // week: back to Monday
      };
      r[i] = start.toEpochDay() * DAY;
    }
    out.longs = r;
    return out;
  }

  /** date_part(part, t): integers (epoch: seconds as a float); dow counts from Sunday = 0. */
  static Values part(Values t, int n, String part) {
    boolean epoch = part.equals("epoch");
    Values out = new Values(epoch ? Kind.DOUBLE : Kind.LONG, n);
    out.nulls = t.nulls;
    long[] r = epoch ? null : new long[n];
    double[] e = epoch ? new double[n] : null;
    long[] x = t.longs;
    for (int i = 0; i < n; i++) {
      if (t.isNull(i)) {
        continue;
      }
      long v = x[i];
      long inDay = Math.floorMod(v, DAY);
      long inMinute = Math.floorMod(v, 60 * SECOND);
      switch (part) {
        case "epoch" -> e[i] = Math.floorDiv(v, SECOND) + Math.floorMod(v, SECOND) / 1e9;
        case "hour" -> r[i] = inDay / (3600 * SECOND);
        case "minute" -> r[i] = inDay / (60 * SECOND) % 60;
        case "second" -> r[i] = inMinute / SECOND;
        case "millisecond" -> r[i] = inMinute / 1_000_000L;
        case "microsecond" -> r[i] = inMinute / 1_000L;
        case "nanosecond" -> r[i] = inMinute;
        default -> {
          LocalDate d = LocalDate.ofEpochDay(Math.floorDiv(v, DAY));
          r[i] = switch (part) {
            case "year" -> d.getYear();
            case "quarter" -> (d.getMonthValue() - 1) / 3 + 1;
            case "month" -> d.getMonthValue();
            case "week" -> d.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR);
            case "day" -> d.getDayOfMonth();
            case "doy" -> d.getDayOfYear();
            default -> d.getDayOfWeek().getValue() % 7; // dow
          };
        }
      }
    }
    out.longs = r;
    out.doubles = e;
    return out;
  }
}
