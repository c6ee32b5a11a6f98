package dev.javelin.format.v21;

import dev.javelin.format.compression.bitpack.InlineBitpackingCodec;
import dev.javelin.format.compression.bitpack.MiniBlockChunks;
import dev.javelin.format.compression.bitpack.RleCodec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

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
        byte[] v = java.util.Arrays.copyOf(raw, count);
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
        int[] v = new int[count];
        buf.asIntBuffer().get(v);
        return choose(v, count);
      }
      case 64: {
        long[] v = new long[count];
        buf.asLongBuffer().get(v);
        Costs c = costs64(v, count);
        return c.pick() == Pick.RLE ? rle(RleCodec.encode(v, 0, count), 64)
            : c.pick() == Pick.BITPACK ? bitpack(InlineBitpackingCodec.encode(v, 0, count), 64) : null;
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

  /** The byte cost of each encoding for one page. */
  static final class Costs {
    final int bits;
    final long flat;
    long bitpack;
    long rle;

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
