package dev.javelin.format.internal.compression.bitpack;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Argument checks and little-endian buffer views shared by the codecs. */
final class Checks {
  private Checks() {}

  /** Checks that {@code [off, off + len)} lies inside an array of {@code arrayLength} elements. */
  static void range(String what, int arrayLength, int off, long len) {
    if (off < 0 || len < 0 || off + len > arrayLength) {
      throw new IllegalArgumentException(what + ": range [" + off + ", " + (off + len)
          + ") does not fit an array of " + arrayLength + " elements");
    }
  }

  static void count(String what, long numValues) {
    if (numValues < 0) {
      throw new IllegalArgumentException(what + ": negative value count " + numValues);
    }
  }

  /** Checks that {@code bits} is one of the lane widths 8, 16, 32, 64 and returns its byte size. */
  static int valueBytes(String what, int bits) {
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64) {
      throw new IllegalArgumentException(what + ": unsupported value width " + bits
          + " bits (expected 8, 16, 32 or 64)");
    }
    return bits >>> 3;
  }

  static void bitWidth(String what, long bitWidth, int typeBits) {
    if (bitWidth < 0 || bitWidth > typeBits) {
      throw new IllegalArgumentException(what + ": bit width " + bitWidth + " is not in 0.."
          + typeBits + " for " + typeBits + "-bit values");
    }
  }

  /** A little-endian view of {@code buf} from its position to its limit; {@code buf} is left untouched. */
  static ByteBuffer le(ByteBuffer buf) {
    return buf.slice().order(ByteOrder.LITTLE_ENDIAN);
  }

  /** Checks that {@code out} has room for {@code bytes} more bytes. */
  static void room(String what, ByteBuffer out, long bytes) {
    if (out.remaining() < bytes) {
      throw new IllegalArgumentException(what + ": output buffer has " + out.remaining()
          + " bytes left, " + bytes + " needed");
    }
  }

  /** The byte size of {@code numValues} values of {@code valueBytes} bytes, refusing sizes over 2 GiB. */
  static int byteSize(String what, long numValues, int valueBytes) {
    long bytes = numValues * valueBytes;
    if (numValues < 0 || bytes > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException(what + ": " + numValues + " values of " + valueBytes
          + " bytes do not fit one array");
    }
    return (int) bytes;
  }
}
