package dev.javelin.format.internal.compression.bitpack;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The FastLanes bit-packing kernel as Lance uses it ({@code lance-bitpacking}): packs and unpacks blocks
 * of exactly {@value #BLOCK} unsigned values of {@code T} = 8, 16, 32 or 64 bits into {@code W} bits
 * each, for every {@code W} in {@code 0..T}.
 *
 * <h2>Layout</h2>
 * A block is viewed as {@code LANES = 1024 / T} lanes of {@code T} rows. Row {@code r} of lane {@code l}
 * is the input value at index {@code FL_ORDER[r / 8] * 16 + (r % 8) * 128 + l}, with
 * {@code FL_ORDER = {0, 4, 2, 6, 1, 5, 3, 7}}. Each lane packs its {@code T} values, row 0 first, into
 * {@code W} consecutive {@code T}-bit words, least significant bits first; a value that does not fit
 * the rest of a word continues in the low bits of the lane's next word. Word {@code k} of lane {@code l}
 * is stored at packed index {@code LANES * k + l}, so a block packs into exactly
 * {@code 1024 * W / T} words (none for {@code W = 0}; a transposed copy for {@code W = T}). Packing keeps
 * only the low {@code W} bits of each value; unpacking zero-extends.
 *
 * <p>Both loops run lane-innermost over contiguous array slices, which the JIT can vectorise.
 * Input and output arrays must not overlap.
 */
public final class FastLanes {
  /** The number of values in one block. */
  public static final int BLOCK = 1024;

  // The row order that lets a SIMD register hold 8 rows of all lanes (see the FastLanes paper).
  private static final int[] FL_ORDER = {0, 4, 2, 6, 1, 5, 3, 7};

  private FastLanes() {}

  // Per lane count (64-bit: 16 lanes, 32-bit: 32 lanes): unpacked index -> row * 1024 + lane, the
  // inverse of rowBase(row) + lane, so one value can be read without unpacking its block.
  private static final int[] WHERE_64 = where(16);
  private static final int[] WHERE_32 = where(32);

  private static int[] where(int lanes) {
    int[] out = new int[BLOCK];
    for (int row = 0; row < BLOCK / lanes; row++) {
      for (int l = 0; l < lanes; l++) {
        out[rowBase(row) + l] = row * BLOCK + l;
      }
    }
    return out;
  }

  private static final VarHandle LE_LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LE_INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  /**
   * Value {@code index} (0..1023, in unpacked order) of a block of 64-bit values packed at
   * {@code bitWidth} bits whose little-endian packed words start at {@code src[from]}; reads at
   * most two words. The caller checks that the block's {@code 16 * bitWidth} words are in range.
   */
  public static long unpackOne64(byte[] src, int from, int bitWidth, int index) {
    if (bitWidth == 0) {
      return 0L;
    }
    int w = WHERE_64[index];
    int row = w >>> 10;
    int lane = w & (BLOCK - 1);
    int bit = row * bitWidth;
    int shift = bit & 63;
    int word = 16 * (bit >>> 6) + lane;
    long v = (long) LE_LONGS.get(src, from + 8 * word) >>> shift;
    if (shift + bitWidth > 64) {
      v |= (long) LE_LONGS.get(src, from + 8 * (word + 16)) << (64 - shift);
    }
    return bitWidth == 64 ? v : v & ((1L << bitWidth) - 1);
  }

  /**
   * The byte offset, from the start of a block's packed words, of the first word that
   * {@link #unpackOne64} (64-bit values) or {@link #unpackOne32} (32-bit values) reads for value
   * {@code index}; 0 for width 0. Lets a reader touch many values' memory before decoding them.
   */
  public static int byteOfOne(int typeBits, int bitWidth, int index) {
    if (bitWidth == 0) {
      return 0;
    }
    int w = typeBits == 64 ? WHERE_64[index] : WHERE_32[index];
    int row = w >>> 10;
    int lane = w & (BLOCK - 1);
    int bit = row * bitWidth;
    int word = (BLOCK / typeBits) * (bit / typeBits) + lane;
    return word * (typeBits / 8);
  }

  /** As {@link #unpackOne64} for a block of 32-bit values (32 lanes). */
  public static int unpackOne32(byte[] src, int from, int bitWidth, int index) {
    if (bitWidth == 0) {
      return 0;
    }
    int w = WHERE_32[index];
    int row = w >>> 10;
    int lane = w & (BLOCK - 1);
    int bit = row * bitWidth;
    int shift = bit & 31;
    int word = 32 * (bit >>> 5) + lane;
    int v = (int) LE_INTS.get(src, from + 4 * word) >>> shift;
    if (shift + bitWidth > 32) {
      v |= (int) LE_INTS.get(src, from + 4 * (word + 32)) << (32 - shift);
    }
    return bitWidth == 32 ? v : v & ((1 << bitWidth) - 1);
  }

  /**
   * As {@link #unpackOne64(byte[], int, int, int)}, reading the packed words (little-endian) from
   * a buffer at absolute byte offset {@code from}, for buffers with no array (mapped files).
   */
  public static long unpackOne64(ByteBuffer src, int from, int bitWidth, int index) {
    if (bitWidth == 0) {
      return 0L;
    }
    int w = WHERE_64[index];
    int row = w >>> 10;
    int lane = w & (BLOCK - 1);
    int bit = row * bitWidth;
    int shift = bit & 63;
    int word = 16 * (bit >>> 6) + lane;
    long v = src.getLong(from + 8 * word) >>> shift;
    if (shift + bitWidth > 64) {
      v |= src.getLong(from + 8 * (word + 16)) << (64 - shift);
    }
    return bitWidth == 64 ? v : v & ((1L << bitWidth) - 1);
  }

  /** As {@link #unpackOne32(byte[], int, int, int)}, from a little-endian buffer. */
  public static int unpackOne32(ByteBuffer src, int from, int bitWidth, int index) {
    if (bitWidth == 0) {
      return 0;
    }
    int w = WHERE_32[index];
    int row = w >>> 10;
    int lane = w & (BLOCK - 1);
    int bit = row * bitWidth;
    int shift = bit & 31;
    int word = 32 * (bit >>> 5) + lane;
    int v = src.getInt(from + 4 * word) >>> shift;
    if (shift + bitWidth > 32) {
      v |= src.getInt(from + 4 * (word + 32)) << (32 - shift);
    }
    return bitWidth == 32 ? v : v & ((1 << bitWidth) - 1);
  }

  /**
   * The number of {@code typeBits}-bit words that one block of {@value #BLOCK} values packs into at
   * {@code bitWidth} bits per value: {@code 1024 * bitWidth / typeBits}.
   *
   * @throws IllegalArgumentException if {@code typeBits} is not 8, 16, 32 or 64, or {@code bitWidth} is
   *     not in {@code 0..typeBits}
   */
  public static int packedWords(int typeBits, int bitWidth) {
    Checks.valueBytes("FastLanes", typeBits);
    Checks.bitWidth("FastLanes", bitWidth, typeBits);
    return BLOCK / typeBits * bitWidth;
  }

  // Index of the first value of row `row` (lane 0) in the unpacked block.
  private static int rowBase(int row) {
    return FL_ORDER[row >>> 3] * 16 + (row & 7) * 128;
  }

  private static void check(int typeBits, int bitWidth, int inLength, int inOff, int inLen,
      int outLength, int outOff, int outLen) {
    Checks.bitWidth("FastLanes", bitWidth, typeBits);
    Checks.range("FastLanes input", inLength, inOff, inLen);
    Checks.range("FastLanes output", outLength, outOff, outLen);
  }

  // ---------------------------------------------------------------- widths

  /** The number of bits needed to hold every value of {@code values[off, off+len)} as unsigned. */
  public static int bitWidth(byte[] values, int off, int len) {
    Checks.range("bitWidth", values.length, off, len);
    int or = 0;
    for (int i = off; i < off + len; i++) {
      or |= values[i];
    }
    return 32 - Integer.numberOfLeadingZeros(or & 0xFF);
  }

  /** The number of bits needed to hold every value of {@code values[off, off+len)} as unsigned. */
  public static int bitWidth(short[] values, int off, int len) {
    Checks.range("bitWidth", values.length, off, len);
    int or = 0;
    for (int i = off; i < off + len; i++) {
      or |= values[i];
    }
    return 32 - Integer.numberOfLeadingZeros(or & 0xFFFF);
  }

  /** The number of bits needed to hold every value of {@code values[off, off+len)} as unsigned. */
  public static int bitWidth(int[] values, int off, int len) {
    Checks.range("bitWidth", values.length, off, len);
    int or = 0;
    for (int i = off; i < off + len; i++) {
      or |= values[i];
    }
    return 32 - Integer.numberOfLeadingZeros(or);
  }

  /** The number of bits needed to hold every value of {@code values[off, off+len)} as unsigned. */
  public static int bitWidth(long[] values, int off, int len) {
    Checks.range("bitWidth", values.length, off, len);
    long or = 0;
    for (int i = off; i < off + len; i++) {
      or |= values[i];
    }
    return 64 - Long.numberOfLeadingZeros(or);
  }

  // ---------------------------------------------------------------- 8-bit lanes

  /**
   * Packs {@code in[inOff, inOff+1024)} into {@code out[outOff, outOff + 128 * bitWidth)}.
   *
   * @throws IllegalArgumentException if {@code bitWidth} is not in {@code 0..8} or a range does not fit
   */
  public static void pack(int bitWidth, byte[] in, int inOff, byte[] out, int outOff) {
    final int t = 8;
    final int lanes = BLOCK / t;
    check(t, bitWidth, in.length, inOff, BLOCK, out.length, outOff, lanes * bitWidth);
    if (bitWidth == 0) {
      return;
    }
    if (bitWidth == t) {
      for (int row = 0; row < t; row++) {
        System.arraycopy(in, inOff + rowBase(row), out, outOff + lanes * row, lanes);
      }
      return;
    }
    final int mask = (1 << bitWidth) - 1;
    for (int row = 0; row < t; row++) {
      int bit = row * bitWidth;
      int shift = bit % t;
      int src = inOff + rowBase(row);
      int dst = outOff + lanes * (bit / t);
      if (shift == 0) {
        for (int l = 0; l < lanes; l++) {
          out[dst + l] = (byte) (in[src + l] & mask);
        }
      } else {
        for (int l = 0; l < lanes; l++) {
          out[dst + l] = (byte) (out[dst + l] | ((in[src + l] & mask) << shift));
        }
      }
      int spill = shift + bitWidth - t;
      if (spill > 0) {
        // The high bits start the lane's next word; that word has no other bits yet.
        int low = bitWidth - spill;
        int dst2 = dst + lanes;
        for (int l = 0; l < lanes; l++) {
          out[dst2 + l] = (byte) ((in[src + l] & mask) >>> low);
        }
      }
    }
  }

  /**
   * Unpacks {@code in[inOff, inOff + 128 * bitWidth)} into {@code out[outOff, outOff+1024)}.
   *
   * @throws IllegalArgumentException if {@code bitWidth} is not in {@code 0..8} or a range does not fit
   */
  public static void unpack(int bitWidth, byte[] in, int inOff, byte[] out, int outOff) {
    final int t = 8;
    final int lanes = BLOCK / t;
    check(t, bitWidth, in.length, inOff, lanes * bitWidth, out.length, outOff, BLOCK);
    if (bitWidth == 0) {
      Arrays.fill(out, outOff, outOff + BLOCK, (byte) 0);
      return;
    }
    if (bitWidth == t) {
      for (int row = 0; row < t; row++) {
        System.arraycopy(in, inOff + lanes * row, out, outOff + rowBase(row), lanes);
      }
      return;
    }
    final int mask = (1 << bitWidth) - 1;
    for (int row = 0; row < t; row++) {
      int bit = row * bitWidth;
      int shift = bit % t;
      int src = inOff + lanes * (bit / t);
      int dst = outOff + rowBase(row);
      if (shift + bitWidth <= t) {
        for (int l = 0; l < lanes; l++) {
          out[dst + l] = (byte) (((in[src + l] & 0xFF) >>> shift) & mask);
        }
      } else {
        int low = t - shift;
        int src2 = src + lanes;
        for (int l = 0; l < lanes; l++) {
          out[dst + l] = (byte) ((((in[src + l] & 0xFF) >>> shift) | ((in[src2 + l] & 0xFF) << low)) & mask);
        }
      }
    }
  }

  // ---------------------------------------------------------------- 16-bit lanes

  /**
   * Packs {@code in[inOff, inOff+1024)} into {@code out[outOff, outOff + 64 * bitWidth)}.
   *
   * @throws IllegalArgumentException if {@code bitWidth} is not in {@code 0..16} or a range does not fit
   */
  public static void pack(int bitWidth, short[] in, int inOff, short[] out, int outOff) {
    final int t = 16;
    final int lanes = BLOCK / t;
    check(t, bitWidth, in.length, inOff, BLOCK, out.length, outOff, lanes * bitWidth);
    if (bitWidth == 0) {
      return;
    }
    if (bitWidth == t) {
      for (int row = 0; row < t; row++) {
        System.arraycopy(in, inOff + rowBase(row), out, outOff + lanes * row, lanes);
      }
      return;
    }
    final int mask = (1 << bitWidth) - 1;
    for (int row = 0; row < t; row++) {
      int bit = row * bitWidth;
      int shift = bit % t;
      int src = inOff + rowBase(row);
      int dst = outOff + lanes * (bit / t);
      if (shift == 0) {
        for (int l = 0; l < lanes; l++) {
          out[dst + l] = (short) (in[src + l] & mask);
        }
      } else {
        for (int l = 0; l < lanes; l++) {
          out[dst + l] = (short) (out[dst + l] | ((in[src + l] & mask) << shift));
        }
      }
      int spill = shift + bitWidth - t;
      if (spill > 0) {
        int low = bitWidth - spill;
        int dst2 = dst + lanes;
        for (int l = 0; l < lanes; l++) {
          out[dst2 + l] = (short) ((in[src + l] & mask) >>> low);
        }
      }
    }
  }

  /**
   * Unpacks {@code in[inOff, inOff + 64 * bitWidth)} into {@code out[outOff, outOff+1024)}.
   *
   * @throws IllegalArgumentException if {@code bitWidth} is not in {@code 0..16} or a range does not fit
   */
  public static void unpack(int bitWidth, short[] in, int inOff, short[] out, int outOff) {
    final int t = 16;
    final int lanes = BLOCK / t;
    check(t, bitWidth, in.length, inOff, lanes * bitWidth, out.length, outOff, BLOCK);
    if (bitWidth == 0) {
      Arrays.fill(out, outOff, outOff + BLOCK, (short) 0);
      return;
    }
    if (bitWidth == t) {
      for (int row = 0; row < t; row++) {
        System.arraycopy(in, inOff + lanes * row, out, outOff + rowBase(row), lanes);
      }
      return;
    }
    final int mask = (1 << bitWidth) - 1;
    for (int row = 0; row < t; row++) {
      int bit = row * bitWidth;
      int shift = bit % t;
      int src = inOff + lanes * (bit / t);
      int dst = outOff + rowBase(row);
      if (shift + bitWidth <= t) {
        for (int l = 0; l < lanes; l++) {
          out[dst + l] = (short) (((in[src + l] & 0xFFFF) >>> shift) & mask);
        }
      } else {
        int low = t - shift;
        int src2 = src + lanes;
        for (int l = 0; l < lanes; l++) {
          out[dst + l] = (short) ((((in[src + l] & 0xFFFF) >>> shift) | ((in[src2 + l] & 0xFFFF) << low)) & mask);
        }
      }
    }
  }

  // ---------------------------------------------------------------- 32-bit lanes

  /**
   * Packs {@code in[inOff, inOff+1024)} into {@code out[outOff, outOff + 32 * bitWidth)}.
   *
   * @throws IllegalArgumentException if {@code bitWidth} is not in {@code 0..32} or a range does not fit
   */
  public static void pack(int bitWidth, int[] in, int inOff, int[] out, int outOff) {
    final int t = 32;
    final int lanes = BLOCK / t;
    check(t, bitWidth, in.length, inOff, BLOCK, out.length, outOff, lanes * bitWidth);
    if (bitWidth == 0) {
      return;
    }
    if (bitWidth == t) {
      for (int row = 0; row < t; row++) {
        System.arraycopy(in, inOff + rowBase(row), out, outOff + lanes * row, lanes);
      }
      return;
    }
    final int mask = (1 << bitWidth) - 1;
    for (int row = 0; row < t; row++) {
      int bit = row * bitWidth;
      int shift = bit & (t - 1);
      int src = inOff + rowBase(row);
      int dst = outOff + lanes * (bit >>> 5);
      if (shift == 0) {
        for (int l = 0; l < lanes; l++) {
          out[dst + l] = in[src + l] & mask;
        }
      } else {
        for (int l = 0; l < lanes; l++) {
          out[dst + l] |= (in[src + l] & mask) << shift;
        }
      }
      int spill = shift + bitWidth - t;
      if (spill > 0) {
        int low = bitWidth - spill;
        int dst2 = dst + lanes;
        for (int l = 0; l < lanes; l++) {
          out[dst2 + l] = (in[src + l] & mask) >>> low;
        }
      }
    }
  }

  /**
   * Unpacks {@code in[inOff, inOff + 32 * bitWidth)} into {@code out[outOff, outOff+1024)}.
   *
   * @throws IllegalArgumentException if {@code bitWidth} is not in {@code 0..32} or a range does not fit
   */
  public static void unpack(int bitWidth, int[] in, int inOff, int[] out, int outOff) {
    final int t = 32;
    final int lanes = BLOCK / t;
    check(t, bitWidth, in.length, inOff, lanes * bitWidth, out.length, outOff, BLOCK);
    if (bitWidth == 0) {
      Arrays.fill(out, outOff, outOff + BLOCK, 0);
      return;
    }
    if (bitWidth == t) {
      for (int row = 0; row < t; row++) {
        System.arraycopy(in, inOff + lanes * row, out, outOff + rowBase(row), lanes);
      }
      return;
    }
    final int mask = (1 << bitWidth) - 1;
    for (int row = 0; row < t; row++) {
      int bit = row * bitWidth;
      int shift = bit & (t - 1);
      int src = inOff + lanes * (bit >>> 5);
      int dst = outOff + rowBase(row);
      if (shift + bitWidth <= t) {
        for (int l = 0; l < lanes; l++) {
          out[dst + l] = (in[src + l] >>> shift) & mask;
        }
      } else {
        int low = t - shift;
        int src2 = src + lanes;
        for (int l = 0; l < lanes; l++) {
          out[dst + l] = ((in[src + l] >>> shift) | (in[src2 + l] << low)) & mask;
        }
      }
    }
  }

  // ---------------------------------------------------------------- 64-bit lanes

  /**
   * Packs {@code in[inOff, inOff+1024)} into {@code out[outOff, outOff + 16 * bitWidth)}.
   *
   * @throws IllegalArgumentException if {@code bitWidth} is not in {@code 0..64} or a range does not fit
   */
  public static void pack(int bitWidth, long[] in, int inOff, long[] out, int outOff) {
    final int t = 64;
    final int lanes = BLOCK / t;
    check(t, bitWidth, in.length, inOff, BLOCK, out.length, outOff, lanes * bitWidth);
    if (bitWidth == 0) {
      return;
    }
    if (bitWidth == t) {
      for (int row = 0; row < t; row++) {
        System.arraycopy(in, inOff + rowBase(row), out, outOff + lanes * row, lanes);
      }
      return;
    }
    final long mask = (1L << bitWidth) - 1;
    for (int row = 0; row < t; row++) {
      int bit = row * bitWidth;
      int shift = bit & (t - 1);
      int src = inOff + rowBase(row);
      int dst = outOff + lanes * (bit >>> 6);
      if (shift == 0) {
        for (int l = 0; l < lanes; l++) {
          out[dst + l] = in[src + l] & mask;
        }
      } else {
        for (int l = 0; l < lanes; l++) {
          out[dst + l] |= (in[src + l] & mask) << shift;
        }
      }
      int spill = shift + bitWidth - t;
      if (spill > 0) {
        int low = bitWidth - spill;
        int dst2 = dst + lanes;
        for (int l = 0; l < lanes; l++) {
          out[dst2 + l] = (in[src + l] & mask) >>> low;
        }
      }
    }
  }

  /**
   * Unpacks {@code in[inOff, inOff + 16 * bitWidth)} into {@code out[outOff, outOff+1024)}.
   *
   * @throws IllegalArgumentException if {@code bitWidth} is not in {@code 0..64} or a range does not fit
   */
  public static void unpack(int bitWidth, long[] in, int inOff, long[] out, int outOff) {
    final int t = 64;
    final int lanes = BLOCK / t;
    check(t, bitWidth, in.length, inOff, lanes * bitWidth, out.length, outOff, BLOCK);
    if (bitWidth == 0) {
      Arrays.fill(out, outOff, outOff + BLOCK, 0L);
      return;
    }
    if (bitWidth == t) {
      for (int row = 0; row < t; row++) {
        System.arraycopy(in, inOff + lanes * row, out, outOff + rowBase(row), lanes);
      }
      return;
    }
    final long mask = (1L << bitWidth) - 1;
    for (int row = 0; row < t; row++) {
      int bit = row * bitWidth;
      int shift = bit & (t - 1);
      int src = inOff + lanes * (bit >>> 6);
      int dst = outOff + rowBase(row);
      if (shift + bitWidth <= t) {
        for (int l = 0; l < lanes; l++) {
          out[dst + l] = (in[src + l] >>> shift) & mask;
        }
      } else {
        int low = t - shift;
        int src2 = src + lanes;
        for (int l = 0; l < lanes; l++) {
          out[dst + l] = ((in[src + l] >>> shift) | (in[src2 + l] << low)) & mask;
        }
      }
    }
  }
}
