package dev.javelin.format.internal.v21;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.testing.TestAllocator;
import java.util.Random;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.complex.ListVector;
import org.junit.jupiter.api.Test;

/** Runs read 64 rows at a time end exactly where {@code isNull} changes. */
class ValidityRunsTest {
  @TestAllocator private BufferAllocator allocator;

  @Test
  void runsEndWhereIsNullChanges() {
    Random r = new Random(5);
    for (int t = 0; t < 200; t++) {
      int n = 1 + r.nextInt(700);
      // Long runs and isolated flips, across word boundaries.
      double flip = new double[] {0.001, 0.02, 0.5}[t % 3];
      try (BigIntVector v = new BigIntVector("v", allocator)) {
        v.allocateNew(n);
        boolean valid = r.nextBoolean();
        for (int i = 0; i < n; i++) {
          if (r.nextDouble() < flip) {
            valid = !valid;
          }
          if (valid) {
            v.set(i, i);
          } else {
            v.setNull(i);
          }
        }
        v.setValueCount(n);
        int from = r.nextInt(n);
        int to = from + 1 + r.nextInt(n - from);
        ArrowBuf bitmap = ValidityRuns.bitmap(v, to);
        assertThat(bitmap).isNotNull();
        int i = from;
        while (i < to) {
          boolean ok = ValidityRuns.valid(bitmap, i);
          assertThat(ok).isEqualTo(!v.isNull(i));
          int j = ValidityRuns.runEnd(bitmap, i + 1, to, ok);
          int expected = i + 1;
          while (expected < to && v.isNull(expected) == !ok) {
            expected++;
          }
          assertThat(j).as("run from %d of %d..%d", i, from, to).isEqualTo(expected);
          i = j;
        }
      }
    }
  }

  @Test
  void onlyPlainVectorsUseTheBitmap() {
    try (ListVector l = ListVector.empty("l", allocator)) {
      l.allocateNew();
      l.setValueCount(0);
      assertThat(ValidityRuns.bitmap(l, 0)).isNull();
    }
  }
}
