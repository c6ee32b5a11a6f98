package dev.javelin.cli;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Converts sizes such as {@code 1048576}, {@code 64K}, {@code 8M} or {@code 1G} (powers of 1024). */
final class ByteSize implements ITypeConverter<Long> {
  @Override
  public Long convert(String value) {
    String s = value.trim().toUpperCase(Locale.ROOT);
    if (s.endsWith("IB")) {
      s = s.substring(0, s.length() - 2);
    } else if (s.endsWith("B") && s.length() > 1 && !Character.isDigit(s.charAt(s.length() - 2))) {
      s = s.substring(0, s.length() - 1);
    }
    int shift = 0;
    if (!s.isEmpty()) {
      switch (s.charAt(s.length() - 1)) {
        case 'K':
          shift = 10;
          break;
        case 'M':
          shift = 20;
          break;
        case 'G':
          shift = 30;
          break;
        default:
          break;
      }
    }
    String digits = shift == 0 ? s : s.substring(0, s.length() - 1);
    try {
      long n = Long.parseLong(digits.trim());
      if (n <= 0 || n > (Long.MAX_VALUE >> shift)) {
        throw new TypeConversionException("'" + value + "' is not a positive size");
      }
      return n << shift;
    } catch (NumberFormatException e) {
      throw new TypeConversionException("'" + value + "' is not a size (for example 1048576, 512K or 8M)");
    }
  }
}
