package dev.javelin.format.internal.compression.bitpack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class RleCodecTest {
  private static final int[] LENGTHS = {0, 1, 1023, 1024, 1025, 5000, 20000};

  /** Runs of random lengths in [1, maxRun] with random values of {@code width} bits. */
  static long[] runs(SplittableRandom rnd, int n, int maxRun, int width) {
    long[] v = new long[n];
    int i = 0;
    while (i < n) {
      long value = rnd.nextLong() & Lane.maskOf(width);
      int len = 1 + rnd.nextInt(maxRun);
      for (int j = 0; j < len && i < n; j++) {
        v[i++] = value;
      }
    }
    return v;
  }

  /** Decodes every chunk, checking Lance's chunk rules on the way. */
  static long[] decodeAll(Lane lane, MiniBlockChunks m) {
    long[] out = new long[(int) m.numValues()];
    int pos = 0;
    for (int c = 0; c < m.numChunks(); c++) {
      int n = (int) m.chunkNumValues(c);
      ByteBuffer values = Lane.slice(m, c, 0);
      ByteBuffer lengths = Lane.slice(m, c, 1);
      boolean last = c == m.numChunks() - 1;
      if (!last) {
        assertThat(m.chunkLogNumValues(c)).isBetween(1, 12);
      } else {
        assertThat(m.chunkLogNumValues(c)).isZero();
      }
      assertThat(n).isBetween(1, 4096);
      assertThat(values.remaining() + lengths.remaining()).isLessThanOrEqualTo(8186);
      assertThat(values.remaining()).isEqualTo(lengths.remaining() * lane.bytes());
      int covered = 0;
      for (int i = 0; i < lengths.remaining(); i++) {
        int len = lengths.get(i) & 0xFF;
        assertThat(len).isPositive();
        covered += len;
      }
      assertThat(covered).isGreaterThanOrEqualTo(n);
      if (last) {
        assertThat(covered).isEqualTo(n);
      }
      System.arraycopy(lane.decodeRle(values, lengths, n), 0, out, pos, n);
      pos += n;
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(Lane.class)
  void roundTripsManyShapes(Lane lane) {
    SplittableRandom rnd = new SplittableRandom(lane.bits);
    for (int len : LENGTHS) {
      for (int maxRun : new int[] {1, 3, 50, 700}) {
        for (int width : new int[] {1, lane.bits}) {
          long[] values = runs(rnd, len, maxRun, width);
          MiniBlockChunks m = lane.encodeRle(values);
          assertThat(decodeAll(lane, m)).as("%s len %d runs <= %d", lane, len, maxRun).isEqualTo(values);
        }
      }
    }
  }

  @Test
  void encodesLikeTheLanceExample() {
    MiniBlockChunks m = RleCodec.encode(new int[] {1, 1, 1, 2, 2, 3, 3, 3, 3}, 0, 9);
    assertThat(m.numChunks()).isEqualTo(1);
    assertThat(m.chunkLogNumValues(0)).isZero();
    assertThat(m.buffer(0)).containsExactly(1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0);
    assertThat(m.buffer(1)).containsExactly(3, 2, 4);
  }

  @Test
  void splitsLongRunsInto255s() {
    int[] v = new int[1300];
    java.util.Arrays.fill(v, 0, 1000, 42);
    java.util.Arrays.fill(v, 1000, 1300, 100);
    MiniBlockChunks m = RleCodec.encode(v, 0, v.length);
    assertThat(m.buffer(1)).containsExactly(255, 255, 255, 235, 255, 45);
  }

  @Test
  void cutsAtFourThousandNinetySixValues() {
    int[] v = new int[5000];
    for (int i = 0; i < v.length; i++) {
      v[i] = i / 50;
    }
    MiniBlockChunks m = RleCodec.encode(v, 0, v.length);
    assertThat(m.numChunks()).isEqualTo(2);
    assertThat(m.chunkLogNumValues(0)).isEqualTo(12);
    // The run 81 (values 4050..4099) is cut at 4096: 46 values here, 4 in the next chunk.
    assertThat(m.buffer(1)[81] & 0xFF).isEqualTo(46);
    assertThat(m.buffer(1)[82] & 0xFF).isEqualTo(4);
  }

  @Test
  void fallsBackToACheckpointAndKeepsTheRunThatCrossedIt() {
    // 64-bit runs of 1..3 values cost 9 bytes each: 2048 values need ~9200 bytes, more than 8186.
    SplittableRandom rnd = new SplittableRandom(9);
    long[] v = runs(rnd, 6000, 3, 64);
    MiniBlockChunks m = RleCodec.encode(v, 0, v.length);
    boolean overshoot = false;
    for (int c = 0; c < m.numChunks() - 1; c++) {
      assertThat(m.chunkLogNumValues(c)).isEqualTo(10);
      ByteBuffer lengths = Lane.slice(m, c, 1);
      int covered = 0;
      for (int i = 0; i < lengths.remaining(); i++) {
        covered += lengths.get(i) & 0xFF;
      }
      overshoot |= covered > 1024;
    }
    assertThat(overshoot).as("some chunk's runs reach past its 1024 values").isTrue();
    assertThat(decodeAll(Lane.U64, m)).isEqualTo(v);
  }

  @Test
  void decoderStopsAtTheDeclaredCount() {
    ByteBuffer values = ByteBuffer.wrap(new byte[] {7, 0, 9, 0}).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer lengths = ByteBuffer.wrap(new byte[] {2, (byte) 200});
    short[] out = new short[5];
    RleCodec.decode(values, lengths, 5, out, 0);
    assertThat(out).containsExactly((short) 7, (short) 7, (short) 9, (short) 9, (short) 9);
  }

  @Test
  void decodesIntoALittleEndianByteBuffer() {
    SplittableRandom rnd = new SplittableRandom(4);
    for (Lane lane : Lane.values()) {
      long[] v = runs(rnd, 900, 20, lane.bits);
      MiniBlockChunks m = lane.encodeRle(v);
      ByteBuffer out = ByteBuffer.allocate(900 * lane.bytes());
      RleCodec.decode(Lane.slice(m, 0, 0), Lane.slice(m, 0, 1), 900, lane.bits, out);
      assertThat(lane.fromLe(out.flip(), 900)).isEqualTo(v);
    }
  }

  @Test
  void emptyPageHasNoChunks() {
    assertThat(RleCodec.encode(new long[0], 0, 0).numChunks()).isZero();
    RleCodec.decode(ByteBuffer.allocate(0), ByteBuffer.allocate(0), 0, new int[0], 0);
  }

  @Test
  void rejectsMalformedBuffers() {
    assertThatThrownBy(() -> RleCodec.decode(ByteBuffer.allocate(4), ByteBuffer.allocate(2), 3, new int[3], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("RLE: 1 run values but 2 run lengths");
    assertThatThrownBy(() -> RleCodec.decode(ByteBuffer.allocate(6), ByteBuffer.allocate(1), 3, new int[3], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("RLE: values buffer of 6 bytes is not a whole number of 32-bit values");
    ByteBuffer lengths = ByteBuffer.wrap(new byte[] {2, 0});
    assertThatThrownBy(() -> RleCodec.decode(ByteBuffer.allocate(16), lengths, 3, new long[3], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("RLE: runs cover 2 values, 3 expected");
    assertThatThrownBy(() -> RleCodec.decode(ByteBuffer.allocate(0), ByteBuffer.allocate(0), 1, new byte[1], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("RLE: runs cover 0 values, 1 expected");
    assertThatThrownBy(() -> RleCodec.decode(ByteBuffer.allocate(2), ByteBuffer.allocate(1), 1, new short[0], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("output");
    assertThatThrownBy(() -> RleCodec.decode(ByteBuffer.allocate(2), ByteBuffer.allocate(1), 1, 12,
        ByteBuffer.allocate(8)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unsupported value width 12");
  }
}
