package dev.javelin.index.internal.ivf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NearestRowsTest {
  /**
   * The k smallest (distance, position) pairs, sorted, whatever k (below and above the buffer's
   * minimum of 256), with negative distances, signed zeros and many ties; NaN is never kept; two
   * halves offered to two collectors and merged give the same as one.
   */
  @Test
  void keepsTheKSmallestByDistanceThenPosition() {
    Random r = new Random(5);
    for (int trial = 0; trial < 300; trial++) {
      int k = trial % 7 == 0 ? 0 : 1 + r.nextInt(trial % 2 == 0 ? 100 : 3000);
      int n = r.nextInt(12_000);
      float[] d = new float[n];
      int[] row = new int[n];
      NearestRows one = new NearestRows(k);
      NearestRows first = new NearestRows(k);
      NearestRows second = new NearestRows(k);
      for (int i = 0; i < n; i++) {
        int kind = r.nextInt(4);
        d[i] = kind == 0 ? r.nextInt(50) / 7f - 3 : kind == 1 ? (r.nextBoolean() ? 0f : -0f) : r.nextFloat() * 2 - 1;
        row[i] = (int) (i * 7919L % 100_003) + (i % 3 == 0 ? Integer.MAX_VALUE - 100_003 : 0);
        one.offer(d[i], row[i]);
        (i % 2 == 0 ? first : second).offer(d[i], row[i]);
      }
      one.offer(Float.NaN, 12);
      Integer[] order = new Integer[n];
      Arrays.setAll(order, i -> i);
      Arrays.sort(order, Comparator.<Integer, Float>comparing(i -> d[i], Float::compare)
          .thenComparingInt(i -> row[i]));
      int m = Math.min(k, n);
      long[] got = one.sorted();
      assertThat(got).as("k %d n %d", k, n).hasSize(m);
      for (int i = 0; i < m; i++) {
        assertThat(NearestRows.row(got[i])).as("k %d n %d at %d", k, n, i).isEqualTo(row[order[i]]);
        assertThat(Float.floatToRawIntBits(NearestRows.distance(got[i])))
            .isEqualTo(Float.floatToRawIntBits(d[order[i]]));
      }
      first.offerAll(second);
      assertThat(first.sorted()).containsExactly(got);
    }
  }

  @Test
  void keysOrderAsTheirDistances() {
    float[] ascending = {Float.NEGATIVE_INFINITY, -Float.MAX_VALUE, -1f, -Float.MIN_VALUE, -0f, 0f,
        Float.MIN_VALUE, 1f, Float.MAX_VALUE, Float.POSITIVE_INFINITY};
    for (int i = 1; i < ascending.length; i++) {
      assertThat(NearestRows.key(ascending[i], 0)).isGreaterThan(NearestRows.key(ascending[i - 1], Integer.MAX_VALUE));
      assertThat(NearestRows.distance(NearestRows.key(ascending[i], 9))).isEqualTo(ascending[i]);
    }
  }
}
