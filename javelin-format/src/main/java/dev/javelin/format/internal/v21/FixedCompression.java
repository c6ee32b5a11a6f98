package dev.javelin.format.internal.v21;

import dev.javelin.format.internal.compression.bitpack.InlineBitpackingCodec;
import dev.javelin.format.internal.compression.bitpack.MiniBlockChunks;
import dev.javelin.format.internal.compression.bitpack.RleCodec;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Chooses how to compress a mini-block page of 8/16/32/64-bit values (integers, and floats by
 * their bits, as Lance does) and compresses it: {@code Rle} when runs are long, inline bit-packing
 * when the values leave high bits unused, or nothing ({@code Flat}).
 *
 * <p>lance-core 7.0.0 picks RLE when there are fewer runs than half the values, else bit-packing
 * unless some 1024-value block needs every bit (or the page is too small for a block to pay off),
 * else Flat. Javelin computes what each would cost and takes the smallest, which agrees with Lance
 * wherever Lance's rule is right and is never larger.
 */
final class FixedCompression {
  private static final int BLOCK = 1024;

  private FixedCompression() {}

  /** The compressed chunks, or null when Flat is smallest. {@code bits} is 8, 16, 32 or 64. */
  static ChunkedValues choose(byte[] raw, int bits, int count) {
    if (count == 0) {
      return null;
    }
    ByteBuffer buf = ByteBuffer.wrap(raw, 0, count * (bits / 8)).order(ByteOrder.LITTLE_ENDIAN);
    switch (bits) {
      case 8: {
        byte[] v = Arrays.copyOf(raw, count);
        Costs c = costs8(v, count);
        return c.pick() == Pick.RLE ? rle(RleCodec.encode(v, 0, count), 8)
            : c.pick() == Pick.BITPACK ? bitpack(InlineBitpackingCodec.encode(v, 0, count), 8) : null;
      }
      case 16: {
        short[] v = new short[count];
        buf.asShortBuffer().get(v);
        Costs c = costs16(v, count);
        return c.pick() == Pick.RLE ? rle(RleCodec.encode(v, 0, count), 16)
            : c.pick() == Pick.BITPACK ? bitpack(InlineBitpackingCodec.encode(v, 0, count), 16) : null;
      }
      case 32: {
        // Costed and bit-packed straight from the page's bytes: a copy of the page as an int[]
        // (megabytes, per column per file) is made only for RLE.
        Costs c = costs32(raw, count);
        if (c.pick() == Pick.RLE) {
          int[] v = new int[count];
          buf.asIntBuffer().get(v);
          return rle(RleCodec.encode(v, 0, count), 32);
        }
        return c.pick() == Pick.BITPACK ? bitpack(InlineBitpackingCodec.encode32(raw, count, c.widths), 32) : null;
      }
      case 64: {
        Costs c = costs64(raw, count);
        if (c.pick() == Pick.RLE) {
          long[] v = new long[count];
          buf.asLongBuffer().get(v);
          return rle(RleCodec.encode(v, 0, count), 64);
        }
        return c.pick() == Pick.BITPACK ? bitpack(InlineBitpackingCodec.encode64(raw, count, c.widths), 64) : null;
      }
      default:
        return null;
    }
  }

  /** As {@link #choose(byte[], int, int)} for 32-bit values held as ints. */
  static ChunkedValues choose(int[] v, int count) {
    if (count == 0) {
      return null;
    }
    Costs c = costs32(v, count);
    return c.pick() == Pick.RLE ? rle(RleCodec.encode(v, 0, count), 32)
        : c.pick() == Pick.BITPACK ? bitpack(InlineBitpackingCodec.encode(v, 0, count), 32) : null;
  }

  private static ChunkedValues rle(MiniBlockChunks chunks, int bits) {
    return new CodecChunks(chunks, CompressionProtos.rle(bits));
  }

  private static ChunkedValues bitpack(MiniBlockChunks chunks, int bits) {
    return new CodecChunks(chunks, CompressionProtos.inlineBitpacking(bits));
  }

  enum Pick {
    FLAT,
    BITPACK,
    RLE
  }

  /**
   * The byte cost of each encoding for one page. RLE's is exact only when RLE is the cheapest:
   * counting its runs stops once it cannot be.
   */
  static final class Costs {
    final int bits;
    final long flat;
    long bitpack;
    long rle;
    /** The bit width of each 1024-value block, when costed from bytes. */
    int[] widths;

    Costs(int bits, int count) {
      this.bits = bits;
      this.flat = (long) count * (bits / 8);
    }

    void addBlock(int width) {
      bitpack += InlineBitpackingCodec.chunkBytes(bits, width);
    }

    // A run of n values costs one value and one length byte per 255 values.
    void addRun(int n) {
      rle += (long) ((n + 254) / 255) * (bits / 8 + 1);
    }

    Pick pick() {
      if (rle < bitpack && rle < flat) {
        return Pick.RLE;
      }
      return bitpack < flat ? Pick.BITPACK : Pick.FLAT;
    }
  }

  private static int width(long or, int bits) {
    return or == 0 ? 0 : 64 - Long.numberOfLeadingZeros(or);
  }

