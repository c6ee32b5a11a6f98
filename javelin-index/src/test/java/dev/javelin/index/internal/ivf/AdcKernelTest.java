package dev.javelin.index.internal.ivf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class AdcKernelTest {
  /**
   * The kernel in use (Unsafe where available) and the plain array one both give, bit for bit,
   * each row's table entries summed over sub-vectors in order, for partitions whose last block
   * is partial and codes regrouped from the transposed layout.
   */
  @Test
  void sumsEachRowsEntriesInOrder() {
    // On Java 17 Unsafe is there, so the test covers both loops.
    assertThat(AdcKernel.usesUnsafe()).isTrue();
    Random r = new Random(7);
    for (int trial = 0; trial < 200; trial++) {
      int m = 1 + r.nextInt(20);
      int n = r.nextInt(100);
      byte[] transposed = new byte[3 + n * m];
      r.nextBytes(transposed);
      float[][] table = new float[m][ProductQuantizer.CENTROIDS];
      for (float[] t : table) {
        for (int i = 0; i < t.length; i++) {
          t[i] = (float) r.nextGaussian() * 100;
        }
      }
      int at = 5;
      byte[] blocked = new byte[at + AdcKernel.blockedSize(n, m)];
      AdcKernel.blocked(transposed, 3, n, m, blocked, at);
      float[] used = new float[n + 8];
      float[] plain = new float[n + 8];
      AdcKernel.distances(blocked, at, n, m, table, used);
      AdcKernel.arrayDistances(blocked, at, n, m, table, plain);
      for (int i = 0; i < n; i++) {
        float want = 0f;
        for (int j = 0; j < m; j++) {
          want += table[j][transposed[3 + j * n + i] & 0xFF];
        }
        assertThat(Float.floatToRawIntBits(used[i])).as("m %d n %d row %d", m, n, i)
            .isEqualTo(Float.floatToRawIntBits(want));
        assertThat(Float.floatToRawIntBits(plain[i])).isEqualTo(Float.floatToRawIntBits(want));
      }
    }
  }

  @Test
  void refusesArraysTooShortForTheRows() {
    byte[] codes = new byte[AdcKernel.blockedSize(9, 4)];
    float[][] table = new float[4][ProductQuantizer.CENTROIDS];
    assertThatThrownBy(() -> AdcKernel.distances(codes, 1, 9, 4, table, new float[16]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ADC arrays too short: 9 rows x 4 codes at 1 of 64, 4 tables, out 16");
    float[][] shortTable = {new float[256], new float[256], new float[255], new float[256]};
    assertThatThrownBy(() -> AdcKernel.distances(codes, 0, 9, 4, shortTable, new float[16]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ADC table 2 has 255 entries, not 256");
    assertThatThrownBy(() -> AdcKernel.distances(codes, 0, 9, 5, table, new float[16]))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> AdcKernel.distances(codes, 0, 9, 4, table, new float[9]))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
