package dev.javelin.index.internal.bloom;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The bytes Lance hashes for a value of a column type: integers, dates and timestamps little-endian
 * in the column's width, floats as their IEEE bits in the column's width, strings as UTF-8,
 * binaries as they are.
 */
final class ValueBytes {
  private ValueBytes() {}

  /** Whether values of {@code type} can go into a bloom filter. */
  static boolean supports(ArrowType type) {
    if (type instanceof ArrowType.Int i) {
      return !(i.getBitWidth() == 64 && !i.getIsSigned());
    }
    if (type instanceof ArrowType.FloatingPoint f) {
      return f.getPrecision() != FloatingPointPrecision.HALF;
    }
    return type instanceof ArrowType.Utf8 || type instanceof ArrowType.LargeUtf8 || type instanceof ArrowType.Binary
        || type instanceof ArrowType.Date || type instanceof ArrowType.Timestamp;
  }

  /** The bytes of {@code v} (in {@link dev.javelin.index.internal.scalar.ScalarValues} form) for a column of {@code type}. */
  static byte[] of(Object v, ArrowType type) {
    if (v instanceof String s) {
      return s.getBytes(StandardCharsets.UTF_8);
    }
    if (v instanceof byte[] b) {
      return b;
    }
    int width;
    long bits;
    if (type instanceof ArrowType.FloatingPoint f) {
      double d = (Double) v;
      if (f.getPrecision() == FloatingPointPrecision.SINGLE) {
        width = 4;
        bits = Float.floatToRawIntBits((float) d);
      } else {
        width = 8;
        bits = Double.doubleToRawLongBits(d);
      }
    } else {
      bits = (Long) v;
      if (type instanceof ArrowType.Int i) {
        width = i.getBitWidth() / 8;
      } else if (type instanceof ArrowType.Date d) {
        width = d.getUnit() == DateUnit.DAY ? 4 : 8;
      } else {
        width = 8;
      }
    }
    ByteBuffer out = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(bits);
    byte[] b = new byte[width];
    System.arraycopy(out.array(), 0, b, 0, width);
    return b;
  }
}
