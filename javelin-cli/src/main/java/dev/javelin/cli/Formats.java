package dev.javelin.cli;

import java.time.Duration;
import java.util.Locale;

/**
 * How the command line writes numbers for people, the same in every command: counts grouped by
 * thousands ({@code 200,000}), sizes in binary units ({@code 1 KiB = 1,024 bytes}: {@code 512 B},
 * {@code 1.5 KiB}, {@code 12.0 MiB}, {@code 3.2 GiB}), durations as the options take them
 * ({@code 7d}, {@code 12h}, {@code 1d 12h}, {@code 250ms}) and counted nouns ({@code 1 row},
 * {@code 2 rows}). JSON output gives plain numbers (bytes, milliseconds) instead.
 */
final class Formats {
  private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

  private Formats() {}

  /** {@code 1234567} as {@code 1,234,567}. */
  static String number(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** A size in binary units: {@code 512 B}, {@code 1.5 KiB}, {@code 12.0 MiB}, one decimal above bytes. */
  static String size(long bytes) {
    if (bytes < 1024 && bytes > -1024) {
      return bytes + " B";
    }
    double v = bytes;
    int unit = 0;
    while (Math.abs(v) >= 1024 && unit < UNITS.length - 1) {
      v /= 1024;
      unit++;
    }
    // 1023.96 KiB would print as "1024.0 KiB": say 1.0 MiB instead.
    if (Math.abs(v) >= 1023.95 && unit < UNITS.length - 1) {
      v /= 1024;
      unit++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, UNITS[unit]);
  }

  /**
   * A duration in the form the options take when it is a whole number of one unit ({@code 90s},
   * {@code 30m}, {@code 12h}, {@code 7d}), else its two largest units ({@code 1d 12h},
   * {@code 2m 5s}); below a second in milliseconds ({@code 250ms}).
   */
  static String duration(Duration d) {
    long ms = d.toMillis();
    if (ms == 0) {
      return "0s";
    }
    if (ms < 1000) {
      return ms + "ms";
    }
    long s = d.getSeconds();
    long[] sizes = {86_400, 3_600, 60, 1};
    String[] names = {"d", "h", "m", "s"};
    StringBuilder b = new StringBuilder();
    int parts = 0;
    for (int i = 0; i < sizes.length && parts < 2; i++) {
      long n = s / sizes[i];
      if (n > 0) {
        b.append(b.length() == 0 ? "" : " ").append(n).append(names[i]);
        s -= n * sizes[i];
        parts++;
      }
    }
    return b.toString();
  }

  /** {@code 1 row}, {@code 1,500 rows}: the count grouped, the noun with an "s" unless it is 1. */
  static String count(long n, String noun) {
    return count(n, noun, noun + "s");
  }

  /** {@code 1 index}, {@code 2 indices}: the count grouped, with the noun's plural given. */
  static String count(long n, String one, String many) {
    return number(n) + " " + (n == 1 ? one : many);
  }

  /** A share of 0..1 as a whole percentage: {@code 25%}. */
  static String percent(double share) {
    return String.format(Locale.ROOT, "%.0f%%", share * 100);
  }
}
