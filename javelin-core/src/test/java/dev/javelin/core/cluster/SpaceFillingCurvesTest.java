package dev.javelin.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpaceFillingCurvesTest {
  @Test
  void zorderInterleavesFromTheTopBitDimensionZeroFirst() {
    assertThat(SpaceFillingCurves.zorder(new long[] {1, 0}, 1)).isEqualTo(0b10);
    assertThat(SpaceFillingCurves.zorder(new long[] {0b10, 0b01}, 2)).isEqualTo(0b1001);
    assertThat(SpaceFillingCurves.zorder(new long[] {0b11, 0b00, 0b10}, 2)).isEqualTo(0b101100);
  }

  @Test
  void hilbertVisitsEveryCellOnceMovingOneStepAtATime() {
    checkHilbert(2, 1);
    checkHilbert(2, 4);
    checkHilbert(3, 3);
    checkHilbert(4, 2);
  }

  // A Hilbert curve is a bijection from cells to 0..cells-1 in which consecutive positions are
  // cells at Manhattan distance 1; both are checked exhaustively.
  private static void checkHilbert(int dims, int bits) {
    int cells = 1 << (dims * bits);
    Map<Long, long[]> byPosition = new HashMap<>();
    for (int c = 0; c < cells; c++) {
      long[] coords = new long[dims];
      for (int j = 0; j < dims; j++) {
        coords[j] = (c >> (j * bits)) & ((1 << bits) - 1);
      }
      long h = SpaceFillingCurves.hilbert(coords, bits);
      assertThat(h).isBetween(0L, cells - 1L);
      assertThat(byPosition.put(h, coords)).as("position %d taken twice", h).isNull();
    }
    for (long h = 1; h < cells; h++) {
      long[] a = byPosition.get(h - 1);
      long[] b = byPosition.get(h);
      long distance = 0;
      for (int j = 0; j < dims; j++) {
        distance += Math.abs(a[j] - b[j]);
      }
      assertThat(distance).as("step %d of a %d-d curve of %d bits", h, dims, bits).isEqualTo(1);
    }
    assertThat(SpaceFillingCurves.hilbert(new long[dims], bits)).isZero();
  }

  @Test
  void scalingKeepsOrderAndSpansTheAxis() {
    assertThat(Destinations.scale(0, 1, 1023)).isZero();
    assertThat(Destinations.scale(0, 3, 1023)).isZero();
    assertThat(Destinations.scale(1, 3, 1023)).isEqualTo(511);
    assertThat(Destinations.scale(2, 3, 1023)).isEqualTo(1023);
    assertThat(SpaceFillingCurves.bitsPerDimension(2)).isEqualTo(31);
    assertThat(SpaceFillingCurves.bitsPerDimension(3)).isEqualTo(21);
  }
}
