package dev.javelin.format.internal.compression.bitpack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ByteStreamSplitCodecTest {
  @Test
  void splitsBytesByPositionLikeTheLanceExample() {
    ByteBuffer in = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
    in.putFloat(1f).putFloat(2f).putFloat(3f).putFloat(4f);
    MiniBlockChunks m = ByteStreamSplitCodec.encode(in.array(), 0, 4, 32);
    assertThat(m.buffer(0)).containsExactly(
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x80, 0x00, 0x40, 0x80, 0x3F, 0x40, 0x40, 0x40);
    byte[] out = new byte[16];
    ByteStreamSplitCodec.decodeChunk(ByteBuffer.wrap(m.buffer(0)), 4, 32, out, 0);
    assertThat(out).isEqualTo(in.array());
  }

  @Test
  void roundTripsChunkByChunk() {
    SplittableRandom rnd = new SplittableRandom(1);
    for (int bits : new int[] {16, 32, 64}) {
      int bytes = bits / 8;
      int max = ByteStreamSplitCodec.maxChunkValues(bits);
      assertThat(max * bytes).isEqualTo(4096);
      for (int n : new int[] {0, 1, 511, 512, 513, 1023, 1024, 1025, 5000}) {
        byte[] data = new byte[n * bytes + 3];
        rnd.nextBytes(data);
        MiniBlockChunks m = ByteStreamSplitCodec.encode(data, 3, n, bits);
        assertThat(m.numChunks()).isEqualTo((n + max - 1) / max);
        byte[] out = new byte[n * bytes];
        int pos = 0;
        for (int c = 0; c < m.numChunks(); c++) {
          int k = (int) m.chunkNumValues(c);
          boolean last = c == m.numChunks() - 1;
          assertThat(m.chunkLogNumValues(c)).isEqualTo(last ? 0 : Integer.numberOfTrailingZeros(max));
          assertThat(k).isEqualTo(last ? n - c * max : max);
          ByteBuffer target = ByteBuffer.wrap(out, pos, k * bytes).slice();
          ByteStreamSplitCodec.decodeChunk(Lane.slice(m, c, 0), k, bits, target);
          assertThat(target.remaining()).isZero();
          pos += k * bytes;
        }
        assertThat(out).as("%d values of %d bits", n, bits).isEqualTo(Arrays.copyOfRange(data, 3, 3 + n * bytes));
      }
    }
  }

  @Test
  void decodesFromADirectBuffer() {
    byte[] data = new byte[8 * 10];
    new SplittableRandom(2).nextBytes(data);
    MiniBlockChunks m = ByteStreamSplitCodec.encode(data, 0, 10, 64);
    ByteBuffer direct = ByteBuffer.allocateDirect(80).put(m.buffer(0)).flip();
    ByteBuffer out = ByteBuffer.allocateDirect(80);
    ByteStreamSplitCodec.decodeChunk(direct, 10, 64, out);
    byte[] back = new byte[80];
    out.flip().get(back);
    assertThat(back).isEqualTo(data);
  }

  @Test
  void rejectsMalformedInput() {
    assertThatThrownBy(() -> ByteStreamSplitCodec.decodeChunk(ByteBuffer.allocate(15), 4, 32, new byte[16], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("byte stream split: chunk of 4 32-bit values must be 16 bytes, got 15");
    assertThatThrownBy(() -> ByteStreamSplitCodec.decodeChunk(ByteBuffer.allocate(16), 4, 32, new byte[15], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("output");
    assertThatThrownBy(() -> ByteStreamSplitCodec.decodeChunk(ByteBuffer.allocate(4), 4, 8, new byte[4], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unsupported value width 8 bits (expected 16, 32 or 64)");
    assertThatThrownBy(() -> ByteStreamSplitCodec.decodeChunk(ByteBuffer.allocate(4), -1, 32, new byte[4], 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ByteStreamSplitCodec.decodeChunk(ByteBuffer.allocate(0), Integer.MAX_VALUE, 64,
        new byte[4], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("do not fit one array");
    assertThatThrownBy(() -> ByteStreamSplitCodec.encode(new byte[10], 0, 3, 32))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
