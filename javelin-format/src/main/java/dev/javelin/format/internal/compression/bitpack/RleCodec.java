package dev.javelin.format.internal.compression.bitpack;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Lance 2.1 {@code Rle} for mini-blocks ({@code Rle{values: Flat{T}, run_lengths: Flat{8}}}, T = 8, 16,
 * 32 or 64).
 *
 * <h2>Layout (checked against lance-core 7.0.0)</h2>
 * Two buffers: the run values as little-endian {@code T}-bit words, and one unsigned byte per run with
 * its length (1..255; a longer run is written as runs of 255 followed by the remainder). Chunk {@code c}
 * owns the next {@code values} and {@code lengths} bytes of each, as its mini-block chunk records them.
 *
 * <h2>Chunking (as lance-core 7.0.0 writes it)</h2>
 * A chunk holds at most 4096 values and its runs at most 8186 bytes (Lance's
 * {@code MAX_MINIBLOCK_BYTES}; a run costs {@code T/8 + 1} bytes, a run longer than 255 more). The
 * writer adds whole runs while they fit, remembering a power-of-two checkpoint (256, 512, .. for
 * 8-bit values; 128, .. for 16-bit; 64, .. for wider) whenever the runs so far cover at least that
 * many values. A chunk that cannot take everything left ends at 4096 values (cutting the run there) or
 * falls back to the last checkpoint, keeping every run added up to it. So a chunk's runs may cover
 * <b>more</b> values than the chunk declares (by the tail of the run that crossed the checkpoint); the
 * next chunk starts right after the declared count and repeats those values. Decoders stop at the
 * declared count and ignore the rest, as Lance's decoder does. {@link #encode(int[], int, int)}
 * reproduces these boundaries and bytes exactly.
 */
public final class RleCodec {
  private static final String WHAT = "RLE";
  private static final int MAX_CHUNK_VALUES = 4096;
  /** Lance's {@code MAX_MINIBLOCK_BYTES}: 8 KiB less the chunk header allowance. */
  private static final int MAX_CHUNK_BYTES = 8 * 1024 - 6;
  private static final int MAX_RUN = 255;

  private RleCodec() {}

  // ---------------------------------------------------------------- encode

  /** Encodes {@code values[off, off+len)} (8-bit) into RLE mini-block chunks: buffers values, lengths. */
  public static MiniBlockChunks encode(byte[] values, int off, int len) {
    Checks.range(WHAT, values.length, off, len);
    long[] wide = new long[len];
    for (int i = 0; i < len; i++) {
      wide[i] = values[off + i] & 0xFFL;
    }
    return encode(wide, 1);
  }

  /** As {@link #encode(byte[], int, int)}, for 16-bit values. */
  public static MiniBlockChunks encode(short[] values, int off, int len) {
    Checks.range(WHAT, values.length, off, len);
    long[] wide = new long[len];
    for (int i = 0; i < len; i++) {
      wide[i] = values[off + i] & 0xFFFFL;
    }
    return encode(wide, 2);
  }

  /** As {@link #encode(byte[], int, int)}, for 32-bit values. */
  public static MiniBlockChunks encode(int[] values, int off, int len) {
    Checks.range(WHAT, values.length, off, len);
    long[] wide = new long[len];
    for (int i = 0; i < len; i++) {
      wide[i] = values[off + i] & 0xFFFFFFFFL;
    }
    return encode(wide, 4);
  }

  /** As {@link #encode(byte[], int, int)}, for 64-bit values. */
  public static MiniBlockChunks encode(long[] values, int off, int len) {
    Checks.range(WHAT, values.length, off, len);
    return encode(Arrays.copyOfRange(values, off, off + len), 8);
  }

