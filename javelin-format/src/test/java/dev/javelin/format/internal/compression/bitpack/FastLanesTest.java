package dev.javelin.format.internal.compression.bitpack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class FastLanesTest {
  private static final int[] FL_ORDER = {0, 4, 2, 6, 1, 5, 3, 7};

  /**
   * The FastLanes layout written down bit by bit, independently of the kernel: lane {@code l} packs
   * rows {@code r = 0..T-1}, row {@code r} being the value at {@code FL_ORDER[r/8]*16 + (r%8)*128 + l};
   * bit {@code b} of row {@code r} is bit {@code r*W+b} of the lane's bit stream, whose word {@code k}
   * sits at packed index {@code LANES*k + l}.
   */
  static long[] referencePack(int t, int w, long[] values) {
    int lanes = 1024 / t;
    long[] packed = new long[1024 * w / t];
    for (int lane = 0; lane < lanes; lane++) {
      for (int row = 0; row < t; row++) {
        long value = values[FL_ORDER[row / 8] * 16 + (row % 8) * 128 + lane];
        for (int b = 0; b < w; b++) {
          long bit = (value >>> b) & 1;
          int streamBit = row * w + b;
          packed[lanes * (streamBit / t) + lane] |= bit << (streamBit % t);
        }
      }
    }
    return packed;
  }

  @ParameterizedTest
  @EnumSource(Lane.class)
  void packMatchesReferenceForEveryBitWidth(Lane lane) {
    SplittableRandom rnd = new SplittableRandom(lane.bits);
    for (int w = 0; w <= lane.bits; w++) {
      long[] values = lane.random(rnd, 1024, w);
      long[] expected = referencePack(lane.bits, w, values);
      long[] packed = new long[FastLanes.packedWords(lane.bits, w)];
      lane.pack(w, values, packed);
      assertThat(packed).as("pack %s at %d bits", lane, w).isEqualTo(expected);
      assertThat(lane.unpack(w, expected)).as("unpack %s at %d bits", lane, w).isEqualTo(values);
    }
  }

  @ParameterizedTest
  @EnumSource(Lane.class)
  void packKeepsOnlyTheLowBits(Lane lane) {
    SplittableRandom rnd = new SplittableRandom(7);
    long[] wide = lane.random(rnd, 1024, lane.bits);
    for (int w = 0; w < lane.bits; w++) {
      long[] low = wide.clone();
      for (int i = 0; i < low.length; i++) {
        low[i] &= Lane.maskOf(w);
      }
      long[] a = new long[FastLanes.packedWords(lane.bits, w)];
      long[] b = new long[a.length];
      lane.pack(w, wide, a);
      lane.pack(w, low, b);
      assertThat(a).isEqualTo(b);
      assertThat(lane.unpack(w, a)).isEqualTo(low);
    }
  }

  @Test
  void unpackOneReadsEachValueAsTheWholeBlockUnpacks() {
    SplittableRandom r = new SplittableRandom(7);
    for (int w = 0; w <= 64; w++) {
      long[] values = new long[1024];
      for (int i = 0; i < 1024; i++) {
        values[i] = w == 64 ? r.nextLong() : r.nextLong() & ((1L << w) - 1);
      }
      long[] packed = new long[16 * w];
      FastLanes.pack(w, values, 0, packed, 0);
      java.nio.ByteBuffer bytes = java.nio.ByteBuffer.allocate(8 + 8 * packed.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      bytes.putLong(0);
      for (long p : packed) {
        bytes.putLong(p);
      }
      for (int i = 0; i < 1024; i++) {
        assertThat(FastLanes.unpackOne64(bytes.array(), 8, w, i)).as("w=%d i=%d", w, i).isEqualTo(values[i]);
      }
    }
    for (int w = 0; w <= 32; w++) {
      int[] values = new int[1024];
      for (int i = 0; i < 1024; i++) {
        values[i] = w == 32 ? r.nextInt() : r.nextInt() & ((1 << w) - 1);
      }
      int[] packed = new int[32 * w];
      FastLanes.pack(w, values, 0, packed, 0);
      java.nio.ByteBuffer bytes = java.nio.ByteBuffer.allocate(4 * packed.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      for (int p : packed) {
        bytes.putInt(p);
      }
      for (int i = 0; i < 1024; i++) {
        assertThat(FastLanes.unpackOne32(bytes.array(), 0, w, i)).as("w=%d i=%d", w, i).isEqualTo(values[i]);
      }
    }
  }

  @Test
  void packedWordsIsBlockTimesWidthOverType() {
    assertThat(FastLanes.packedWords(8, 3)).isEqualTo(384);
    assertThat(FastLanes.packedWords(16, 16)).isEqualTo(1024);
    assertThat(FastLanes.packedWords(32, 10)).isEqualTo(320);
    assertThat(FastLanes.packedWords(64, 0)).isZero();
    assertThat(FastLanes.packedWords(64, 63)).isEqualTo(1008);
  }

  @Test
  void packWritesEveryOutputWordAndNothingElse() {
    // Output words are assigned, not merged with stale contents; words past the packed size are untouched.
    int[] in = new int[1024];
    for (int i = 0; i < in.length; i++) {
      in[i] = i & 0x7F;
    }
    int[] clean = new int[7 * 32 + 5];
    int[] dirty = new int[clean.length];
    java.util.Arrays.fill(dirty, -1);
    FastLanes.pack(7, in, 0, clean, 0);
    FastLanes.pack(7, in, 0, dirty, 0);
    assertThat(java.util.Arrays.copyOf(dirty, 224)).isEqualTo(java.util.Arrays.copyOf(clean, 224));
    assertThat(java.util.Arrays.copyOfRange(dirty, 224, 229)).containsOnly(-1);
  }

  @Test
  void worksAtOffsets() {
    SplittableRandom rnd = new SplittableRandom(3);
    long[] values = Lane.U32.random(rnd, 1024, 13);
    int[] in = new int[1024 + 17];
    for (int i = 0; i < 1024; i++) {
      in[17 + i] = (int) values[i];
    }
    int[] packed = new int[5 + 13 * 32];
    FastLanes.pack(13, in, 17, packed, 5);
    int[] out = new int[1024 + 9];
    FastLanes.unpack(13, packed, 5, out, 9);
    for (int i = 0; i < 1024; i++) {
      assertThat(out[9 + i] & 0xFFFFFFFFL).isEqualTo(values[i]);
    }
  }

  @Test
  void bitWidthIsUnsigned() {
    assertThat(FastLanes.bitWidth(new int[] {0, 0}, 0, 2)).isZero();
    assertThat(FastLanes.bitWidth(new int[] {1, 2, 4}, 0, 3)).isEqualTo(3);
    assertThat(FastLanes.bitWidth(new int[] {5, -1}, 0, 1)).isEqualTo(3);
    assertThat(FastLanes.bitWidth(new int[] {5, -1}, 0, 2)).isEqualTo(32);
    assertThat(FastLanes.bitWidth(new byte[] {(byte) 0x80}, 0, 1)).isEqualTo(8);
    assertThat(FastLanes.bitWidth(new short[] {(short) 0x8000}, 0, 1)).isEqualTo(16);
    assertThat(FastLanes.bitWidth(new long[] {Long.MIN_VALUE}, 0, 1)).isEqualTo(64);
    assertThat(FastLanes.bitWidth(new long[] {}, 0, 0)).isZero();
  }

  @Test
  void rejectsBadWidthsAndRanges() {
    assertThatThrownBy(() -> FastLanes.pack(33, new int[1024], 0, new int[2048], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bit width 33 is not in 0..32");
    assertThatThrownBy(() -> FastLanes.unpack(-1, new long[1024], 0, new long[1024], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bit width -1");
    assertThatThrownBy(() -> FastLanes.unpack(9, new byte[1024], 0, new byte[1024], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bit width 9 is not in 0..8");
    assertThatThrownBy(() -> FastLanes.unpack(4, new short[255], 0, new short[1024], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("FastLanes input: range [0, 256) does not fit an array of 255 elements");
    assertThatThrownBy(() -> FastLanes.pack(4, new int[1024], 1, new int[128], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("FastLanes input");
    assertThatThrownBy(() -> FastLanes.pack(4, new int[1024], 0, new int[127], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("FastLanes output");
    assertThatThrownBy(() -> FastLanes.packedWords(12, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unsupported value width 12");
    assertThatThrownBy(() -> FastLanes.bitWidth(new int[3], 2, 2))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
