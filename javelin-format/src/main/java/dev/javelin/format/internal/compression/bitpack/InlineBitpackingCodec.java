package dev.javelin.format.internal.compression.bitpack;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.Arrays;

/**
 * Lance 2.1 {@code InlineBitpacking}: values are cut into chunks of {@value FastLanes#BLOCK}, and each
 * chunk carries its own bit width in front of its FastLanes-packed block.
 *
 * <h2>Chunk layout (checked against lance-core 7.0.0)</h2>
 * For {@code T}-bit values ({@code uncompressed_bits_per_value} = 8, 16, 32 or 64 in the description):
 * <ol>
 *   <li>one {@code T}-bit little-endian word holding the bit width {@code W} (0..T), chosen per chunk as
 *       the unsigned bit length of the OR of the chunk's values;</li>
 *   <li>{@code 1024 * W / T} {@code T}-bit little-endian words: the {@link FastLanes} packing of the
 *       chunk.</li>
 * </ol>
 * A chunk is thus {@code (1 + 1024 * W / T) * T / 8} bytes. The last chunk of a page may hold fewer than
 * 1024 values: it is padded with zeros to 1024 before packing, so every chunk is a whole block.
 *
 * <h2>Where Lance uses it</h2>
 * <ul>
 *   <li>Mini-block values: one mini-block chunk per 1024-value chunk, with log2 value count 10, and 0
 *       for the last chunk ({@link #encode(int[], int, int)}; decode each with
 *       {@link #decodeChunk(ByteBuffer, int, int[], int)}).</li>
 *   <li>Block compression (mini-block rep/def levels per chunk, dictionaries) when the block holds at
 *       most 1024 values: the block is exactly one chunk, so the same {@code decodeChunk} reads it.</li>
 * </ul>
 */
public final class InlineBitpackingCodec {
  private static final String WHAT = "inline bitpacking";

  private InlineBitpackingCodec() {}

  /** The byte size of a chunk of {@code typeBits}-bit values packed at {@code bitWidth} bits. */
  public static int chunkBytes(int typeBits, int bitWidth) {
    return (1 + FastLanes.packedWords(typeBits, bitWidth)) * (typeBits / 8);
  }

  // ---------------------------------------------------------------- encode

  /** Encodes {@code values[off, off+len)} as 8-bit inline-bitpacked mini-block chunks (one buffer). */
  public static MiniBlockChunks encode(byte[] values, int off, int len) {
    Checks.range(WHAT, values.length, off, len);
    int n = numChunks(len);
    int[] widths = new int[n];
    long total = 0;
    for (int c = 0; c < n; c++) {
      widths[c] = FastLanes.bitWidth(values, off + c * FastLanes.BLOCK, chunkLen(len, c));
      total += chunkBytes(8, widths[c]);
    }
    byte[] data = new byte[Checks.byteSize(WHAT, total, 1)];
    byte[] padded = new byte[FastLanes.BLOCK];
    int pos = 0;
    for (int c = 0; c < n; c++) {
      int w = widths[c];
      data[pos++] = (byte) w;
      int m = chunkLen(len, c);
      if (m == FastLanes.BLOCK) {
        FastLanes.pack(w, values, off + c * FastLanes.BLOCK, data, pos);
      } else {
        System.arraycopy(values, off + c * FastLanes.BLOCK, padded, 0, m);
        FastLanes.pack(w, padded, 0, data, pos);
      }
      pos += FastLanes.packedWords(8, w);
    }
    return chunks(data, widths, 8, len);
  }