  private static MiniBlockChunks encode(long[] v, int valueBytes) {
    int n = v.length;
    if (n == 0) {
      return new MiniBlockChunks(new byte[0][], new int[0][], new int[0], 0);
    }
    Writer w = new Writer(valueBytes, n);
    int[][] sizes = new int[16][];
    int[] logs = new int[16];
    int chunks = 0;
    int offset = 0;
    while (offset < n) {
      int valuesStart = w.valuesSize;
      int lengthsStart = w.lengthsSize;
      long result = encodeChunk(v, offset, n - offset, w);
      int count = (int) (result >>> 1);
      boolean last = (result & 1) != 0;
      if (count == 0) {
        // Lance's writer silently stops here; it cannot happen, as the first checkpoint always fits.
        throw new IllegalStateException("RLE: no chunk boundary fits at value " + offset);
      }
      if (chunks == logs.length) {
        logs = Arrays.copyOf(logs, chunks * 2);
        sizes = Arrays.copyOf(sizes, chunks * 2);
      }
      logs[chunks] = last ? 0 : Integer.numberOfTrailingZeros(count);
      sizes[chunks] = new int[] {w.valuesSize - valuesStart, w.lengthsSize - lengthsStart};
      chunks++;
      offset += count;
    }
    return new MiniBlockChunks(new byte[][] {w.values(), w.lengths()}, Arrays.copyOf(sizes, chunks),
        Arrays.copyOf(logs, chunks), n);
  }

  /**
   * Encodes one chunk starting at {@code offset} the way Lance's rolling chunk builder does: runs are
   * added while they fit; a power-of-two checkpoint is remembered whenever the runs added so far cover
   * at least that many values; a chunk that cannot take everything left ends at such a checkpoint.
   *
   * @return {@code count << 1 | (last ? 1 : 0)}, count being the chunk's declared value count
   */
  private static long encodeChunk(long[] v, int offset, int remaining, Writer w) {
    int valueBytes = w.valueBytes;
    int end = offset + Math.min(remaining, MAX_CHUNK_VALUES);
    int checkpoint = valueBytes == 1 ? 256 : valueBytes == 2 ? 128 : 64;
    if (checkpoint > remaining) {
      checkpoint = 0; // 0: no checkpoint left
    }
    boolean saved = false;
    int savedValues = 0;
    int savedLengths = 0;
    int savedCount = 0;

    long current = v[offset];
    int runLength = 1;
    int bytesUsed = 0;
    int encoded = 0;
    for (int i = offset + 1; i < end; i++) {
      long x = v[i];
      if (x == current) {
        runLength++;
      } else {
        int needed = runBytes(runLength, valueBytes);
        if (bytesUsed + needed > MAX_CHUNK_BYTES) {
          if (saved) {
            w.truncate(savedValues, savedLengths);
            return (long) savedCount << 1;
          }
          break;
        }
        bytesUsed += w.addRun(current, runLength);
        encoded += runLength;
        current = x;
        runLength = 1;
      }
      // At most one checkpoint per value, as in Lance. The runs kept may cover more than the
      // checkpoint's count: the chunk declares the checkpoint, and decoders ignore the excess.
      if (checkpoint != 0 && encoded >= checkpoint) {
        saved = true;
        savedValues = w.valuesSize;
        savedLengths = w.lengthsSize;
        savedCount = checkpoint;
        checkpoint = checkpoint >= MAX_CHUNK_VALUES || checkpoint * 2 > remaining ? 0 : checkpoint * 2;
      }
    }
    if (bytesUsed + runBytes(runLength, valueBytes) <= MAX_CHUNK_BYTES) {
      w.addRun(current, runLength);
      encoded += runLength;
    }
    boolean last = encoded == remaining;
    if (!last && Integer.bitCount(encoded) != 1) {
      if (!saved) {
        return 0;
      }
      w.truncate(savedValues, savedLengths);
      return (long) savedCount << 1;
    }
    return (long) encoded << 1 | (last ? 1 : 0);
  }

  private static int runBytes(long runLength, int valueBytes) {
    return (int) ((runLength + MAX_RUN - 1) / MAX_RUN) * (valueBytes + 1);
  }

