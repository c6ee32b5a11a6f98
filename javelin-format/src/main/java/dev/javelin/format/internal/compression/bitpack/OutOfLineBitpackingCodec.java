package dev.javelin.format.internal.compression.bitpack;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * Lance 2.1 {@code OutOfLineBitpacking}: a whole buffer packed at one bit width {@code W}, which lives in
 * the encoding description ({@code OutOfLineBitpacking{uncompressed_bits_per_value: T, values:
 * Flat{bits_per_value: W}}}), not in the buffer.
 *
 * <h2>Buffer layout (checked against lance-core 7.0.0)</h2>
 * For {@code n} values of {@code T} bits, with {@code words = 1024 * W / T} words per block:
 * <ol>
 *   <li>{@code n / 1024} whole blocks, each {@code words} little-endian {@code T}-bit words of
 *       {@link FastLanes} packing;</li>
 *   <li>if {@code r = n % 1024} is not 0, a tail, either
 *     <ul>
 *       <li><b>packed</b>: the last {@code r} values padded with zeros to a block and packed
 *           ({@code words} words), when padding costs fewer bits than it saves:
 *           {@code W * (1024 - r) < (T - W) * r}, that is {@code words < r};</li>
 *       <li><b>raw</b>: otherwise the {@code r} values as plain {@code T}-bit words.</li>
 *     </ul>
 *   </li>
 * </ol>
 * The layout of the tail is not recorded: a reader tells them apart by the buffer length, which is
 * {@code (n / 1024) * words + r} words for a raw tail and {@code (n / 1024 + 1) * words} for a packed
 * one (when both are equal the tail is raw, which is also what the writer chooses then).
 *
 * <p>Lance uses this as a block compressor when the block holds more than 1024 values: mini-block
 * repetition and definition levels ({@code T = 16}) and fixed-width dictionaries. For levels the
 * compressor and its width are chosen once per page but applied to each mini-block chunk's levels on
 * their own, so a chunk's buffer may hold fewer than 1024 values (seen in 7.0.0 files: the last chunk
 * of a 1074-row page stores its 50 levels raw, that of a 6000-row page its 880 levels packed).
 */
public final class OutOfLineBitpackingCodec {
  private static final String WHAT = "out-of-line bitpacking";

  private OutOfLineBitpackingCodec() {}

  /**
   * The size in bytes of {@code numValues} {@code typeBits}-bit values packed at {@code bitWidth} bits,
   * as {@link #encode(int[], int, int, int)} and friends write them.
   */
  public static long encodedBytes(int typeBits, int bitWidth, long numValues) {
    Checks.count(WHAT, numValues);
    int words = FastLanes.packedWords(typeBits, bitWidth);
    long full = numValues / FastLanes.BLOCK;
    int tail = (int) (numValues % FastLanes.BLOCK);
    long total = full * words;
    if (tail > 0) {
      total += packTail(typeBits, bitWidth, tail) ? words : tail;
    }
    return total * (typeBits / 8);
  }

  // The writer's rule: pad and pack the tail when the padding costs fewer bits than packing saves.
  private static boolean packTail(int typeBits, int bitWidth, int tail) {
    long paddingCost = (long) bitWidth * (FastLanes.BLOCK - tail);
    long savings = (long) Math.max(0, typeBits - bitWidth) * tail;
    return paddingCost < savings;
  }

  private static void checkFits(int actualWidth, int bitWidth, int typeBits) {
    Checks.bitWidth(WHAT, bitWidth, typeBits);
    if (actualWidth > bitWidth) {
      throw new IllegalArgumentException(WHAT + ": values need " + actualWidth
          + " bits, more than the requested bit width " + bitWidth);
    }
  }

  // ---------------------------------------------------------------- encode

