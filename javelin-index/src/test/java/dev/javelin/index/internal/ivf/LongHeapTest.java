package dev.javelin.index.internal.ivf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LongHeapTest {
  @Test
  void popsInAscendingOrderAndIsReusable() {
    IvfHnswSqIndex.LongHeap heap = new IvfHnswSqIndex.LongHeap();
    Random r = new Random(3);
    for (int round = 0; round < 3; round++) {
      heap.reset();
      long[] values = new long[200 + round * 100];
      for (int i = 0; i < values.length; i++) {
        values[i] = NearestRows.key(r.nextFloat() * 10 - 5, i);
        heap.push(values[i]);
      }
      assertThat(heap.size()).isEqualTo(values.length);
      Arrays.sort(values);
      assertThat(heap.peek()).isEqualTo(values[0]);
      for (long v : values) {
        assertThat(heap.pop()).isEqualTo(v);
      }
      assertThat(heap.size()).isZero();
    }
  }
}