  /** Growable values and lengths buffers. */
  private static final class Writer {
    final int valueBytes;
    byte[] values;
    byte[] lengths;
    int valuesSize;
    int lengthsSize;

    Writer(int valueBytes, int numValues) {
      this.valueBytes = valueBytes;
      int runs = Math.max(16, numValues / 10);
      this.values = new byte[runs * valueBytes];
      this.lengths = new byte[runs];
    }

    /** Writes one run, split into runs of at most 255; returns the bytes written. */
    int addRun(long value, int runLength) {
      int pieces = (runLength + MAX_RUN - 1) / MAX_RUN;
      if (lengthsSize + pieces > lengths.length) {
        int cap = Math.max(lengths.length * 2, lengthsSize + pieces);
        lengths = Arrays.copyOf(lengths, cap);
        values = Arrays.copyOf(values, cap * valueBytes);
      }
      int left = runLength;
      for (int p = 0; p < pieces; p++) {
        int len = Math.min(MAX_RUN, left);
        left -= len;
        lengths[lengthsSize++] = (byte) len;
        for (int b = 0; b < valueBytes; b++) {
          values[valuesSize++] = (byte) (value >>> (8 * b));
        }
      }
      return pieces * (valueBytes + 1);
    }

    void truncate(int valuesSize, int lengthsSize) {
      this.valuesSize = valuesSize;
      this.lengthsSize = lengthsSize;
    }

    byte[] values() {
      return Arrays.copyOf(values, valuesSize);
    }

    byte[] lengths() {
      return Arrays.copyOf(lengths, lengthsSize);
    }
  }

  // ---------------------------------------------------------------- decode

  /** Checks the two buffers against each other and returns the number of runs. */
  private static int runs(ByteBuffer values, ByteBuffer lengths, int valueBytes) {
    int size = values.remaining();
    if (size % valueBytes != 0) {
      throw new IllegalArgumentException(WHAT + ": values buffer of " + size
          + " bytes is not a whole number of " + (valueBytes * 8) + "-bit values");
    }
    int runs = size / valueBytes;
    if (runs != lengths.remaining()) {
      throw new IllegalArgumentException(WHAT + ": " + runs + " run values but "
          + lengths.remaining() + " run lengths");
    }
    return runs;
  }

  private static IllegalArgumentException shortRuns(int covered, int numValues) {
    return new IllegalArgumentException(WHAT + ": runs cover " + covered + " values, "
        + numValues + " expected");
  }

  /**
   * Decodes {@code numValues} 8-bit values from one chunk's run values and run lengths into
   * {@code out[outOff, outOff+numValues)}. Runs beyond {@code numValues} are ignored (see the class
   * comment).
   *
   * @param values the chunk's run values, position to limit (not moved)
   * @param lengths the chunk's run lengths, one byte per run, position to limit (not moved)
   * @throws IllegalArgumentException if the buffers disagree on the number of runs, the runs cover
   *     fewer than {@code numValues} values, or {@code out} is too small
   */
  public static void decode(ByteBuffer values, ByteBuffer lengths, int numValues, byte[] out, int outOff) {
    Checks.count(WHAT, numValues);
    Checks.range(WHAT + " output", out.length, outOff, numValues);
    if (numValues == 0) {
      return;
    }
    int runs = runs(values, lengths, 1);
    int vp = values.position();
    int lp = lengths.position();
    int pos = 0;
    for (int r = 0; r < runs && pos < numValues; r++) {
      int n = Math.min(lengths.get(lp + r) & 0xFF, numValues - pos);
      Arrays.fill(out, outOff + pos, outOff + pos + n, values.get(vp + r));
      pos += n;
    }
    if (pos < numValues) {
      throw shortRuns(pos, numValues);
    }
  }