  /**
   * Packs {@code values[off, off+len)} (8-bit) at {@code bitWidth} bits.
   *
   * @throws IllegalArgumentException if {@code bitWidth} is not in 0..8 or some value needs more bits
   */
  public static byte[] encode(byte[] values, int off, int len, int bitWidth) {
    checkFits(FastLanes.bitWidth(values, off, len), bitWidth, 8);
    byte[] out = new byte[Checks.byteSize(WHAT, encodedBytes(8, bitWidth, len), 1)];
    int words = FastLanes.packedWords(8, bitWidth);
    int full = len / FastLanes.BLOCK;
    int tail = len % FastLanes.BLOCK;
    for (int c = 0; c < full; c++) {
      FastLanes.pack(bitWidth, values, off + c * FastLanes.BLOCK, out, c * words);
    }
    int tailOut = full * words;
    if (tail > 0) {
      if (packTail(8, bitWidth, tail)) {
        byte[] padded = new byte[FastLanes.BLOCK];
        System.arraycopy(values, off + full * FastLanes.BLOCK, padded, 0, tail);
        FastLanes.pack(bitWidth, padded, 0, out, tailOut);
      } else {
        System.arraycopy(values, off + full * FastLanes.BLOCK, out, tailOut, tail);
      }
    }
    return out;
  }

