package dev.javelin.format.internal.v21;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Costing a page from its bytes picks what costing it from an array picks, with the same
 * bit-packing cost, and RLE's cost is exact whenever RLE is picked.
 */
class FixedCompressionBytesTest {
  @Test
  void bytesAndArraysAgree() {
    Random r = new Random(11);
    for (int t = 0; t < 300; t++) {
      int n = 1 + r.nextInt(5000);
      int runLength = new int[] {1, 3, 40, 600}[t % 4];
      int bits = new int[] {3, 20, 40, 64}[t / 4 % 4];
      long[] v = new long[n];
      long cur = 0;
      for (int i = 0; i < n; i++) {
        if (i % runLength == 0) {
          cur = bits == 64 ? r.nextLong() : r.nextLong() & ((1L << bits) - 1);
        }
        v[i] = cur;
      }
      byte[] le64 = new byte[8 * n];
      ByteBuffer.wrap(le64).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().put(v);
      FixedCompression.Costs a = FixedCompression.costs64(v, n);
      FixedCompression.Costs b = FixedCompression.costs64(le64, n);
      assertThat(b.pick()).isEqualTo(a.pick());
      assertThat(b.bitpack).isEqualTo(a.bitpack);
      if (a.pick() == FixedCompression.Pick.RLE) {
        assertThat(b.rle).isEqualTo(a.rle);
      }
      int[] w = new int[n];
      for (int i = 0; i < n; i++) {
        w[i] = (int) v[i];
      }
      byte[] le32 = new byte[4 * n];
      ByteBuffer.wrap(le32).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(w);
      FixedCompression.Costs c = FixedCompression.costs32(w, n);
      FixedCompression.Costs d = FixedCompression.costs32(le32, n);
      assertThat(d.pick()).isEqualTo(c.pick());
      assertThat(d.bitpack).isEqualTo(c.bitpack);
      if (c.pick() == FixedCompression.Pick.RLE) {
        assertThat(d.rle).isEqualTo(c.rle);
      }
    }
  }
}
