package dev.javelin.format.internal.compression.bitpack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Packing from a page's little-endian bytes gives the chunks packing from an array gives. */
class InlineBitpackingFromBytesTest {
  private static int[] widths64(long[] v) {
    int n = (v.length + 1023) / 1024;
    int[] w = new int[n];
    for (int c = 0; c < n; c++) {
      w[c] = FastLanes.bitWidth(v, c * 1024, Math.min(1024, v.length - c * 1024));
    }
    return w;
  }

  private static void assertSame(MiniBlockChunks a, MiniBlockChunks b) {
    assertThat(b.numChunks()).isEqualTo(a.numChunks());
    assertThat(b.buffer(0)).isEqualTo(a.buffer(0));
    for (int c = 0; c < a.numChunks(); c++) {
      assertThat(b.chunkNumValues(c)).isEqualTo(a.chunkNumValues(c));
      assertThat(b.chunkBufferSize(c, 0)).isEqualTo(a.chunkBufferSize(c, 0));
    }
  }

  @Test
  void sixtyFourBit() {
    Random r = new Random(3);
    for (int len : new int[] {1, 1023, 1024, 1025, 5000}) {
      long[] v = new long[len];
      for (int i = 0; i < len; i++) {
        v[i] = r.nextLong() >>> (i / 1024 * 13 % 64);
      }
      byte[] le = new byte[8 * len + 5]; // longer than the values: only len are read
      ByteBuffer.wrap(le).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().put(v);
      assertSame(InlineBitpackingCodec.encode(v, 0, len), InlineBitpackingCodec.encode64(le, len, widths64(v)));
    }
  }

  @Test
  void thirtyTwoBit() {
    Random r = new Random(4);
    for (int len : new int[] {1, 1024, 3001}) {
      int[] v = new int[len];
      int[] w = new int[(len + 1023) / 1024];
      for (int i = 0; i < len; i++) {
        v[i] = r.nextInt() >>> (i / 1024 * 11 % 32);
      }
      for (int c = 0; c < w.length; c++) {
        w[c] = FastLanes.bitWidth(v, c * 1024, Math.min(1024, len - c * 1024));
      }
      byte[] le = new byte[4 * len];
      ByteBuffer.wrap(le).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(v);
      assertSame(InlineBitpackingCodec.encode(v, 0, len), InlineBitpackingCodec.encode32(le, len, w));
    }
  }

  @Test
  void aWrongWidthIsRejected() {
    long[] v = {1, 2, 300};
    byte[] le = new byte[24];
    ByteBuffer.wrap(le).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().put(v);
    assertThatThrownBy(() -> InlineBitpackingCodec.encode64(le, 3, new int[] {8}))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("Chunk 0 needs 9 bits, not the 8 given");
    assertThatThrownBy(() -> InlineBitpackingCodec.encode64(le, 3, new int[] {9, 9}))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("Need 1 chunk widths, got 2");
  }
}
