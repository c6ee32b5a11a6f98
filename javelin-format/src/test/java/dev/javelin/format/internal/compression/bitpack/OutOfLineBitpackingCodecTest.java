package dev.javelin.format.internal.compression.bitpack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class OutOfLineBitpackingCodecTest {
  private static final int[] LENGTHS = {0, 1, 63, 64, 65, 1023, 1024, 1025, 5000};

  @ParameterizedTest
  @EnumSource(Lane.class)
  void roundTripsEveryLengthAndBitWidth(Lane lane) {
    SplittableRandom rnd = new SplittableRandom(lane.bits * 17L);
    for (int len : LENGTHS) {
      for (int w = 0; w <= lane.bits; w++) {
        long[] values = lane.random(rnd, len, w);
        byte[] enc = lane.encodeOutOfLine(values, w);
        assertThat((long) enc.length).isEqualTo(OutOfLineBitpackingCodec.encodedBytes(lane.bits, w, len));
        assertThat(lane.decodeOutOfLine(ByteBuffer.wrap(enc), len, w))
            .as("%s, %d values at %d bits", lane, len, w).isEqualTo(values);
        // A wider width than needed works too.
        if (w < lane.bits) {
          byte[] wider = lane.encodeOutOfLine(values, w + 1);
          assertThat(lane.decodeOutOfLine(ByteBuffer.wrap(wider), len, w + 1)).isEqualTo(values);
        }
      }
    }
  }

  @Test
  void tailIsPackedOnlyWhenPaddingCostsLessThanItSaves() {
    // 16-bit values at 1 bit: a block is 64 words, so a tail of r values is packed when 64 < r.
    assertThat(OutOfLineBitpackingCodec.encodedBytes(16, 1, 1024 + 50)).isEqualTo(2 * (64 + 50));
    assertThat(OutOfLineBitpackingCodec.encodedBytes(16, 1, 1024 + 64)).isEqualTo(2 * (64 + 64));
    assertThat(OutOfLineBitpackingCodec.encodedBytes(16, 1, 1024 + 65)).isEqualTo(2 * (64 + 64));
    assertThat(OutOfLineBitpackingCodec.encodedBytes(16, 1, 880)).isEqualTo(128);
    // Width 0: the tail always packs into nothing.
    assertThat(OutOfLineBitpackingCodec.encodedBytes(32, 0, 5)).isZero();
    // Full width: packing a tail never pays.
    assertThat(OutOfLineBitpackingCodec.encodedBytes(32, 32, 1030)).isEqualTo(4 * 1030);
  }

  @Test
  void rawTailIsThePlainValues() {
    short[] v = new short[1024 + 10];
    for (int i = 0; i < v.length; i++) {
      v[i] = (short) (i % 2);
    }
    byte[] enc = OutOfLineBitpackingCodec.encode(v, 0, v.length, 1);
    ByteBuffer tail = ByteBuffer.wrap(enc, 128, 20).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 10; i++) {
      assertThat(tail.getShort(128 + 2 * i)).isEqualTo((short) (i % 2));
    }
  }

  @Test
  void decodesIntoALittleEndianByteBuffer() {
    SplittableRandom rnd = new SplittableRandom(2);
    for (Lane lane : Lane.values()) {
      long[] values = lane.random(rnd, 3000, 5);
      byte[] enc = lane.encodeOutOfLine(values, 5);
      ByteBuffer out = ByteBuffer.allocate(3000 * lane.bytes());
      OutOfLineBitpackingCodec.decode(ByteBuffer.wrap(enc), 3000, 5, lane.bits, out);
      assertThat(out.remaining()).isZero();
      assertThat(lane.fromLe(out.flip(), 3000)).isEqualTo(values);
    }
  }

  @Test
  void rejectsValuesWiderThanTheWidth() {
    assertThatThrownBy(() -> OutOfLineBitpackingCodec.encode(new int[] {1, 8}, 0, 2, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("out-of-line bitpacking: values need 4 bits, more than the requested bit width 3");
    assertThatThrownBy(() -> OutOfLineBitpackingCodec.encode(new byte[] {1}, 0, 1, 9))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bit width 9 is not in 0..8");
  }

  @Test
  void rejectsBuffersThatDoNotMatchTheCount() {
    ByteBuffer b = ByteBuffer.allocate(2 * 64 + 2 * 50);
    // 1074 values at 1 bit: 228 bytes raw tail, 256 bytes packed tail.
    assertThat(Lane.U16.decodeOutOfLine(b, 1074, 1)).hasSize(1074);
    assertThatThrownBy(() -> Lane.U16.decodeOutOfLine(b, 1075, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("out-of-line bitpacking: 1075 values at 1 bits need 256 bytes (packed tail) or 230 bytes"
            + " (raw tail), got 228");
    assertThatThrownBy(() -> Lane.U16.decodeOutOfLine(b, 2048, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("out-of-line bitpacking: 2048 values at 1 bits need 256 bytes, got 228");
    assertThatThrownBy(() -> Lane.U32.decodeOutOfLine(ByteBuffer.allocate(6), 1, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a whole number of 32-bit words");
    assertThatThrownBy(() -> Lane.U32.decodeOutOfLine(ByteBuffer.allocate(4), 1, 40))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bit width 40 is not in 0..32");
    assertThatThrownBy(() -> OutOfLineBitpackingCodec.decode(ByteBuffer.allocate(4), -1, 3, new int[1], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("negative value count");
    assertThatThrownBy(() -> OutOfLineBitpackingCodec.decode(ByteBuffer.allocate(0), 10, 0, new int[9], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("output");
    assertThatThrownBy(() -> OutOfLineBitpackingCodec.decode(ByteBuffer.allocate(0), Integer.MAX_VALUE, 0, 64,
        ByteBuffer.allocate(16)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("output buffer has 16 bytes left");
  }
}
