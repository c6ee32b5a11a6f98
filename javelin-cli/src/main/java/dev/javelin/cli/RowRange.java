package dev.javelin.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** A {@code --rows START:END} argument: rows [START, END), either end optional. */
final class RowRange {
  final long start;
  /** One past the last row, or −1 for the end of the file. */
  final long end;

  private RowRange(long start, long end) {
    this.start = start;
    this.end = end;
  }

  /**
   * Parses "10:20", "10:" (to the end) or ":20" (from the start).
   *
   * @throws IllegalArgumentException with a message naming the spec
   */
  static RowRange parse(String spec) {
    int colon = spec.indexOf(':');
    if (colon < 0 || spec.indexOf(':', colon + 1) >= 0) {
      throw new IllegalArgumentException("'" + spec + "' is not START:END (for example 0:100, 50: or :10)");
    }
    long start = bound(spec, spec.substring(0, colon).trim(), 0);
    long end = bound(spec, spec.substring(colon + 1).trim(), -1);
    if (end >= 0 && end < start) {
      throw new IllegalArgumentException("'" + spec + "' ends before it starts");
    }
    return new RowRange(start, end);
  }

  private static long bound(String spec, String s, long absent) {
    if (s.isEmpty()) {
      return absent;
    }
    try {
      long v = Long.parseLong(s);
      if (v < 0) {
        throw new IllegalArgumentException("'" + spec + "' has a negative row number");
      }
      return v;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + spec + "' is not START:END (for example 0:100, 50: or :10)");
    }
  }

  /** For picocli. */
  static final class Converter implements ITypeConverter<RowRange> {
    @Override
    public RowRange convert(String value) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
