package dev.javelin.format.internal.compression.bitpack;

import java.nio.ByteBuffer;

/**
 * Lance 2.1 {@code Constant}: no buffers; the description holds the value's bytes
 * ({@code Constant{optional bytes value}}), which stand for every value of the block. A missing value
 * means every value is null (Lance decodes it as an all-null block; e.g. an all-null fixed-size-list
 * child). The width of each value is the length of those bytes. This helper repeats the bytes.
 */
public final class ConstantCodec {
  private static final String WHAT = "constant";

  private ConstantCodec() {}

  /** The bits per value that a constant of these bytes stands for; 0 when there is no value (all null). */
  public static int bitsPerValue(byte[] valueOrNull) {
    return valueOrNull == null ? 0 : valueOrNull.length * 8;
  }

  /**
   * Writes {@code numValues} copies of {@code value} into {@code out} at its position, advancing it.
   *
   * @throws IllegalArgumentException if {@code value} is empty, {@code numValues} is negative, or
   *     {@code out} has too little room
   */
  public static void decode(byte[] value, int numValues, ByteBuffer out) {
    if (value == null || value.length == 0) {
      throw new IllegalArgumentException(WHAT + ": no value bytes to repeat");
    }
    Checks.count(WHAT, numValues);
    long total = (long) numValues * value.length;
    Checks.room(WHAT, out, total);
    if (out.hasArray()) {
      fill(value, out.array(), out.arrayOffset() + out.position(), (int) total);
      out.position(out.position() + (int) total);
    } else {
      for (int i = 0; i < numValues; i++) {
        out.put(value);
      }
    }
  }

  /**
   * Returns {@code numValues} copies of {@code value}, back to back.
   *
   * @throws IllegalArgumentException if {@code value} is empty, {@code numValues} is negative, or the
   *     result would not fit an array
   */
  public static byte[] decode(byte[] value, int numValues) {
    if (value == null || value.length == 0) {
      throw new IllegalArgumentException(WHAT + ": no value bytes to repeat");
    }
    byte[] out = new byte[Checks.byteSize(WHAT, numValues, value.length)];
    fill(value, out, 0, out.length);
    return out;
  }

  // Copies the value once, then doubles the filled prefix: O(log n) array copies.
  private static void fill(byte[] value, byte[] out, int off, int total) {
    if (total == 0) {
      return;
    }
    System.arraycopy(value, 0, out, off, value.length);
    int filled = value.length;
    while (filled < total) {
      int n = Math.min(filled, total - filled);
      System.arraycopy(out, off, out, off + filled, n);
      filled += n;
    }
  }
}
