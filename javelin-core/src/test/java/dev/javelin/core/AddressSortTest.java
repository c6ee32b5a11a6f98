package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The radix sort of row addresses sorts as {@link Arrays#sort} does, whatever the spread. */
class AddressSortTest {
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
      AddressSort.sort(a);
      assertThat(a).as("trial %d", trial).isEqualTo(want);
    }
  }
}