  static Costs costs8(byte[] v, int count) {
    Costs c = new Costs(8, count);
    for (int s = 0; s < count; s += BLOCK) {
      int e = Math.min(count, s + BLOCK);
      int or = 0;
      for (int i = s; i < e; i++) {
        or |= v[i] & 0xFF;
      }
      c.addBlock(width(or, 8));
    }
    // RLE wins only below both other costs: stop counting runs once it cannot.
    long limit = Math.min(c.bitpack, c.flat);
    int run = 1;
    for (int i = 1; i < count; i++) {
      if (v[i] == v[i - 1]) {
        run++;
      } else {
        c.addRun(run);
        run = 1;
        if (c.rle >= limit) {
          return c;
        }
      }
    }
    c.addRun(run);
    return c;
  }

  static Costs costs16(short[] v, int count) {
    Costs c = new Costs(16, count);
    for (int s = 0; s < count; s += BLOCK) {
      int e = Math.min(count, s + BLOCK);
      int or = 0;
      for (int i = s; i < e; i++) {
        or |= v[i] & 0xFFFF;
      }
      c.addBlock(width(or, 16));
    }
    // RLE wins only below both other costs: stop counting runs once it cannot.
    long limit = Math.min(c.bitpack, c.flat);
    int run = 1;
    for (int i = 1; i < count; i++) {
      if (v[i] == v[i - 1]) {
        run++;
      } else {
        c.addRun(run);
        run = 1;
        if (c.rle >= limit) {
          return c;
        }
      }
    }
    c.addRun(run);
    return c;
  }

  static Costs costs32(int[] v, int count) {
    Costs c = new Costs(32, count);
    for (int s = 0; s < count; s += BLOCK) {
      int e = Math.min(count, s + BLOCK);
      long or = 0;
      for (int i = s; i < e; i++) {
        or |= v[i] & 0xFFFFFFFFL;
      }
      c.addBlock(width(or, 32));
    }
    // RLE wins only below both other costs: stop counting runs once it cannot.
    long limit = Math.min(c.bitpack, c.flat);
    int run = 1;
    for (int i = 1; i < count; i++) {
      if (v[i] == v[i - 1]) {
        run++;
      } else {
        c.addRun(run);
        run = 1;
        if (c.rle >= limit) {
          return c;
        }
      }
    }
    c.addRun(run);
    return c;
  }

  private static final VarHandle LE_LONGS = MethodHandles.byteArrayViewVarHandle(
      long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LE_INTS = MethodHandles.byteArrayViewVarHandle(
      int[].class, ByteOrder.LITTLE_ENDIAN);

  /** As {@link #costs64(long[], int)} for values stored little-endian in {@code raw}; keeps the block widths. */
  static Costs costs64(byte[] raw, int count) {
    Costs c = new Costs(64, count);
    c.widths = new int[(count + BLOCK - 1) / BLOCK];
    for (int s = 0, b = 0; s < count; s += BLOCK, b++) {
      int e = Math.min(count, s + BLOCK);
      long or = 0;
      for (int i = s; i < e; i++) {
        or |= (long) LE_LONGS.get(raw, 8 * i);
      }
      c.widths[b] = width(or, 64);
      c.addBlock(c.widths[b]);
    }
    long limit = Math.min(c.bitpack, c.flat);
    int run = 1;
    long prev = (long) LE_LONGS.get(raw, 0);
    for (int i = 1; i < count; i++) {
      long v = (long) LE_LONGS.get(raw, 8 * i);
      if (v == prev) {
        run++;
      } else {
        c.addRun(run);
        run = 1;
        prev = v;
        if (c.rle >= limit) {
          return c;
        }
      }
    }
    c.addRun(run);
    return c;
  }

  /** As {@link #costs32(int[], int)} for values stored little-endian in {@code raw}; keeps the block widths. */
  static Costs costs32(byte[] raw, int count) {
    Costs c = new Costs(32, count);
    c.widths = new int[(count + BLOCK - 1) / BLOCK];
    for (int s = 0, b = 0; s < count; s += BLOCK, b++) {
      int e = Math.min(count, s + BLOCK);
      long or = 0;
      for (int i = s; i < e; i++) {
        or |= (int) LE_INTS.get(raw, 4 * i) & 0xFFFFFFFFL;
      }
      c.widths[b] = width(or, 32);
      c.addBlock(c.widths[b]);
    }
    long limit = Math.min(c.bitpack, c.flat);
    int run = 1;
    int prev = (int) LE_INTS.get(raw, 0);
    for (int i = 1; i < count; i++) {
      int v = (int) LE_INTS.get(raw, 4 * i);
      if (v == prev) {
        run++;
      } else {
        c.addRun(run);
        run = 1;
        prev = v;
        if (c.rle >= limit) {
          return c;
        }
      }
    }
    c.addRun(run);
    return c;
  }

  static Costs costs64(long[] v, int count) {
    Costs c = new Costs(64, count);
    for (int s = 0; s < count; s += BLOCK) {
      int e = Math.min(count, s + BLOCK);
      long or = 0;
      for (int i = s; i < e; i++) {
        or |= v[i];
      }
      c.addBlock(width(or, 64));
    }
    // RLE wins only below both other costs: stop counting runs once it cannot.
    long limit = Math.min(c.bitpack, c.flat);
    int run = 1;
    for (int i = 1; i < count; i++) {
      if (v[i] == v[i - 1]) {
        run++;
      } else {
        c.addRun(run);
        run = 1;
        if (c.rle >= limit) {
          return c;
        }
      }
    }
    c.addRun(run);
    return c;
  }
}
