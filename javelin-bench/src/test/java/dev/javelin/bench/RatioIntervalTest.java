package dev.javelin.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class RatioIntervalTest {
  @Test
  void welchIntervalOnTheLogRatio() {
    // Means 10 and 20; relative variances of the means both 1/60,000, so 6 degrees of freedom and
    // t(0.9995, 6) = 5.9588: half-width 5.9588 * sqrt(2 / 60,000) on the log scale.
    RatioInterval r = RatioInterval.of(new double[] {10.0, 10.1, 9.9, 10.0}, new double[] {20.0, 20.2, 19.8, 20.0},
        0.999);
    double half = 5.9588 * Math.sqrt(2.0 / 60_000);
    assertThat(r.ratio()).isCloseTo(2.0, within(1e-12));
    assertThat(r.low()).isCloseTo(2.0 * Math.exp(-half), within(1e-4));
    assertThat(r.high()).isCloseTo(2.0 * Math.exp(half), within(1e-4));
    assertThat(r.noDifference()).isFalse();
    assertThat(r.describe()).isEqualTo("2.00x (1.93-2.07)");
  }

  @Test
  void anIntervalHoldingOneIsNoDifference() {
    RatioInterval r = RatioInterval.of(new double[] {10, 11, 9, 10}, new double[] {10, 12, 8, 10.5}, 0.999);
    assertThat(r.low()).isLessThan(1.0);
    assertThat(r.high()).isGreaterThan(1.0);
    assertThat(r.noDifference()).isTrue();
    assertThat(r.describe()).startsWith("no difference (1.01x, ");
  }

  @Test
  void slowerJavelinGivesARatioBelowOne() {
    RatioInterval r = RatioInterval.of(new double[] {4, 4.1, 3.9}, new double[] {2, 2.05, 1.95}, 0.999);
    assertThat(r.ratio()).isCloseTo(0.5, within(1e-12));
    assertThat(r.high()).isLessThan(1.0);
    assertThat(r.describe()).startsWith("0.50x (");
  }

  @Test
  void higherConfidenceWidensTheInterval() {
    double[] j = {10, 10.4, 9.7, 10.1, 9.9};
    double[] p = {12, 12.5, 11.6, 12.2, 11.8};
    RatioInterval loose = RatioInterval.of(j, p, 0.9);
    RatioInterval strict = RatioInterval.of(j, p, 0.999);
    assertThat(strict.low()).isLessThan(loose.low());
    assertThat(strict.high()).isGreaterThan(loose.high());
  }

  @Test
  void needsTwoSamplesASide() {
    assertThatThrownBy(() -> RatioInterval.of(new double[] {1}, new double[] {1, 2}, 0.999))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 2 samples");
  }

  @Test
  void identicalSamplesGiveAPointInterval() {
    RatioInterval r = RatioInterval.of(new double[] {5, 5}, new double[] {10, 10}, 0.999);
    assertThat(r.low()).isEqualTo(2.0);
    assertThat(r.high()).isEqualTo(2.0);
  }
}