  /** As {@link #decode(ByteBuffer, ByteBuffer, int, byte[], int)}, for 16-bit values. */
  public static void decode(ByteBuffer values, ByteBuffer lengths, int numValues, short[] out, int outOff) {
    Checks.count(WHAT, numValues);
    Checks.range(WHAT + " output", out.length, outOff, numValues);
    if (numValues == 0) {
      return;
    }
    int runs = runs(values, lengths, 2);
    ByteBuffer vals = Checks.le(values);
    int lp = lengths.position();
    int pos = 0;
    for (int r = 0; r < runs && pos < numValues; r++) {
      int n = Math.min(lengths.get(lp + r) & 0xFF, numValues - pos);
      Arrays.fill(out, outOff + pos, outOff + pos + n, vals.getShort(2 * r));
      pos += n;
    }
    if (pos < numValues) {
      throw shortRuns(pos, numValues);
    }
  }

  /** As {@link #decode(ByteBuffer, ByteBuffer, int, byte[], int)}, for 32-bit values. */
  public static void decode(ByteBuffer values, ByteBuffer lengths, int numValues, int[] out, int outOff) {
    Checks.count(WHAT, numValues);
    Checks.range(WHAT + " output", out.length, outOff, numValues);
    if (numValues == 0) {
      return;
    }
    int runs = runs(values, lengths, 4);
    ByteBuffer vals = Checks.le(values);
    int lp = lengths.position();
    int pos = 0;
    for (int r = 0; r < runs && pos < numValues; r++) {
      int n = Math.min(lengths.get(lp + r) & 0xFF, numValues - pos);
      Arrays.fill(out, outOff + pos, outOff + pos + n, vals.getInt(4 * r));
      pos += n;
    }
    if (pos < numValues) {
      throw shortRuns(pos, numValues);
    }
  }

  /** As {@link #decode(ByteBuffer, ByteBuffer, int, byte[], int)}, for 64-bit values. */
  public static void decode(ByteBuffer values, ByteBuffer lengths, int numValues, long[] out, int outOff) {
    Checks.count(WHAT, numValues);
    Checks.range(WHAT + " output", out.length, outOff, numValues);
    if (numValues == 0) {
      return;
    }
    int runs = runs(values, lengths, 8);
    ByteBuffer vals = Checks.le(values);
    int lp = lengths.position();
    int pos = 0;
    for (int r = 0; r < runs && pos < numValues; r++) {
      int n = Math.min(lengths.get(lp + r) & 0xFF, numValues - pos);
      Arrays.fill(out, outOff + pos, outOff + pos + n, vals.getLong(8 * r));
      pos += n;
    }
    if (pos < numValues) {
      throw shortRuns(pos, numValues);
    }
  }

  /**
   * Decodes {@code numValues} values of {@code bitsPerValue} bits as little-endian bytes into {@code out}
   * at its position, advancing it by {@code numValues * bitsPerValue / 8}.
   *
   * @throws IllegalArgumentException as the typed overloads, or if {@code bitsPerValue} is not
   *     8/16/32/64 or {@code out} is too small
   */
  public static void decode(ByteBuffer values, ByteBuffer lengths, int numValues, int bitsPerValue,
      ByteBuffer out) {
    int bytes = Checks.valueBytes(WHAT, bitsPerValue);
    Checks.count(WHAT, numValues);
    Checks.room(WHAT, out, (long) numValues * bytes);
    ByteBuffer dst = Checks.le(out);
    switch (bitsPerValue) {
      case 8: {
        byte[] v = new byte[numValues];
        decode(values, lengths, numValues, v, 0);
        dst.put(v);
        break;
      }
      case 16: {
        short[] v = new short[numValues];
        decode(values, lengths, numValues, v, 0);
        dst.asShortBuffer().put(v);
        break;
      }
      case 32: {
        int[] v = new int[numValues];
        decode(values, lengths, numValues, v, 0);
        dst.asIntBuffer().put(v);
        break;
      }
      default: {
        long[] v = new long[numValues];
        decode(values, lengths, numValues, v, 0);
        dst.asLongBuffer().put(v);
        break;
      }
    }
    out.position(out.position() + numValues * bytes);
  }
}
