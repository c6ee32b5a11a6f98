package dev.javelin.format.internal.v20;

import java.nio.ByteBuffer;
import org.apache.arrow.memory.ArrowBuf;

/** Bit copies between page buffers and Arrow bitmaps (least significant bit first). */
final class Bitmaps {
  private Bitmaps() {}

  /** Copies {@code n} bits starting at bit {@code srcBit} of {@code src} to bit {@code dstBit} of {@code dst}. */
  static void copy(ByteBuffer src, long srcBit, ArrowBuf dst, long dstBit, long n) {
    if (((srcBit | dstBit) & 7) == 0) {
      long whole = n >>> 3;
      ByteBuffer s = src.duplicate();
      s.position((int) (srcBit >>> 3));
      s.limit((int) ((srcBit >>> 3) + whole));
      dst.setBytes(dstBit >>> 3, s);
      srcBit += whole << 3;
      dstBit += whole << 3;
      n -= whole << 3;
    }
    for (long i = 0; i < n; i++) {
      long s = srcBit + i;
      if ((src.get((int) (s >>> 3)) & (1 << (s & 7))) != 0) {
        set(dst, dstBit + i);
      }
    }
  }

  /** Sets bits [from, from + n) of {@code dst}. */
  static void setRange(ArrowBuf dst, long from, long n) {
    long end = from + n;
    long i = from;
    while (i < end && (i & 7) != 0) {
      set(dst, i++);
    }
    long wholeEnd = end & ~7L;
    if (i < wholeEnd) {
      dst.setOne((int) (i >>> 3), (int) ((wholeEnd - i) >>> 3));
      i = wholeEnd;
    }
    while (i < end) {
      set(dst, i++);
    }
  }

  static void set(ArrowBuf dst, long bit) {
    long at = bit >>> 3;
    dst.setByte(at, dst.getByte(at) | (1 << (bit & 7)));
  }

  static boolean get(ByteBuffer src, long bit) {
    return (src.get((int) (bit >>> 3)) & (1 << (bit & 7))) != 0;
  }

  /** The number of bytes of a bitmap of {@code n} bits. */
  static long bytesFor(long n) {
    return (n + 7) >>> 3;
  }
}
