package dev.javelin.format.internal.v20;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;

/** A growable little-endian byte array that encoders fill with page data. */
final class ByteBuilder {
  private byte[] bytes = new byte[64];
  private int size;

  int size() {
    return size;
  }

  /**
   * Empties the builder, keeping its array: the next page of the column needs as much, and
   * regrowing tens of megabytes by doubling for every page cost more than encoding it. (All of a
   * file's columns fill such a page at once anyway, so keeping it does not raise peak memory.)
   */
  void clear() {
    size = 0;
  }

  private void ensure(long extra) {
    long need = size + extra;
    if (need > Integer.MAX_VALUE - 64) {
      throw new IllegalArgumentException("A page buffer cannot exceed 2 GiB; lower maxPageBytes");
    }
    if (need > bytes.length) {
      long grown = Math.max(need, Math.min((long) bytes.length * 2, Integer.MAX_VALUE - 64));
      bytes = Arrays.copyOf(bytes, (int) grown);
    }
  }

  /** Appends {@code length} bytes of an Arrow buffer starting at {@code index}. */
  void append(ArrowBuf src, long index, long length) {
    ensure(length);
    src.getBytes(index, bytes, size, (int) length);
    size += (int) length;
  }

  void append(byte[] src, int offset, int length) {
    ensure(length);
    System.arraycopy(src, offset, bytes, size, length);
    size += length;
  }

  void appendLong(long v) {
    ensure(8);
    for (int i = 0; i < 8; i++) {
      bytes[size++] = (byte) (v >>> (8 * i));
    }
  }

  /** The raw array; valid bytes are [0, size()). */
  byte[] array() {
    return bytes;
  }

  /**
   * A little-endian buffer over the bytes, for writing out; it shares the array (no copy), so the
   * builder must not change until the buffer is written.
   */
  ByteBuffer toBuffer() {
    return ByteBuffer.wrap(bytes, 0, size).slice().order(ByteOrder.LITTLE_ENDIAN);
  }
}
