package dev.javelin.format.internal.v20;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;

/** A growable bitmap in Arrow's bit order (least significant bit first). */
final class BitBuilder {
  private byte[] bits = new byte[16];
  private long count;
  private long ones;

  long count() {
    return count;
  }

  /** The number of set bits appended so far. */
  long ones() {
    return ones;
  }

  long sizeInBytes() {
    return (count + 7) >>> 3;
  }

  void clear() {
    count = 0;
    ones = 0;
    if (bits.length > (1 << 20)) {
      bits = new byte[16];
    } else {
      Arrays.fill(bits, (byte) 0);
    }
  }

  private void ensure(long extraBits) {
    long needBytes = (count + extraBits + 7) >>> 3;
    if (needBytes > Integer.MAX_VALUE - 64) {
      throw new IllegalArgumentException("A page bitmap cannot exceed 2 GiB; lower maxPageBytes");
    }
    if (needBytes > bits.length) {
      long grown = Math.max(needBytes, Math.min((long) bits.length * 2, Integer.MAX_VALUE - 64));
      bits = Arrays.copyOf(bits, (int) grown);
    }
  }

  boolean get(long i) {
    return (bits[(int) (i >>> 3)] & (1 << (i & 7))) != 0;
  }

  void append(boolean bit) {
    ensure(1);
    if (bit) {
      bits[(int) (count >>> 3)] |= (byte) (1 << (count & 7));
      ones++;
    }
    count++;
  }

  /** Appends {@code n} copies of one bit. */
  void appendMany(boolean bit, long n) {
    ensure(n);
    if (bit) {
      for (long i = 0; i < n; i++) {
        long at = count + i;
        bits[(int) (at >>> 3)] |= (byte) (1 << (at & 7));
      }
      ones += n;
    }
    count += n;
  }

  /** Appends bits [from, from + n) of an Arrow bitmap. */
  void append(ArrowBuf src, long from, long n) {
    ensure(n);
    if ((from & 7) == 0 && (count & 7) == 0) {
      int whole = (int) (n >>> 3);
      src.getBytes(from >>> 3, bits, (int) (count >>> 3), whole);
      for (int i = 0; i < whole; i++) {
        ones += Integer.bitCount(bits[(int) (count >>> 3) + i] & 0xFF);
      }
      count += (long) whole << 3;
      from += (long) whole << 3;
      n -= (long) whole << 3;
    }
    for (long i = 0; i < n; i++) {
      long s = from + i;
      append((src.getByte(s >>> 3) & (1 << (s & 7))) != 0);
    }
  }

  /** A little-endian buffer over a copy of the bitmap's bytes. */
  ByteBuffer toBuffer() {
    return ByteBuffer.wrap(Arrays.copyOf(bits, (int) sizeInBytes())).order(ByteOrder.LITTLE_ENDIAN);
  }
}
