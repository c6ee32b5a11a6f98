package dev.javelin.format.internal.compression.fsst;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Decodes FSST-compressed values, as Lance's {@code Fsst} compressive encoding stores them.
 *
 * <p>The compressed values arrive as Lance's {@code Variable} data: {@code n + 1} offsets (32 or
 * 64 bits, little-endian) into a byte buffer. Each value is a string of codes: a code below 255
 * stands for its symbol, and code 255 (escape) is followed by one literal byte. Values are
 * independent; no code spans two values. With the table's switch off the values are raw and are
 * copied.
 *
 * <p>The hot loop stores each symbol as one unaligned 8-byte word and advances by the symbol's
 * length, so the output keeps 8 bytes of slack; nothing is allocated per value.
 *
 * <p>Malformed input (offsets out of order or out of range, a code the table does not define, an
 * escape with no byte after it, output beyond the caller's bound) is an
 * {@link IllegalArgumentException}. An instance is immutable and may be shared between threads.
 */
public final class FsstDecoder {
  private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class,
      ByteOrder.LITTLE_ENDIAN);

  private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class,
      ByteOrder.LITTLE_ENDIAN);

  private static final int GROUP_BYTES = 1 << 16;

  /** Chunks up to this size decode as one stream of codes (mini-block chunks are at most 32 KiB). */
  static final int STREAM_CHUNK_BYTES = 1 << 16;
  /**
   * Per thread: room for the output position of each code of the chunk being decoded; grown to
   * the largest chunk seen, at most {@value #STREAM_CHUNK_BYTES} + 1 ints.
   */
  private static final ThreadLocal<int[][]> OUT_AT = ThreadLocal.withInitial(() -> new int[][] {new int[4097]});

  private final FsstSymbolTable table;
  private final boolean raw;
  private final int symbolCount;
  private final long[] symbols = new long[256];
  /** The length of each code's symbol; 0 for the escape and for codes the table lacks. */
  private final int[] lengths = new int[256];

  public FsstDecoder(FsstSymbolTable table) {
    this.table = table;
    this.raw = !table.compresses();
    this.symbolCount = table.symbolCount();
    long[] s = table.packedSymbols();
    byte[] l = table.lengths();
    for (int i = 0; i < s.length; i++) {
      symbols[i] = s[i];
      lengths[i] = l[i];
    }
  }

  public FsstSymbolTable table() {
    return table;
  }

  /**
   * Decodes values held in a {@link BinaryValues} (such as {@link FsstEncoder}'s output).
   *
   * @param maxDecodedBytes the most bytes the decoded values may take
   * @throws IllegalArgumentException if the input is malformed or the output passes the bound
   */
  public BinaryValues decode(BinaryValues compressed, int maxDecodedBytes) {
    int n = compressed.count();
    BinaryValues.Builder out = new BinaryValues.Builder(n, estimate(compressed.dataLength(), maxDecodedBytes),
        maxDecodedBytes);
    out.ensureValues(n);
    int[] in = compressed.offsets();
    int[] offs = out.offsets;
    for (int i = 1; i <= n; i++) {
      if (in[i] < in[i - 1]) {
        throw new IllegalArgumentException("FSST offsets go backwards at value " + (i - 1) + ": " + in[i - 1]
            + " then " + in[i]);
      }
      offs[i] = in[i];
    }
    run(compressed.bytes(), in[0], n, out);
    return out.build();
  }

  /**
   * Decodes {@code numValues} values and returns them.
   *
   * @param maxDecodedBytes the most bytes the decoded values may take
   * @see #decode(ByteBuffer, int, int, ByteBuffer, BinaryValues.Builder)
   */
  public BinaryValues decode(ByteBuffer offsets, int bitsPerOffset, int numValues, ByteBuffer data,
      int maxDecodedBytes) {
    BinaryValues.Builder out = new BinaryValues.Builder(numValues,
        estimate(data.remaining(), maxDecodedBytes), maxDecodedBytes);
    decode(offsets, bitsPerOffset, numValues, data, out);
    return out.build();
  }

  /**
   * Decodes {@code numValues} values and appends them to {@code out}.
   *
   * <p>Compressed value {@code i} is {@code data[data.position() + o[i] .. data.position() + o[i+1])},
   * where {@code o} are the {@code numValues + 1} offsets read from {@code offsets.position()}. In
   * a mini-block chunk the offsets sit at the chunk's start and count from there, so pass the
   * same buffer, positioned at the chunk, for both. Neither buffer's position moves. If this
   * throws, {@code out} still holds exactly the values it held before.
   *
   * @param bitsPerOffset 32 (unsigned) or 64
   * @throws IllegalArgumentException if the input is malformed or the output passes
   *     {@code out}'s bound
   */
  public void decode(ByteBuffer offsets, int bitsPerOffset, int numValues, ByteBuffer data,
      BinaryValues.Builder out) {
    if (bitsPerOffset != 32 && bitsPerOffset != 64) {
      throw new IllegalArgumentException("FSST offsets must be 32 or 64 bits, not " + bitsPerOffset);
    }
    if (numValues < 0) {
      throw new IllegalArgumentException("Negative number of values: " + numValues);
    }
    int width = bitsPerOffset / 8;
    ByteBuffer ob = offsets.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int op = ob.position();
    if ((numValues + 1L) * width > ob.remaining()) {
      throw new IllegalArgumentException("FSST data has " + numValues + " values but room for only "
          + (ob.remaining() / width) + " offsets of " + bitsPerOffset + " bits");
    }
    int dataLen = data.remaining();
    byte[] src;
    int base;
    if (data.hasArray()) {
      src = data.array();
      base = data.arrayOffset() + data.position();
    } else {
      src = new byte[dataLen];
      data.duplicate().get(src);
      base = 0;
    }
    // Park the values' end positions in src in the builder's offsets; run() overwrites each with
    // the decoded end once it has read it. Nothing counts until run() finishes.
    out.ensureValues(numValues);
    int[] offs = out.offsets;
    int c = out.count;
    long first = readOffset(ob, op, width, 0, dataLen);
    long prev = first;
    for (int i = 1; i <= numValues; i++) {
      long next = readOffset(ob, op, width, i, dataLen);
      if (next < prev) {
        throw new IllegalArgumentException("FSST offsets go backwards at value " + (i - 1) + ": " + prev
            + " then " + next);
      }
      offs[c + i] = base + (int) next;
      prev = next;
    }
    run(src, base + (int) first, numValues, out);
  }

  /**
   * Decodes the single value {@code src[off, off + len)} and appends it to {@code out}; for
   * layouts that store values one by one (full-zip). If this throws, {@code out} is unchanged.
   *
   * @throws IllegalArgumentException if the value is malformed or passes {@code out}'s bound
   */
  public void decodeValue(byte[] src, int off, int len, BinaryValues.Builder out) {
    if (off < 0 || len < 0 || off > src.length - len) {
      throw new IllegalArgumentException("Bad FSST value range: offset " + off + ", length " + len
          + ", array of " + src.length);
    }
    out.ensureValues(1);
    out.offsets[out.count + 1] = off + len;
    run(src, off, 1, out);
  }

  /**
   * The most output bytes {@link #decodeChunk} may touch for a chunk of {@code chunkBytes}
   * compressed bytes: every compressed byte may stand for an 8-byte symbol, and the last symbol
   * is stored as a whole word.
   */
  public static long worstCaseBytes(int chunkBytes) {
    return 8L * chunkBytes + 8;
  }

  /**
   * Decodes the {@code numValues} values of one mini-block chunk straight into a caller's array,
   * with no intermediate copy. The chunk is {@code src[start, start + length)}: it begins with
   * {@code numValues + 1} offsets of {@code bitsPerOffset} bits counted from the chunk's start,
   * and value {@code k} is the codes between offsets {@code k} and {@code k + 1}. The decoded
   * values go back to back into {@code dst} from {@code pos}, and the end of value {@code k}
   * (a position in {@code dst}) into {@code ends[endsAt + k]}.
   *
   * <p>The caller makes room first: {@code dst} must have at least
   * {@link #worstCaseBytes worstCaseBytes(length)} bytes from {@code pos}, and {@code ends} room
   * for the values. On failure nothing the caller counts has changed (bytes past {@code pos} and
   * entries of {@code ends} may have been written).
   *
   * @param bitsPerOffset 32 (unsigned) or 64
   * @return the position in {@code dst} after the last value
   * @throws IllegalArgumentException if the chunk is malformed: offsets that do not fit, go
   *     backwards or point outside the chunk; a code the table lacks; an escape with no byte
   */
  public int decodeChunk(byte[] src, int start, int length, int bitsPerOffset, int numValues, byte[] dst, int pos,
      long[] ends, int endsAt) {
    if (bitsPerOffset != 32 && bitsPerOffset != 64) {
      throw new IllegalArgumentException("FSST offsets must be 32 or 64 bits, not " + bitsPerOffset);
    }
    if (numValues < 0) {
      throw new IllegalArgumentException("Negative number of values: " + numValues);
    }
    if (start < 0 || length < 0 || start > src.length - length) {
      throw new IllegalArgumentException("Bad FSST chunk range: offset " + start + ", length " + length
          + ", array of " + src.length);
    }
    if (pos < 0 || dst.length - pos < worstCaseBytes(length) || endsAt < 0 || ends.length - endsAt < numValues) {
      throw new IllegalArgumentException("No room to decode an FSST chunk of " + length + " bytes and " + numValues
          + " values");
    }
    int width = bitsPerOffset / 8;
    if ((numValues + 1L) * width > length) {
      throw new IllegalArgumentException("FSST data has " + numValues + " values but room for only "
          + (length / width) + " offsets of " + bitsPerOffset + " bits");
    }
    long first = chunkOffset(src, start, width, 0, length);
    if (raw) {
      long last = first;
      for (int k = 0; k < numValues; k++) {
        long e = chunkOffset(src, start, width, k + 1, length);
        if (e < last) {
          throw new IllegalArgumentException("FSST offsets go backwards at value " + k + ": " + last + " then " + e);
        }
        ends[endsAt + k] = pos + (e - first);
        last = e;
      }
      System.arraycopy(src, start + (int) first, dst, pos, (int) (last - first));
      return pos + (int) (last - first);
    }
    if (length <= STREAM_CHUNK_BYTES) {
      return decodeStream(src, start, length, width, numValues, first, dst, pos, ends, endsAt);
    }
    return decodeValues(src, start, length, width, numValues, first, dst, pos, ends, endsAt);
  }

  /** {@link #decodeChunk} one value at a time; also finds the first error exactly. */
  private int decodeValues(byte[] src, int start, int length, int width, int numValues, long first, byte[] dst,
      int pos, long[] ends, int endsAt) {
    final long[] syms = symbols;
    final int[] lens = lengths;
    int in = start + (int) first;
    int o = pos;
    for (int k = 0; k < numValues; k++) {
      long e = chunkOffset(src, start, width, k + 1, length);
      int end = start + (int) e;
      if (end < in) {
        throw new IllegalArgumentException("FSST offsets go backwards at value " + k + ": " + (in - start)
            + " then " + e);
      }
      // The hot loop: one word store per code, advancing by the symbol's length.
      while (in < end) {
        int code = src[in++] & 0xFF;
        int len = lens[code];
        if (len != 0) {
          LONG_LE.set(dst, o, syms[code]);
          o += len;
        } else if (code == FsstSymbolTable.ESCAPE && in < end) {
          dst[o++] = src[in++];
        } else {
          throw badCode(k, code);
        }
      }
      ends[endsAt + k] = o;
    }
    return o;
  }

  /**
   * {@link #decodeChunk} for chunks of up to {@value #STREAM_CHUNK_BYTES} bytes. Values are
   * contiguous and no code spans two of them, so the chunk's codes decode as one stream: one loop
   * for the chunk instead of one per value, whose exit the CPU mispredicts about once per value
   * (short strings have only a few codes each). The loop notes the output position at each code
   * ({@code outAt[p]} for compressed byte {@code p}, -1 for an escaped literal); each value's end
   * is then looked up. A value ending between an escape and its literal shows up as -1; the first
   * such value is the first error, since the values before it decoded alike either way.
   */
  private int decodeStream(byte[] src, int start, int length, int width, int numValues, long first, byte[] dst,
      int pos, long[] ends, int endsAt) {
    // Read and check all offsets first, parking them (chunk-relative) in ends.
    long last = first;
    for (int k = 0; k < numValues; k++) {
      long e = chunkOffset(src, start, width, k + 1, length);
      if (e < last) {
        throw new IllegalArgumentException("FSST offsets go backwards at value " + k + ": " + last + " then " + e);
      }
      ends[endsAt + k] = e;
      last = e;
    }
    int n = (int) (last - first);
    int[][] holder = OUT_AT.get();
    if (holder[0].length <= n) {
      holder[0] = new int[Math.max(n + 1, Math.min(STREAM_CHUNK_BYTES + 1, 2 * holder[0].length))];
    }
    int[] outAt = holder[0];
    final long[] syms = symbols;
    final int[] lens = lengths;
    final int base = start + (int) first;
    int o = pos;
    int p = 0;
    while (p < n) {
      outAt[p] = o;
      int code = src[base + p] & 0xFF;
      p++;
      int len = lens[code];
      if (len != 0) {
        LONG_LE.set(dst, o, syms[code]);
        o += len;
      } else if (code == FsstSymbolTable.ESCAPE && p < n) {
        outAt[p] = -1;
        dst[o++] = src[base + p];
        p++;
      } else {
        // Malformed. An escape may have swallowed the next value's first byte before this, so
        // let the value-by-value decoder find and report the first error.
        return decodeValues(src, start, length, width, numValues, first, dst, pos, ends, endsAt);
      }
    }
    outAt[n] = o;
    for (int k = 0; k < numValues; k++) {
      int at = outAt[(int) (ends[endsAt + k] - first)];
      if (at < 0) {
        throw badCode(k, FsstSymbolTable.ESCAPE);
      }
      ends[endsAt + k] = at;
    }
    return o;
  }

  // Offset i of a chunk's offsets, checked to lie within the chunk's length.
  private static long chunkOffset(byte[] src, int start, int width, int i, int length) {
    long v = width == 4 ? Integer.toUnsignedLong((int) INT_LE.get(src, start + 4 * i))
        : (long) LONG_LE.get(src, start + 8 * i);
    if (v < 0 || v > length) {
      throw new IllegalArgumentException("FSST offset " + i + " is " + Long.toUnsignedString(v)
          + ", outside the " + length + " chunk bytes");
    }
    return v;
  }

  private static long readOffset(ByteBuffer ob, int op, int width, int i, int dataLen) {
    // The caller checked that all offsets fit in the buffer, so op + width * i is in range.
    long v = width == 4 ? Integer.toUnsignedLong(ob.getInt(op + 4 * i)) : ob.getLong(op + 8 * i);
    if (v < 0 || v > dataLen) {
      throw new IllegalArgumentException("FSST offset " + i + " is " + Long.toUnsignedString(v)
          + ", outside the " + dataLen + " data bytes");
    }
    return v;
  }

  /** A first guess at the output size: FSST typically shrinks text 2-3 times. */
  private static int estimate(int compressedBytes, int maxDecodedBytes) {
    return (int) Math.min(maxDecodedBytes, Math.min(3L * compressedBytes, 1 << 26));
  }

  /**
   * Decodes {@code n} values and appends them to {@code out}. Value {@code k} is
   * {@code src[e(k-1), e(k))} with {@code e(-1) = start} and {@code e(k) = out.offsets[out.count + k + 1]},
   * positions the caller checked to be in order and inside {@code src}.
   *
   * <p>Values go in groups of about {@value #GROUP_BYTES} compressed bytes: room for the worst
   * case of a group (8 bytes per compressed byte) is made once, so the per-value work is just the
   * loop. Only near the output bound is each value measured exactly first.
   */
  private void run(byte[] src, int start, int n, BinaryValues.Builder out) {
    int[] offs = out.offsets;
    int c = out.count;
    int i = 0;
    while (i < n) {
      int j = i + 1;
      long limit = (long) start + GROUP_BYTES;
      while (j < n && offs[c + j + 1] <= limit) {
        j++;
      }
      int groupEnd = offs[c + j];
      int pos = offs[c + i];
      int clen = groupEnd - start;
      if (raw) {
        out.ensureBytes(pos, clen, clen);
        System.arraycopy(src, start, out.bytes, pos, clen);
        int shift = pos - start;
        for (int k = i; k < j; k++) {
          offs[c + k + 1] += shift;
        }
      } else if (out.ensureBytes(pos, clen / 2, 8L * clen)) {
        // Each code yields 1..8 bytes and an escape pair 1, so this is room for the worst case.
        byte[] dst = out.bytes;
        int s = start;
        for (int k = i; k < j; k++) {
          int e = offs[c + k + 1];
          pos = expand(k, src, s, e, dst, pos);
          offs[c + k + 1] = pos;
          s = e;
        }
      } else {
        int s = start;
        for (int k = i; k < j; k++) {
          int e = offs[c + k + 1];
          long exact = exactLength(k, src, s, e);
          out.ensureBytes(pos, exact, exact);
          pos = expand(k, src, s, e, out.bytes, pos);
          offs[c + k + 1] = pos;
          s = e;
        }
      }
      start = groupEnd;
      i = j;
    }
    out.count = c + n;
  }

  /**
   * The hot loop. The caller guarantees {@code dst} has room for the decoded value plus 8 bytes,
   * so every symbol can be stored as a whole word.
   */
  private int expand(int index, byte[] src, int in, int end, byte[] dst, int o) {
    final long[] syms = symbols;
    final int[] lens = lengths;
    while (in < end) {
      int code = src[in++] & 0xFF;
      int len = lens[code];
      if (len != 0) {
        LONG_LE.set(dst, o, syms[code]);
        o += len;
      } else if (code == FsstSymbolTable.ESCAPE && in < end) {
        dst[o++] = src[in++];
      } else {
        throw badCode(index, code);
      }
    }
    return o;
  }

  /** The decoded length of one value, checking every code on the way. */
  private long exactLength(int index, byte[] src, int in, int end) {
    long total = 0;
    while (in < end) {
      int code = src[in++] & 0xFF;
      int len = lengths[code];
      if (len != 0) {
        total += len;
      } else if (code == FsstSymbolTable.ESCAPE && in < end) {
        in++;
        total++;
      } else {
        throw badCode(index, code);
      }
    }
    return total;
  }

  private IllegalArgumentException badCode(int index, int code) {
    if (code == FsstSymbolTable.ESCAPE) {
      return new IllegalArgumentException("FSST value " + index + " ends with an escape code and no byte to escape");
    }
    return new IllegalArgumentException("FSST value " + index + " uses code " + code + " but the symbol table has "
        + symbolCount + " symbols");
  }
}
