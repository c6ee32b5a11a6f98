package dev.javelin.core.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The radix sort of row addresses sorts as {@link Arrays#sort} does, whatever the spread. */
class LongRadixSortTest {
  @Test
  void sortsLikeArraysSort() {
    Random rnd = new Random(11);
    for (int trial = 0; trial < 300; trial++) {
      int n = rnd.nextInt(6000);
      int fragments = 1 + rnd.nextInt(trial % 3 == 0 ? 1 : 40);
      long fragBase = trial % 5 == 0 ? rnd.nextInt(1 << 20) : 0; // far fragment ids: more passes
      int rows = 1 + rnd.nextInt(trial % 2 == 0 ? 1 << 20 : 1000); // duplicates when few
      long[] a = new long[n];
      for (int i = 0; i < n; i++) {
        a[i] = (fragBase + rnd.nextInt(fragments)) << 32 | rnd.nextInt(rows);
      }
      if (trial % 7 == 0 && n > 0) {
        a[rnd.nextInt(n)] = Long.MAX_VALUE; // spans every bit: the comparison sort
      }
      long[] want = a.clone();
      Arrays.sort(want);
      LongRadixSort.sort(a);
      assertThat(a).as("trial %d", trial).isEqualTo(want);
    }
  }

  /** Sorting by the bits above the low ones keeps values equal there in their order. */
  @Test
  void sortAboveIsStable() {
    Random rnd = new Random(12);
    for (int trial = 0; trial < 200; trial++) {
      int n = rnd.nextInt(3000);
      int skip = 1 + rnd.nextInt(20);
      long[] a = new long[n];
      for (int i = 0; i < n; i++) {
        long key = trial % 2 == 0 ? rnd.nextInt(50) : rnd.nextLong() >>> (skip + 1);
        a[i] = key << skip | (i & ((1L << skip) - 1));
      }
      Long[] want = new Long[n];
      for (int i = 0; i < n; i++) {
        want[i] = a[i];
      }
      int s = skip;
      Arrays.sort(want, java.util.Comparator.comparingLong(v -> v >> s)); // stable
      long[] got = LongRadixSort.sortAbove(a.clone(), n, skip);
      for (int i = 0; i < n; i++) {
        assertThat(got[i]).as("trial %d at %d", trial, i).isEqualTo(want[i].longValue());
      }
    }
  }
}