  /** As {@link #encode(byte[], int, int, int)}, for 16-bit values. */
  public static byte[] encode(short[] values, int off, int len, int bitWidth) {
    checkFits(FastLanes.bitWidth(values, off, len), bitWidth, 16);
    byte[] out = new byte[Checks.byteSize(WHAT, encodedBytes(16, bitWidth, len), 1)];
    ShortBuffer dst = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).asShortBuffer();
    int words = FastLanes.packedWords(16, bitWidth);
    short[] packed = new short[words];
    int full = len / FastLanes.BLOCK;
    int tail = len % FastLanes.BLOCK;
    for (int c = 0; c < full; c++) {
      FastLanes.pack(bitWidth, values, off + c * FastLanes.BLOCK, packed, 0);
      dst.put(packed);
    }
    if (tail > 0) {
      if (packTail(16, bitWidth, tail)) {
        short[] padded = new short[FastLanes.BLOCK];
        System.arraycopy(values, off + full * FastLanes.BLOCK, padded, 0, tail);
        FastLanes.pack(bitWidth, padded, 0, packed, 0);
        dst.put(packed);
      } else {
        dst.put(values, off + full * FastLanes.BLOCK, tail);
      }
    }
    return out;
  }

  /** As {@link #encode(byte[], int, int, int)}, for 32-bit values. */
  public static byte[] encode(int[] values, int off, int len, int bitWidth) {
    checkFits(FastLanes.bitWidth(values, off, len), bitWidth, 32);
    byte[] out = new byte[Checks.byteSize(WHAT, encodedBytes(32, bitWidth, len), 1)];
    IntBuffer dst = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
    int words = FastLanes.packedWords(32, bitWidth);
    int[] packed = new int[words];
    int full = len / FastLanes.BLOCK;
    int tail = len % FastLanes.BLOCK;
    for (int c = 0; c < full; c++) {
      FastLanes.pack(bitWidth, values, off + c * FastLanes.BLOCK, packed, 0);
      dst.put(packed);
    }
    if (tail > 0) {
      if (packTail(32, bitWidth, tail)) {
        int[] padded = new int[FastLanes.BLOCK];
        System.arraycopy(values, off + full * FastLanes.BLOCK, padded, 0, tail);
        FastLanes.pack(bitWidth, padded, 0, packed, 0);
        dst.put(packed);
      } else {
        dst.put(values, off + full * FastLanes.BLOCK, tail);
      }
    }
    return out;
  }

  /** As {@link #encode(byte[], int, int, int)}, for 64-bit values. */
  public static byte[] encode(long[] values, int off, int len, int bitWidth) {
    checkFits(FastLanes.bitWidth(values, off, len), bitWidth, 64);
    byte[] out = new byte[Checks.byteSize(WHAT, encodedBytes(64, bitWidth, len), 1)];
    LongBuffer dst = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
    int words = FastLanes.packedWords(64, bitWidth);
    long[] packed = new long[words];
    int full = len / FastLanes.BLOCK;
    int tail = len % FastLanes.BLOCK;
    for (int c = 0; c < full; c++) {
      FastLanes.pack(bitWidth, values, off + c * FastLanes.BLOCK, packed, 0);
      dst.put(packed);
    }
    if (tail > 0) {
      if (packTail(64, bitWidth, tail)) {
        long[] padded = new long[FastLanes.BLOCK];
        System.arraycopy(values, off + full * FastLanes.BLOCK, padded, 0, tail);
        FastLanes.pack(bitWidth, padded, 0, packed, 0);
        dst.put(packed);
      } else {
        dst.put(values, off + full * FastLanes.BLOCK, tail);
      }
    }
    return out;
  }

  // ---------------------------------------------------------------- decode

  /**
   * Checks the buffer size against the value count and tells whether the tail is raw.
   *
   * @return true when the last {@code numValues % 1024} values are stored raw
   */
  private static boolean checkLayout(ByteBuffer in, int numValues, int bitWidth, int typeBits) {
    Checks.count(WHAT, numValues);
    Checks.bitWidth(WHAT, bitWidth, typeBits);
    int wordBytes = typeBits / 8;
    int size = in.remaining();
    if (size % wordBytes != 0) {
      throw new IllegalArgumentException(WHAT + ": buffer of " + size + " bytes is not a whole number of "
          + typeBits + "-bit words");
    }
    long words = size / wordBytes;
    int perBlock = FastLanes.packedWords(typeBits, bitWidth);
    long full = (long) (numValues / FastLanes.BLOCK) * perBlock;
    int tail = numValues % FastLanes.BLOCK;
    if (tail == 0) {
      if (words != full) {
        throw new IllegalArgumentException(WHAT + ": " + numValues + " values at " + bitWidth
            + " bits need " + full * wordBytes + " bytes, got " + size);
      }
      return false;
    }
    if (words == full + tail) {
      return true;
    }
    if (words == full + perBlock) {
      return false;
    }
    throw new IllegalArgumentException(WHAT + ": " + numValues + " values at " + bitWidth + " bits need "
        + (full + perBlock) * wordBytes + " bytes (packed tail) or " + (full + tail) * wordBytes
        + " bytes (raw tail), got " + size);
  }

  /**
   * Decodes {@code numValues} 8-bit values packed at {@code bitWidth} bits into
   * {@code out[outOff, outOff+numValues)}.
   *
   * @param in exactly the buffer's bytes, from position to limit (not moved)
   * @throws IllegalArgumentException if the buffer size does not match {@code numValues} and
   *     {@code bitWidth}, or {@code bitWidth} is not in 0..8, or {@code out} is too small
   */
  public static void decode(ByteBuffer in, int numValues, int bitWidth, byte[] out, int outOff) {
    boolean rawTail = checkLayout(in, numValues, bitWidth, 8);
    Checks.range(WHAT + " output", out.length, outOff, numValues);
    ByteBuffer src = Checks.le(in);
    int words = FastLanes.packedWords(8, bitWidth);
    byte[] packed = new byte[words];
    int full = numValues / FastLanes.BLOCK;
    int tail = numValues % FastLanes.BLOCK;
    for (int c = 0; c < full; c++) {
      src.get(packed);
      FastLanes.unpack(bitWidth, packed, 0, out, outOff + c * FastLanes.BLOCK);
    }
    if (tail > 0) {
      if (rawTail) {
        src.get(out, outOff + full * FastLanes.BLOCK, tail);
      } else {
        byte[] tmp = new byte[FastLanes.BLOCK];
        src.get(packed);
        FastLanes.unpack(bitWidth, packed, 0, tmp, 0);
        System.arraycopy(tmp, 0, out, outOff + full * FastLanes.BLOCK, tail);
      }
    }
  }

  /** As {@link #decode(ByteBuffer, int, int, byte[], int)}, for 16-bit values. */
  public static void decode(ByteBuffer in, int numValues, int bitWidth, short[] out, int outOff) {
    boolean rawTail = checkLayout(in, numValues, bitWidth, 16);
    Checks.range(WHAT + " output", out.length, outOff, numValues);
    ShortBuffer src = Checks.le(in).asShortBuffer();
    int words = FastLanes.packedWords(16, bitWidth);
    short[] packed = new short[words];
    int full = numValues / FastLanes.BLOCK;
    int tail = numValues % FastLanes.BLOCK;
    for (int c = 0; c < full; c++) {
      src.get(packed);
      FastLanes.unpack(bitWidth, packed, 0, out, outOff + c * FastLanes.BLOCK);
    }
    if (tail > 0) {
      if (rawTail) {
        src.get(out, outOff + full * FastLanes.BLOCK, tail);
      } else {
        short[] tmp = new short[FastLanes.BLOCK];
        src.get(packed);
        FastLanes.unpack(bitWidth, packed, 0, tmp, 0);
        System.arraycopy(tmp, 0, out, outOff + full * FastLanes.BLOCK, tail);
      }
    }
  }

  /** As {@link #decode(ByteBuffer, int, int, byte[], int)}, for 32-bit values. */
  public static void decode(ByteBuffer in, int numValues, int bitWidth, int[] out, int outOff) {
    boolean rawTail = checkLayout(in, numValues, bitWidth, 32);
    Checks.range(WHAT + " output", out.length, outOff, numValues);
    IntBuffer src = Checks.le(in).asIntBuffer();
    int words = FastLanes.packedWords(32, bitWidth);
    int[] packed = new int[words];
    int full = numValues / FastLanes.BLOCK;
    int tail = numValues % FastLanes.BLOCK;
    for (int c = 0; c < full; c++) {
      src.get(packed);
      FastLanes.unpack(bitWidth, packed, 0, out, outOff + c * FastLanes.BLOCK);
    }
    if (tail > 0) {
      if (rawTail) {
        src.get(out, outOff + full * FastLanes.BLOCK, tail);
      } else {
        int[] tmp = new int[FastLanes.BLOCK];
        src.get(packed);
        FastLanes.unpack(bitWidth, packed, 0, tmp, 0);
        System.arraycopy(tmp, 0, out, outOff + full * FastLanes.BLOCK, tail);
      }
    }
  }

  /** As {@link #decode(ByteBuffer, int, int, byte[], int)}, for 64-bit values. */
  public static void decode(ByteBuffer in, int numValues, int bitWidth, long[] out, int outOff) {
    boolean rawTail = checkLayout(in, numValues, bitWidth, 64);
    Checks.range(WHAT + " output", out.length, outOff, numValues);
    LongBuffer src = Checks.le(in).asLongBuffer();
    int words = FastLanes.packedWords(64, bitWidth);
    long[] packed = new long[words];
    int full = numValues / FastLanes.BLOCK;
    int tail = numValues % FastLanes.BLOCK;
    for (int c = 0; c < full; c++) {
      src.get(packed);
      FastLanes.unpack(bitWidth, packed, 0, out, outOff + c * FastLanes.BLOCK);
    }
    if (tail > 0) {
      if (rawTail) {
        src.get(out, outOff + full * FastLanes.BLOCK, tail);
      } else {
        long[] tmp = new long[FastLanes.BLOCK];
        src.get(packed);
        FastLanes.unpack(bitWidth, packed, 0, tmp, 0);
        System.arraycopy(tmp, 0, out, outOff + full * FastLanes.BLOCK, tail);
      }
    }
  }

  /**
   * Decodes {@code numValues} values of {@code bitsPerValue} bits packed at {@code bitWidth} bits as
   * little-endian bytes into {@code out} at its position, advancing it by
   * {@code numValues * bitsPerValue / 8}.
   *
   * @throws IllegalArgumentException as the typed overloads, or if {@code bitsPerValue} is not
   *     8/16/32/64 or {@code out} is too small
   */
  public static void decode(ByteBuffer in, int numValues, int bitWidth, int bitsPerValue, ByteBuffer out) {
    int bytes = Checks.valueBytes(WHAT, bitsPerValue);
    Checks.count(WHAT, numValues);
    Checks.room(WHAT, out, (long) numValues * bytes);
    checkLayout(in, numValues, bitWidth, bitsPerValue);
    ByteBuffer dst = Checks.le(out);
    switch (bitsPerValue) {
      case 8: {
        byte[] v = new byte[numValues];
        decode(in, numValues, bitWidth, v, 0);
        dst.put(v);
        break;
      }
      case 16: {
        short[] v = new short[numValues];
        decode(in, numValues, bitWidth, v, 0);
        dst.asShortBuffer().put(v);
        break;
      }
      case 32: {
        int[] v = new int[numValues];
        decode(in, numValues, bitWidth, v, 0);
        dst.asIntBuffer().put(v);
        break;
      }
      default: {
        long[] v = new long[numValues];
        decode(in, numValues, bitWidth, v, 0);
        dst.asLongBuffer().put(v);
        break;
      }
    }
    out.position(out.position() + numValues * bytes);
  }
}
