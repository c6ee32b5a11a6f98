package dev.javelin.format.internal.v21;

import dev.javelin.format.internal.compression.bitpack.OutOfLineBitpackingCodec;
import dev.javelin.format.internal.encoding.ByteBuilder;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;

/**
 * Writes a mini-block chunk's repetition or definition levels: plain u16 values, bit-packed at
 * one width for the whole page ({@code OutOfLineBitpacking} over 16-bit values, each chunk's
 * levels packed on their own, as lance-core writes them), or, in format 2.2, run-length encoded
 * when the page's levels have fewer runs than half their count (as lance-core 7.0.0 chooses for
 * 2.2). A run-length block is {@code u64 bytes of run values | u16 run values | u8 run lengths},
 * runs longer than 255 split.
 */
final class LevelEncoder {
  private static final LevelEncoder FLAT = new LevelEncoder(0);
  private static final LevelEncoder RLE = new LevelEncoder(-1);
  private static final int MAX_RUN = 255;
  /** 0: plain u16; -1: run-length; else the bit width. */
  private final int width;

  private LevelEncoder(int width) {
    this.width = width;
  }

  static LevelEncoder flat() {
    return FLAT;
  }

  /** Bit-packs at the width of the widest level of the page, unless that saves nothing. */
  static LevelEncoder forLevels(short[] levels, int count) {
    return forLevels(levels, count, false);
  }

  /**
   * As {@link #forLevels(short[], int)}; with {@code runLength} (format 2.2) run-length encodes
   * levels with fewer runs than half their count.
   */
  static LevelEncoder forLevels(short[] levels, int count, boolean runLength) {
    if (runLength && count > 0) {
      long runs = 1;
      for (int i = 1; i < count; i++) {
        if (levels[i] != levels[i - 1]) {
          runs++;
        }
      }
      if (2 * runs < count) {
        return RLE;
      }
    }
    int or = 0;
    for (int i = 0; i < count; i++) {
      or |= levels[i];
    }
    int w = 32 - Integer.numberOfLeadingZeros(or & 0xFFFF);
    return w == 0 || w >= 16 ? FLAT : new LevelEncoder(w);
  }

  CompressiveEncoding encoding() {
    if (width == -1) {
      return CompressionProtos.rle(16);
    }
    return width == 0 ? Protos21.flat(16) : CompressionProtos.outOfLineBitpacking(16, width);
  }

  /** The bytes levels [from, to) take. */
  long size(short[] levels, int from, int to) {
    int count = to - from;
    if (width == -1) {
      return count == 0 ? 0 : 8 + 3L * runEntries(levels, from, to);
    }
    return width == 0 ? 2L * count : OutOfLineBitpackingCodec.encodedBytes(16, width, count);
  }

  void write(short[] levels, int from, int to, ByteBuilder out) {
    if (width == -1) {
      writeRuns(levels, from, to, out);
    } else if (width == 0) {
      for (int i = from; i < to; i++) {
        out.appendShort(levels[i]);
      }
    } else {
      byte[] packed = OutOfLineBitpackingCodec.encode(levels, from, to - from, width);
      out.append(packed, 0, packed.length);
    }
  }

  // Run entries of levels [from, to): one per run, and one more per further 255 levels of a run.
  private static long runEntries(short[] levels, int from, int to) {
    long entries = 0;
    int i = from;
    while (i < to) {
      int j = i + 1;
      while (j < to && levels[j] == levels[i]) {
        j++;
      }
      entries += (j - i + MAX_RUN - 1) / MAX_RUN;
      i = j;
    }
    return entries;
  }

  private static void writeRuns(short[] levels, int from, int to, ByteBuilder out) {
    if (from == to) {
      return;
    }
    long entries = runEntries(levels, from, to);
    for (int k = 0; k < 8; k++) {
      out.append((byte) ((2 * entries) >>> (8 * k)));
    }
    int i = from;
    while (i < to) {
      int j = i + 1;
      while (j < to && levels[j] == levels[i]) {
        j++;
      }
      for (int left = j - i; left > 0; left -= MAX_RUN) {
        out.appendShort(levels[i]);
      }
      i = j;
    }
    i = from;
    while (i < to) {
      int j = i + 1;
      while (j < to && levels[j] == levels[i]) {
        j++;
      }
      for (int left = j - i; left > 0; left -= MAX_RUN) {
        out.append((byte) Math.min(left, MAX_RUN));
      }
      i = j;
    }
  }
}
