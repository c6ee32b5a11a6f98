package dev.javelin.format.internal.compression.bitpack;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

/**
 * One lane width, so tests can run the same checks on byte/short/int/long codecs. Values travel as
 * {@code long[]} holding the unsigned bit patterns.
 */
enum Lane {
  U8(8), U16(16), U32(32), U64(64);

  final int bits;

  Lane(int bits) {
    this.bits = bits;
  }

  int bytes() {
    return bits / 8;
  }

  long mask() {
    return bits == 64 ? -1L : (1L << bits) - 1;
  }

  static long maskOf(int width) {
    return width == 64 ? -1L : (1L << width) - 1;
  }

  /** {@code n} random values of at most {@code width} bits; with {@code exact}, at least one needs all of them. */
  long[] random(SplittableRandom rnd, int n, int width) {
    long[] v = new long[n];
    for (int i = 0; i < n; i++) {
      v[i] = rnd.nextLong() & maskOf(width);
    }
    if (n > 0 && width > 0) {
      v[rnd.nextInt(n)] |= 1L << (width - 1);
    }
    return v;
  }

  Object toArray(long[] v) {
    int n = v.length;
    switch (this) {
      case U8: {
        byte[] a = new byte[n];
        for (int i = 0; i < n; i++) {
          a[i] = (byte) v[i];
        }
        return a;
      }
      case U16: {
        short[] a = new short[n];
        for (int i = 0; i < n; i++) {
          a[i] = (short) v[i];
        }
        return a;
      }
      case U32: {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
          a[i] = (int) v[i];
        }
        return a;
      }
      default:
        return v.clone();
    }
  }

  long[] fromArray(Object a) {
    switch (this) {
      case U8: {
        byte[] b = (byte[]) a;
        long[] v = new long[b.length];
        for (int i = 0; i < b.length; i++) {
          v[i] = b[i] & 0xFFL;
        }
        return v;
      }
      case U16: {
        short[] b = (short[]) a;
        long[] v = new long[b.length];
        for (int i = 0; i < b.length; i++) {
          v[i] = b[i] & 0xFFFFL;
        }
        return v;
      }
      case U32: {
        int[] b = (int[]) a;
        long[] v = new long[b.length];
        for (int i = 0; i < b.length; i++) {
          v[i] = b[i] & 0xFFFFFFFFL;
        }
        return v;
      }
      default:
        return ((long[]) a).clone();
    }
  }

  Object newArray(int n) {
    switch (this) {
      case U8: return new byte[n];
      case U16: return new short[n];
      case U32: return new int[n];
      default: return new long[n];
    }
  }

  /** Little-endian bytes of the values. */
  byte[] le(long[] v) {
    ByteBuffer b = ByteBuffer.allocate(v.length * bytes()).order(ByteOrder.LITTLE_ENDIAN);
    for (long x : v) {
      switch (this) {
        case U8: b.put((byte) x); break;
        case U16: b.putShort((short) x); break;
        case U32: b.putInt((int) x); break;
        default: b.putLong(x); break;
      }
    }
    return b.array();
  }

  long[] fromLe(ByteBuffer buf, int n) {
    ByteBuffer b = buf.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    long[] v = new long[n];
    for (int i = 0; i < n; i++) {
      int p = b.position() + i * bytes();
      switch (this) {
        case U8: v[i] = b.get(p) & 0xFFL; break;
        case U16: v[i] = b.getShort(p) & 0xFFFFL; break;
        case U32: v[i] = b.getInt(p) & 0xFFFFFFFFL; break;
        default: v[i] = b.getLong(p); break;
      }
    }
    return v;
  }

  // ---------------------------------------------------------------- codec dispatch

  void pack(int w, long[] in, long[] out) {
    Object a = toArray(in);
    Object o = newArray(out.length);
    switch (this) {
      case U8: FastLanes.pack(w, (byte[]) a, 0, (byte[]) o, 0); break;
      case U16: FastLanes.pack(w, (short[]) a, 0, (short[]) o, 0); break;
      case U32: FastLanes.pack(w, (int[]) a, 0, (int[]) o, 0); break;
      default: FastLanes.pack(w, (long[]) a, 0, (long[]) o, 0); break;
    }
    System.arraycopy(fromArray(o), 0, out, 0, out.length);
  }

  long[] unpack(int w, long[] packed) {
    Object a = toArray(packed);
    Object o = newArray(FastLanes.BLOCK);
    switch (this) {
      case U8: FastLanes.unpack(w, (byte[]) a, 0, (byte[]) o, 0); break;
      case U16: FastLanes.unpack(w, (short[]) a, 0, (short[]) o, 0); break;
      case U32: FastLanes.unpack(w, (int[]) a, 0, (int[]) o, 0); break;
      default: FastLanes.unpack(w, (long[]) a, 0, (long[]) o, 0); break;
    }
    return fromArray(o);
  }

  int bitWidth(long[] v) {
    Object a = toArray(v);
    switch (this) {
      case U8: return FastLanes.bitWidth((byte[]) a, 0, v.length);
      case U16: return FastLanes.bitWidth((short[]) a, 0, v.length);
      case U32: return FastLanes.bitWidth((int[]) a, 0, v.length);
      default: return FastLanes.bitWidth((long[]) a, 0, v.length);
    }
  }

  MiniBlockChunks encodeInline(long[] v) {
    Object a = toArray(v);
    switch (this) {
      case U8: return InlineBitpackingCodec.encode((byte[]) a, 0, v.length);
      case U16: return InlineBitpackingCodec.encode((short[]) a, 0, v.length);
      case U32: return InlineBitpackingCodec.encode((int[]) a, 0, v.length);
      default: return InlineBitpackingCodec.encode((long[]) a, 0, v.length);
    }
  }

  long[] decodeInlineChunk(ByteBuffer chunk, int n) {
    Object o = newArray(n);
    switch (this) {
      case U8: InlineBitpackingCodec.decodeChunk(chunk, n, (byte[]) o, 0); break;
      case U16: InlineBitpackingCodec.decodeChunk(chunk, n, (short[]) o, 0); break;
      case U32: InlineBitpackingCodec.decodeChunk(chunk, n, (int[]) o, 0); break;
      default: InlineBitpackingCodec.decodeChunk(chunk, n, (long[]) o, 0); break;
    }
    return fromArray(o);
  }

  byte[] encodeOutOfLine(long[] v, int width) {
    Object a = toArray(v);
    switch (this) {
      case U8: return OutOfLineBitpackingCodec.encode((byte[]) a, 0, v.length, width);
      case U16: return OutOfLineBitpackingCodec.encode((short[]) a, 0, v.length, width);
      case U32: return OutOfLineBitpackingCodec.encode((int[]) a, 0, v.length, width);
      default: return OutOfLineBitpackingCodec.encode((long[]) a, 0, v.length, width);
    }
  }

  long[] decodeOutOfLine(ByteBuffer in, int n, int width) {
    Object o = newArray(n);
    switch (this) {
      case U8: OutOfLineBitpackingCodec.decode(in, n, width, (byte[]) o, 0); break;
      case U16: OutOfLineBitpackingCodec.decode(in, n, width, (short[]) o, 0); break;
      case U32: OutOfLineBitpackingCodec.decode(in, n, width, (int[]) o, 0); break;
      default: OutOfLineBitpackingCodec.decode(in, n, width, (long[]) o, 0); break;
    }
    return fromArray(o);
  }

  MiniBlockChunks encodeRle(long[] v) {
    Object a = toArray(v);
    switch (this) {
      case U8: return RleCodec.encode((byte[]) a, 0, v.length);
      case U16: return RleCodec.encode((short[]) a, 0, v.length);
      case U32: return RleCodec.encode((int[]) a, 0, v.length);
      default: return RleCodec.encode((long[]) a, 0, v.length);
    }
  }

  long[] decodeRle(ByteBuffer values, ByteBuffer lengths, int n) {
    Object o = newArray(n);
    switch (this) {
      case U8: RleCodec.decode(values, lengths, n, (byte[]) o, 0); break;
      case U16: RleCodec.decode(values, lengths, n, (short[]) o, 0); break;
      case U32: RleCodec.decode(values, lengths, n, (int[]) o, 0); break;
      default: RleCodec.decode(values, lengths, n, (long[]) o, 0); break;
    }
    return fromArray(o);
  }

  /** The part of buffer {@code b} that chunk {@code c} owns. */
  static ByteBuffer slice(MiniBlockChunks m, int c, int b) {
    return ByteBuffer.wrap(m.buffer(b), m.chunkBufferOffset(c, b), m.chunkBufferSize(c, b)).slice();
  }
}
