package dev.javelin.format.v21;

import dev.javelin.format.compression.bitpack.OutOfLineBitpackingCodec;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;

/**
 * Writes a mini-block chunk's repetition or definition levels: plain u16 values, or bit-packed at
 * one width for the whole page ({@code OutOfLineBitpacking} over 16-bit values, each chunk's
 * levels packed on their own, as lance-core writes them).
 */
final class LevelEncoder {
  private static final LevelEncoder FLAT = new LevelEncoder(0);
  /** 0: plain u16. */
  private final int width;

  private LevelEncoder(int width) {
    this.width = width;
  }

  static LevelEncoder flat() {
    return FLAT;
  }

  /** Bit-packs at the width of the widest level of the page, unless that saves nothing. */
  static LevelEncoder forLevels(short[] levels, int count) {
    int or = 0;
    for (int i = 0; i < count; i++) {
      or |= levels[i];
    }
    int w = 32 - Integer.numberOfLeadingZeros(or & 0xFFFF);
    return w == 0 || w >= 16 ? FLAT : new LevelEncoder(w);
  }

  CompressiveEncoding encoding() {
    return width == 0 ? Protos21.flat(16) : CompressionProtos.outOfLineBitpacking(16, width);
  }

  /** The bytes {@code count} levels take. */
  long size(int count) {
    return width == 0 ? 2L * count : OutOfLineBitpackingCodec.encodedBytes(16, width, count);
  }

  void write(short[] levels, int from, int to, ByteBuilder out) {
    if (width == 0) {
      for (int i = from; i < to; i++) {
        out.appendShort(levels[i]);
      }
    } else {
      byte[] packed = OutOfLineBitpackingCodec.encode(levels, from, to - from, width);
      out.append(packed, 0, packed.length);
    }
  }
}
