package dev.javelin.format.internal.compression.bitpack;

import java.nio.ByteBuffer;

/**
 * Lance 2.1 {@code ByteStreamSplit} for mini-blocks ({@code ByteStreamSplit{values: Flat{T}}}).
 *
 * <h2>Layout (checked against lance-core 7.0.0's sources)</h2>
 * One buffer. Each chunk of {@code n} values of {@code B = T/8} bytes is {@code n * B} bytes: byte
 * {@code j} of value {@code i} (little-endian) is at {@code j * n + i} within the chunk. Streams never
 * cross chunks. A chunk holds at most {@code 4096 / B} values (1024 for 32-bit, 512 for 64-bit, as
 * Lance; 2048 for 16-bit, which Lance itself never writes: it only splits 32- and 64-bit values and
 * only when a general compression such as zstd wraps the result). Every chunk but the last is full.
 */
public final class ByteStreamSplitCodec {
  private static final String WHAT = "byte stream split";

  private ByteStreamSplitCodec() {}

  private static int checkBits(int bitsPerValue) {
    if (bitsPerValue != 16 && bitsPerValue != 32 && bitsPerValue != 64) {
      throw new IllegalArgumentException(WHAT + ": unsupported value width " + bitsPerValue
          + " bits (expected 16, 32 or 64)");
    }
    return bitsPerValue / 8;
  }

  /** The most values a chunk of {@code bitsPerValue}-bit values holds. */
  public static int maxChunkValues(int bitsPerValue) {
    return 4096 / checkBits(bitsPerValue);
  }

  /**
   * Encodes {@code numValues} little-endian values of {@code bitsPerValue} bits, starting at
   * {@code data[off]}, into mini-block chunks (one buffer).
   *
   * @throws IllegalArgumentException if {@code bitsPerValue} is not 16/32/64 or the range does not fit
   */
  public static MiniBlockChunks encode(byte[] data, int off, int numValues, int bitsPerValue) {
    int b = checkBits(bitsPerValue);
    Checks.count(WHAT, numValues);
    int total = Checks.byteSize(WHAT, numValues, b);
    Checks.range(WHAT, data.length, off, total);
    if (numValues == 0) {
      return new MiniBlockChunks(new byte[0][], new int[0][], new int[0], 0);
    }
    int max = 4096 / b;
    int chunks = (numValues + max - 1) / max;
    byte[] out = new byte[total];
    int[][] sizes = new int[chunks][];
    int[] logs = new int[chunks];
    for (int c = 0; c < chunks; c++) {
      int first = c * max;
      int n = Math.min(max, numValues - first);
      split(data, off + first * b, n, b, out, first * b);
      sizes[c] = new int[] {n * b};
      logs[c] = c == chunks - 1 ? 0 : Integer.numberOfTrailingZeros(max);
    }
    return new MiniBlockChunks(new byte[][] {out}, sizes, logs, numValues);
  }

  private static void split(byte[] in, int inOff, int n, int b, byte[] out, int outOff) {
    for (int j = 0; j < b; j++) {
      int dst = outOff + j * n;
      int src = inOff + j;
      for (int i = 0; i < n; i++) {
        out[dst + i] = in[src + i * b];
      }
    }
  }

  /**
   * Decodes one chunk of {@code numValues} values of {@code bitsPerValue} bits into little-endian bytes at
   * {@code out[outOff, outOff + numValues * bitsPerValue / 8)}.
   *
   * @param chunk exactly the chunk's bytes, position to limit (not moved)
   * @throws IllegalArgumentException if the chunk is not exactly {@code numValues * bitsPerValue / 8}
   *     bytes, {@code bitsPerValue} is not 16/32/64, or {@code out} is too small
   */
  public static void decodeChunk(ByteBuffer chunk, int numValues, int bitsPerValue, byte[] out, int outOff) {
    int b = checkBits(bitsPerValue);
    Checks.count(WHAT, numValues);
    int total = Checks.byteSize(WHAT, numValues, b);
    if (chunk.remaining() != total) {
      throw new IllegalArgumentException(WHAT + ": chunk of " + numValues + " " + bitsPerValue
          + "-bit values must be " + total + " bytes, got " + chunk.remaining());
    }
    Checks.range(WHAT + " output", out.length, outOff, total);
    int base = chunk.position();
    if (chunk.hasArray()) {
      byte[] in = chunk.array();
      int inOff = chunk.arrayOffset() + base;
      for (int j = 0; j < b; j++) {
        int src = inOff + j * numValues;
        int dst = outOff + j;
        for (int i = 0; i < numValues; i++) {
          out[dst + i * b] = in[src + i];
        }
      }
    } else {
      for (int j = 0; j < b; j++) {
        int src = base + j * numValues;
        int dst = outOff + j;
        for (int i = 0; i < numValues; i++) {
          out[dst + i * b] = chunk.get(src + i);
        }
      }
    }
  }

  /**
   * As {@link #decodeChunk(ByteBuffer, int, int, byte[], int)}, writing into {@code out} at its position
   * and advancing it.
   */
  public static void decodeChunk(ByteBuffer chunk, int numValues, int bitsPerValue, ByteBuffer out) {
    int b = checkBits(bitsPerValue);
    Checks.count(WHAT, numValues);
    int total = Checks.byteSize(WHAT, numValues, b);
    Checks.room(WHAT, out, total);
    if (out.hasArray()) {
      decodeChunk(chunk, numValues, bitsPerValue, out.array(), out.arrayOffset() + out.position());
    } else {
      byte[] tmp = new byte[total];
      decodeChunk(chunk, numValues, bitsPerValue, tmp, 0);
      out.duplicate().put(tmp);
    }
    out.position(out.position() + total);
  }
}
