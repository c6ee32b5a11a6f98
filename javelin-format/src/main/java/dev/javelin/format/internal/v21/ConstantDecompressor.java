package dev.javelin.format.internal.v21;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Reads {@code Constant}: no buffers, one value (from the description) for every item. Without a
 * value every item is null, so placeholders are written; the levels say which items are null.
 */
final class ConstantDecompressor implements MiniBlockDecompressor, BlockDecompressor {
  private final byte[] value;

  /** @param value the value's little-endian bytes, or null for all-null */
  ConstantDecompressor(byte[] value) {
    this.value = value;
  }

  @Override
  public int numBuffers() {
    return 0;
  }

  @Override
  public void decode(ByteBuffer[] buffers, int numValues, LeafValues out) {
    append(value, numValues, out);
  }

  @Override
  public void decode(ByteBuffer buffer, int numValues, LeafValues out) {
    append(value, numValues, out);
  }

  /** Appends {@code n} copies of a fixed-width value (null: placeholders). */
  static void append(byte[] value, int n, LeafValues out) {
    if (value == null) {
      out.appendNulls(n);
      return;
    }
    FixedValues f = (FixedValues) out;
    if (f.bits == 1) {
      // A boolean constant is one byte, 0 or 1.
      byte[] bits = new byte[(n + 7) / 8];
      if (value[0] != 0) {
        Arrays.fill(bits, (byte) 0xFF);
      }
      f.appendFrom(ByteBuffer.wrap(bits), 0, n);
      return;
    }
    byte[] bytes = new byte[Math.multiplyExact(n, value.length)];
    for (int i = 0; i < n; i++) {
      System.arraycopy(value, 0, bytes, i * value.length, value.length);
    }
    f.appendFrom(ByteBuffer.wrap(bytes), 0, n);
  }
}
