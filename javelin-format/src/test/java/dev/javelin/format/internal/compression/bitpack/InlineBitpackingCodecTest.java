package dev.javelin.format.internal.compression.bitpack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class InlineBitpackingCodecTest {
  private static final int[] LENGTHS = {0, 1, 1023, 1024, 1025, 5000};

  /** Decodes every chunk of an encoded page and checks the framing on the way. */
  static long[] decodeAll(Lane lane, MiniBlockChunks m) {
    long[] out = new long[(int) m.numValues()];
    int pos = 0;
    for (int c = 0; c < m.numChunks(); c++) {
      int n = (int) m.chunkNumValues(c);
      ByteBuffer chunk = Lane.slice(m, c, 0);
      int width = InlineBitpackingCodec.chunkBitWidth(chunk, lane.bits);
      assertThat(m.chunkBufferSize(c, 0)).isEqualTo(InlineBitpackingCodec.chunkBytes(lane.bits, width));
      assertThat(m.chunkLogNumValues(c)).isEqualTo(c == m.numChunks() - 1 ? 0 : 10);
      System.arraycopy(lane.decodeInlineChunk(chunk, n), 0, out, pos, n);
      pos += n;
    }
    assertThat(pos).isEqualTo(out.length);
    return out;
  }

  @ParameterizedTest
  @EnumSource(Lane.class)
  void roundTripsEveryLengthAndBitWidth(Lane lane) {
    SplittableRandom rnd = new SplittableRandom(lane.bits * 31L);
    for (int len : LENGTHS) {
      for (int w = 0; w <= lane.bits; w++) {
        long[] values = lane.random(rnd, len, w);
        MiniBlockChunks m = lane.encodeInline(values);
        assertThat(m.numValues()).isEqualTo(len);
        assertThat(m.numChunks()).isEqualTo((len + 1023) / 1024);
        assertThat(decodeAll(lane, m)).as("%s, %d values of %d bits", lane, len, w).isEqualTo(values);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Lane.class)
  void eachChunkGetsItsOwnBitWidth(Lane lane) {
    SplittableRandom rnd = new SplittableRandom(5);
    int[] widths = {0, lane.bits, 1, lane.bits / 2, 3};
    long[] values = new long[4 * 1024 + 100];
    for (int c = 0; c < widths.length; c++) {
      int n = Math.min(1024, values.length - c * 1024);
      System.arraycopy(lane.random(rnd, n, widths[c]), 0, values, c * 1024, n);
    }
    MiniBlockChunks m = lane.encodeInline(values);
    assertThat(m.numChunks()).isEqualTo(5);
    for (int c = 0; c < 5; c++) {
      assertThat(InlineBitpackingCodec.chunkBitWidth(Lane.slice(m, c, 0), lane.bits)).isEqualTo(widths[c]);
    }
    assertThat(decodeAll(lane, m)).isEqualTo(values);
    // The last chunk holds 100 values, 0..7 wide
    assertThat(m.chunkNumValues(4)).isEqualTo(100);
  }

  @Test
  void chunkStartsWithALittleEndianWidthWordAndPadsTheLastBlockWithZeros() {
    int[] values = new int[1030];
    Arrays.fill(values, 5);
    MiniBlockChunks m = InlineBitpackingCodec.encode(values, 0, values.length);
    ByteBuffer last = Lane.slice(m, 1, 0).order(ByteOrder.LITTLE_ENDIAN);
    assertThat(last.getInt(0)).isEqualTo(3);
    assertThat(last.remaining()).isEqualTo(4 + 3 * 128);
    // Decoding the whole block shows the padding: 6 fives, then zeros.
    int[] block = new int[1024];
    InlineBitpackingCodec.decodeChunk(last, 1024, block, 0);
    assertThat(Arrays.copyOf(block, 6)).containsOnly(5);
    assertThat(Arrays.copyOfRange(block, 6, 1024)).containsOnly(0);
  }

  @Test
  void decodesIntoALittleEndianByteBuffer() {
    SplittableRandom rnd = new SplittableRandom(11);
    for (Lane lane : Lane.values()) {
      long[] values = lane.random(rnd, 700, lane.bits - 1);
      MiniBlockChunks m = lane.encodeInline(values);
      ByteBuffer out = ByteBuffer.allocate(3 + 700 * lane.bytes()).order(ByteOrder.BIG_ENDIAN);
      out.position(3);
      InlineBitpackingCodec.decodeChunk(Lane.slice(m, 0, 0), 700, lane.bits, out);
      assertThat(out.position()).isEqualTo(out.capacity());
      out.position(3);
      assertThat(lane.fromLe(out, 700)).isEqualTo(values);
    }
  }

  @Test
  void decodeLeavesTheInputPositionAlone() {
    MiniBlockChunks m = InlineBitpackingCodec.encode(new long[] {1, 2, 3}, 0, 3);
    ByteBuffer chunk = Lane.slice(m, 0, 0);
    long[] out = new long[3];
    InlineBitpackingCodec.decodeChunk(chunk, 3, out, 0);
    InlineBitpackingCodec.decodeChunk(chunk, 3, out, 0);
    assertThat(out).containsExactly(1, 2, 3);
    assertThat(chunk.position()).isZero();
  }

  @Test
  void encodesAtAnOffset() {
    short[] values = new short[2000];
    for (int i = 0; i < values.length; i++) {
      values[i] = (short) (i % 77);
    }
    MiniBlockChunks m = InlineBitpackingCodec.encode(values, 500, 1100);
    short[] out = new short[1100];
    InlineBitpackingCodec.decodeChunk(Lane.slice(m, 0, 0), 1024, out, 0);
    InlineBitpackingCodec.decodeChunk(Lane.slice(m, 1, 0), 76, out, 1024);
    assertThat(out).isEqualTo(Arrays.copyOfRange(values, 500, 1600));
  }

  @Test
  void emptyPageHasNoChunks() {
    MiniBlockChunks m = InlineBitpackingCodec.encode(new int[0], 0, 0);
    assertThat(m.numChunks()).isZero();
    assertThat(m.numBuffers()).isZero();
  }

  // ---------------------------------------------------------------- malformed input

  private static ByteBuffer chunk(int... bytes) {
    ByteBuffer b = ByteBuffer.allocate(bytes.length);
    for (int x : bytes) {
      b.put((byte) x);
    }
    return b.flip();
  }

  @Test
  void rejectsAWidthWiderThanTheValues() {
    ByteBuffer c = ByteBuffer.allocate(4 + 33 * 128).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 33);
    assertThatThrownBy(() -> InlineBitpackingCodec.decodeChunk(c, 10, new int[10], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("inline bitpacking: chunk declares bit width 33, more than the 32-bit value width");
    ByteBuffer huge = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, -1L);
    assertThatThrownBy(() -> InlineBitpackingCodec.decodeChunk(huge, 10, new long[10], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bit width 18446744073709551615");
    assertThatThrownBy(() -> InlineBitpackingCodec.decodeChunk(chunk(9), 1, new byte[1], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bit width 9, more than the 8-bit value width");
  }

  @Test
  void rejectsAChunkOfTheWrongSize() {
    assertThatThrownBy(() -> InlineBitpackingCodec.decodeChunk(chunk(3, 0), 10, new short[10], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("inline bitpacking: chunk of 16-bit values packed at 3 bits must be 386 bytes, got 2");
    assertThatThrownBy(() -> InlineBitpackingCodec.decodeChunk(chunk(1, 0, 0), 10, new int[10], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("inline bitpacking: chunk of 3 bytes is too short for its 4-byte bit width word");
    ByteBuffer tooLong = ByteBuffer.allocate(4 + 128 + 1).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 1);
    assertThatThrownBy(() -> InlineBitpackingCodec.decodeChunk(tooLong, 10, new int[10], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must be 132 bytes, got 133");
  }

  @Test
  void rejectsBadCountsAndOutputs() {
    ByteBuffer empty = chunk(0, 0, 0, 0);
    assertThatThrownBy(() -> InlineBitpackingCodec.decodeChunk(empty, 1025, new int[2000], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a chunk holds 0..1024 values, asked for 1025");
    assertThatThrownBy(() -> InlineBitpackingCodec.decodeChunk(empty, -1, new int[2000], 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> InlineBitpackingCodec.decodeChunk(empty, 10, new int[9], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("output");
    assertThatThrownBy(() -> InlineBitpackingCodec.decodeChunk(empty, 10, 32, ByteBuffer.allocate(39)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("output buffer has 39 bytes left, 40 needed");
    assertThatThrownBy(() -> InlineBitpackingCodec.decodeChunk(empty, 10, 24, ByteBuffer.allocate(40)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unsupported value width 24");
    assertThatThrownBy(() -> InlineBitpackingCodec.encode(new int[5], 3, 3))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