  /** Encodes {@code values[off, off+len)} as 16-bit inline-bitpacked mini-block chunks (one buffer). */
  public static MiniBlockChunks encode(short[] values, int off, int len) {
    Checks.range(WHAT, values.length, off, len);
    int n = numChunks(len);
    int[] widths = new int[n];
    long total = 0;
    for (int c = 0; c < n; c++) {
      widths[c] = FastLanes.bitWidth(values, off + c * FastLanes.BLOCK, chunkLen(len, c));
      total += chunkBytes(16, widths[c]);
    }
    byte[] data = new byte[Checks.byteSize(WHAT, total, 1)];
    ShortBuffer dst = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).asShortBuffer();
    short[] padded = new short[FastLanes.BLOCK];
    short[] packed = new short[FastLanes.BLOCK];
    for (int c = 0; c < n; c++) {
      int w = widths[c];
      dst.put((short) w);
      int m = chunkLen(len, c);
      if (m == FastLanes.BLOCK) {
        FastLanes.pack(w, values, off + c * FastLanes.BLOCK, packed, 0);
      } else {
        System.arraycopy(values, off + c * FastLanes.BLOCK, padded, 0, m);
        FastLanes.pack(w, padded, 0, packed, 0);
      }
      dst.put(packed, 0, FastLanes.packedWords(16, w));
    }
    return chunks(data, widths, 16, len);
  }

  /** Encodes {@code values[off, off+len)} as 32-bit inline-bitpacked mini-block chunks (one buffer). */
  public static MiniBlockChunks encode(int[] values, int off, int len) {
    Checks.range(WHAT, values.length, off, len);
    int n = numChunks(len);
    int[] widths = new int[n];
    long total = 0;
    for (int c = 0; c < n; c++) {
      widths[c] = FastLanes.bitWidth(values, off + c * FastLanes.BLOCK, chunkLen(len, c));
      total += chunkBytes(32, widths[c]);
    }
    byte[] data = new byte[Checks.byteSize(WHAT, total, 1)];
    IntBuffer dst = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
    int[] padded = new int[FastLanes.BLOCK];
    int[] packed = new int[FastLanes.BLOCK];
    for (int c = 0; c < n; c++) {
      int w = widths[c];
      dst.put(w);
      int m = chunkLen(len, c);
      if (m == FastLanes.BLOCK) {
        FastLanes.pack(w, values, off + c * FastLanes.BLOCK, packed, 0);
      } else {
        System.arraycopy(values, off + c * FastLanes.BLOCK, padded, 0, m);
        FastLanes.pack(w, padded, 0, packed, 0);
      }
      dst.put(packed, 0, FastLanes.packedWords(32, w));
    }
    return chunks(data, widths, 32, len);
  }

  /** Encodes {@code values[off, off+len)} as 64-bit inline-bitpacked mini-block chunks (one buffer). */
  public static MiniBlockChunks encode(long[] values, int off, int len) {
    Checks.range(WHAT, values.length, off, len);
    int n = numChunks(len);
    int[] widths = new int[n];
    long total = 0;
    for (int c = 0; c < n; c++) {
      widths[c] = FastLanes.bitWidth(values, off + c * FastLanes.BLOCK, chunkLen(len, c));
      total += chunkBytes(64, widths[c]);
    }
    byte[] data = new byte[Checks.byteSize(WHAT, total, 1)];
    LongBuffer dst = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
    long[] padded = new long[FastLanes.BLOCK];
    long[] packed = new long[FastLanes.BLOCK];
    for (int c = 0; c < n; c++) {
      int w = widths[c];
      dst.put(w);
      int m = chunkLen(len, c);
      if (m == FastLanes.BLOCK) {
        FastLanes.pack(w, values, off + c * FastLanes.BLOCK, packed, 0);
      } else {
        System.arraycopy(values, off + c * FastLanes.BLOCK, padded, 0, m);
        FastLanes.pack(w, padded, 0, packed, 0);
      }
      dst.put(packed, 0, FastLanes.packedWords(64, w));
    }
    return chunks(data, widths, 64, len);
  }

  /**
   * As {@link #encode(long[], int, int)} for {@code len} 64-bit values stored little-endian from
   * byte 0 of {@code le}, with the bit width of each chunk already computed by the caller (it
   * chose this encoding by them): the page is packed chunk by chunk, never copied whole into a
   * {@code long[]}.
   *
   * @throws IllegalArgumentException if {@code le} is too short or a width is not its chunk's
   */
  public static MiniBlockChunks encode64(byte[] le, int len, int[] widths) {
    Checks.range(WHAT, le.length / 8, 0, len);
    int n = numChunks(len);
    checkWidths(widths, n, 64);
    long total = 0;
    for (int c = 0; c < n; c++) {
      total += chunkBytes(64, widths[c]);
    }
    byte[] data = new byte[Checks.byteSize(WHAT, total, 1)];
    LongBuffer src = ByteBuffer.wrap(le).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
    LongBuffer dst = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
    long[] block = new long[FastLanes.BLOCK];
    long[] packed = new long[FastLanes.BLOCK];
    for (int c = 0; c < n; c++) {
      int m = chunkLen(len, c);
      src.get(c * FastLanes.BLOCK, block, 0, m);
      Arrays.fill(block, m, FastLanes.BLOCK, 0L);
      int w = widths[c];
      int need = FastLanes.bitWidth(block, 0, m);
      if (need != w) {
        throw new IllegalArgumentException("Chunk " + c + " needs " + need + " bits, not the " + w + " given");
      }
      dst.put(w);
      FastLanes.pack(w, block, 0, packed, 0);
      dst.put(packed, 0, FastLanes.packedWords(64, w));
    }
    return chunks(data, widths, 64, len);
  }

  /** As {@link #encode64} for 32-bit values. */
  public static MiniBlockChunks encode32(byte[] le, int len, int[] widths) {
    Checks.range(WHAT, le.length / 4, 0, len);
    int n = numChunks(len);
    checkWidths(widths, n, 32);
    long total = 0;
    for (int c = 0; c < n; c++) {
      total += chunkBytes(32, widths[c]);
    }
    byte[] data = new byte[Checks.byteSize(WHAT, total, 1)];
    IntBuffer src = ByteBuffer.wrap(le).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
    IntBuffer dst = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
    int[] block = new int[FastLanes.BLOCK];
    int[] packed = new int[FastLanes.BLOCK];
    for (int c = 0; c < n; c++) {
      int m = chunkLen(len, c);
      src.get(c * FastLanes.BLOCK, block, 0, m);
      Arrays.fill(block, m, FastLanes.BLOCK, 0);
      int w = widths[c];
      int need = FastLanes.bitWidth(block, 0, m);
      if (need != w) {
        throw new IllegalArgumentException("Chunk " + c + " needs " + need + " bits, not the " + w + " given");
      }
      dst.put(w);
      FastLanes.pack(w, block, 0, packed, 0);
      dst.put(packed, 0, FastLanes.packedWords(32, w));
    }
    return chunks(data, widths, 32, len);
  }

  private static void checkWidths(int[] widths, int n, int typeBits) {
    if (widths.length != n) {
      throw new IllegalArgumentException("Need " + n + " chunk widths, got " + widths.length);
    }
    for (int w : widths) {
      Checks.bitWidth(WHAT, w, typeBits);
    }
  }

  private static int numChunks(int len) {
    return (len + FastLanes.BLOCK - 1) / FastLanes.BLOCK;
  }

  private static int chunkLen(int len, int chunk) {
    return Math.min(FastLanes.BLOCK, len - chunk * FastLanes.BLOCK);
  }

  private static MiniBlockChunks chunks(byte[] data, int[] widths, int typeBits, int len) {
    if (len == 0) {
      return new MiniBlockChunks(new byte[0][], new int[0][], new int[0], 0);
    }
    int n = widths.length;
    int[][] sizes = new int[n][];
    int[] logs = new int[n];
    for (int c = 0; c < n; c++) {
      sizes[c] = new int[] {chunkBytes(typeBits, widths[c])};
      logs[c] = c == n - 1 ? 0 : 10;
    }
    return new MiniBlockChunks(new byte[][] {data}, sizes, logs, len);
  }

  // ---------------------------------------------------------------- decode

  /**
   * Reads the bit width word of a chunk of {@code typeBits}-bit values and checks the chunk's size.
   *
   * @param chunk the chunk, from its position to its limit (not moved)
   * @return the bit width, in {@code 0..typeBits}
   * @throws IllegalArgumentException if the width word is missing or too large, or the chunk is not
   *     exactly the size that width implies
   */
  public static int chunkBitWidth(ByteBuffer chunk, int typeBits) {
    int wordBytes = Checks.valueBytes(WHAT, typeBits);
    ByteBuffer le = Checks.le(chunk);
    int size = le.remaining();
    if (size < wordBytes) {
      throw new IllegalArgumentException(WHAT + ": chunk of " + size + " bytes is too short for its "
          + wordBytes + "-byte bit width word");
    }
    long width;
    switch (typeBits) {
      case 8: width = le.get(0) & 0xFFL; break;
      case 16: width = le.getShort(0) & 0xFFFFL; break;
      case 32: width = le.getInt(0) & 0xFFFFFFFFL; break;
      default: width = le.getLong(0); break;
    }
    if (width < 0 || width > typeBits) {
      throw new IllegalArgumentException(WHAT + ": chunk declares bit width "
          + Long.toUnsignedString(width) + ", more than the " + typeBits + "-bit value width");
    }
    int expected = chunkBytes(typeBits, (int) width);
    if (size != expected) {
      throw new IllegalArgumentException(WHAT + ": chunk of " + typeBits + "-bit values packed at "
          + width + " bits must be " + expected + " bytes, got " + size);
    }
    return (int) width;
  }

  private static void checkDecode(int numValues, int outLength, int outOff) {
    if (numValues < 0 || numValues > FastLanes.BLOCK) {
      throw new IllegalArgumentException(WHAT + ": a chunk holds 0.." + FastLanes.BLOCK
          + " values, asked for " + numValues);
    }
    Checks.range(WHAT + " output", outLength, outOff, numValues);
  }

  /**
   * Decodes the first {@code numValues} values of one chunk of 8-bit values into
   * {@code out[outOff, outOff+numValues)}.
   *
   * @param chunk exactly the chunk's bytes, from position to limit (not moved)
   * @throws IllegalArgumentException if the chunk is malformed or {@code numValues} is not in 0..1024
   */
  public static void decodeChunk(ByteBuffer chunk, int numValues, byte[] out, int outOff) {
    checkDecode(numValues, out.length, outOff);
    int w = chunkBitWidth(chunk, 8);
    byte[] packed = new byte[FastLanes.packedWords(8, w)];
    Checks.le(chunk).position(1).get(packed);
    unpackInto(w, packed, numValues, out, outOff);
  }

  /** As {@link #decodeChunk(ByteBuffer, int, byte[], int)}, for 16-bit values. */
  public static void decodeChunk(ByteBuffer chunk, int numValues, short[] out, int outOff) {
    checkDecode(numValues, out.length, outOff);
    int w = chunkBitWidth(chunk, 16);
    short[] packed = new short[FastLanes.packedWords(16, w)];
    Checks.le(chunk).position(2).asShortBuffer().get(packed);
    if (numValues == FastLanes.BLOCK) {
      FastLanes.unpack(w, packed, 0, out, outOff);
    } else {
      short[] tmp = new short[FastLanes.BLOCK];
      FastLanes.unpack(w, packed, 0, tmp, 0);
      System.arraycopy(tmp, 0, out, outOff, numValues);
    }
  }

  /** As {@link #decodeChunk(ByteBuffer, int, byte[], int)}, for 32-bit values. */
  public static void decodeChunk(ByteBuffer chunk, int numValues, int[] out, int outOff) {
    checkDecode(numValues, out.length, outOff);
    int w = chunkBitWidth(chunk, 32);
    int[] packed = new int[FastLanes.packedWords(32, w)];
    Checks.le(chunk).position(4).asIntBuffer().get(packed);
    if (numValues == FastLanes.BLOCK) {
      FastLanes.unpack(w, packed, 0, out, outOff);
    } else {
      int[] tmp = new int[FastLanes.BLOCK];
      FastLanes.unpack(w, packed, 0, tmp, 0);
      System.arraycopy(tmp, 0, out, outOff, numValues);
    }
  }

  /** As {@link #decodeChunk(ByteBuffer, int, byte[], int)}, for 64-bit values. */
  public static void decodeChunk(ByteBuffer chunk, int numValues, long[] out, int outOff) {
    checkDecode(numValues, out.length, outOff);
    int w = chunkBitWidth(chunk, 64);
    long[] packed = new long[FastLanes.packedWords(64, w)];
    Checks.le(chunk).position(8).asLongBuffer().get(packed);
    if (numValues == FastLanes.BLOCK) {
      FastLanes.unpack(w, packed, 0, out, outOff);
    } else {
      long[] tmp = new long[FastLanes.BLOCK];
      FastLanes.unpack(w, packed, 0, tmp, 0);
      System.arraycopy(tmp, 0, out, outOff, numValues);
    }
  }

  private static void unpackInto(int w, byte[] packed, int numValues, byte[] out, int outOff) {
    if (numValues == FastLanes.BLOCK) {
      FastLanes.unpack(w, packed, 0, out, outOff);
    } else {
      byte[] tmp = new byte[FastLanes.BLOCK];
      FastLanes.unpack(w, packed, 0, tmp, 0);
      System.arraycopy(tmp, 0, out, outOff, numValues);
    }
  }

  /**
   * Decodes the first {@code numValues} values of one chunk of {@code bitsPerValue}-bit values as
   * little-endian bytes into {@code out} at its position, advancing it by {@code numValues * bitsPerValue / 8}.
   * This suits decoding straight into an Arrow data buffer.
   *
   * @throws IllegalArgumentException if the chunk is malformed, {@code bitsPerValue} is not 8/16/32/64,
   *     {@code numValues} is not in 0..1024, or {@code out} is too small
   */
  public static void decodeChunk(ByteBuffer chunk, int numValues, int bitsPerValue, ByteBuffer out) {
    int bytes = Checks.valueBytes(WHAT, bitsPerValue);
    checkDecode(numValues, numValues, 0);
    Checks.room(WHAT, out, (long) numValues * bytes);
    ByteBuffer dst = Checks.le(out);
    switch (bitsPerValue) {
      case 8: {
        byte[] v = new byte[numValues];
        decodeChunk(chunk, numValues, v, 0);
        dst.put(v);
        break;
      }
      case 16: {
        short[] v = new short[numValues];
        decodeChunk(chunk, numValues, v, 0);
        dst.asShortBuffer().put(v);
        break;
      }
      case 32: {
        int[] v = new int[numValues];
        decodeChunk(chunk, numValues, v, 0);
        dst.asIntBuffer().put(v);
        break;
      }
      default: {
        long[] v = new long[numValues];
        decodeChunk(chunk, numValues, v, 0);
        dst.asLongBuffer().put(v);
        break;
      }
    }
    out.position(out.position() + numValues * bytes);
  }
}
