package dev.javelin.format.internal.v21;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Stopping the distinct count early never changes which side of the bound a page falls on. */
class StringDictionaryEstimateTest {
  @Test
  void earlyStopAgreesWithTheWholePage() {
    Random r = new Random(9);
    for (int t = 0; t < 40; t++) {
      int n = 20_000 + r.nextInt(120_000);
      int distinct = 1 + r.nextInt(n);
      List<String> values = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        values.add("v" + r.nextInt(distinct));
      }
      VarValues v = V21CompressedEncodingTest.strings(values);
      double whole = StringDictionary.estimateDistinct(v);
      for (double enough : new double[] {whole * 0.5, whole * 0.97, whole * 1.03, 11_000, 2 * n}) {
        boolean over = StringDictionary.estimateDistinct(v, enough) > enough;
        assertThat(over).as("page of %d values, %d distinct, bound %.0f (estimate %.0f)", n, distinct, enough, whole)
            .isEqualTo(whole > enough);
      }
    }
  }
}
