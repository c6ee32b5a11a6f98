package dev.javelin.index.internal.ivf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TopKTest {
  /** Both modes (heap for small k, buffer and select for large k) keep the k smallest pairs, sorted. */
  @Test
  void keepsTheKSmallestPairsByDistanceThenId() {
    Random r = new Random(3);
    for (int trial = 0; trial < 300; trial++) {
      int k = 1 + r.nextInt(trial % 2 == 0 ? 64 : 3000);
      int n = r.nextInt(12_000);
      float[] d = new float[n];
      long[] id = new long[n];
      TopK top = new TopK(k);
      for (int i = 0; i < n; i++) {
        // Many equal distances, so ties by id matter.
        d[i] = r.nextBoolean() ? r.nextInt(50) / 7f : r.nextFloat();
        id[i] = i * 7919L % 100_003;
        top.offer(d[i], id[i]);
      }
      top.offer(Float.NaN, 1);
      Integer[] order = new Integer[n];
      Arrays.setAll(order, i -> i);
      Arrays.sort(order, Comparator.<Integer>comparingDouble(i -> d[i]).thenComparingLong(i -> id[i]));
      int m = Math.min(k, n);
      long[] wantIds = new long[m];
      float[] wantDist = new float[m];
      for (int i = 0; i < m; i++) {
        wantIds[i] = id[order[i]];
        wantDist[i] = d[order[i]];
      }
      Neighbors got = top.result();
      assertThat(got.rowIds()).as("k %d n %d", k, n).containsExactly(wantIds);
      assertThat(got.distances()).containsExactly(wantDist);
      // The result leaves the collector usable, and merging is the same selection.
      assertThat(top.result().rowIds()).containsExactly(wantIds);
      assertThat(TopK.merge(k, got, new Neighbors(new long[0], new float[0])).rowIds()).containsExactly(wantIds);
    }
  }
}
