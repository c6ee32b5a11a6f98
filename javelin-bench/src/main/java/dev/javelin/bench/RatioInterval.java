package dev.javelin.bench;

import java.util.Locale;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * The ratio of two sides' mean times (the peer's over Javelin's: Javelin's speed relative to the
 * peer, above 1 when Javelin is faster) with a confidence interval. The samples are per-iteration
 * scores (every fork's iterations). The interval is Welch's: on the log of the ratio, whose
 * standard error is, to first order, sqrt(var_j / (n_j mean_j^2) + var_p / (n_p mean_p^2)), with
 * Student's t at the Welch-Satterthwaite degrees of freedom. An interval holding 1.0 is "no
 * difference": the run cannot tell the two sides apart at that confidence.
 *
 * @param ratio peer mean time / Javelin mean time
 * @param low lower end of the interval
 * @param high upper end of the interval
 * @param confidence e.g. 0.999
 */
public record RatioInterval(double ratio, double low, double high, double confidence) {
  /** The confidence the reports state. */
  public static final double CONFIDENCE = 0.999;

  /**
   * @param javelin Javelin's times per operation, one per measured iteration
   * @param peer the peer's, in the same unit
   * @throws IllegalArgumentException with fewer than two samples on a side (no interval) or a
   *     non-positive mean
   */
  public static RatioInterval of(double[] javelin, double[] peer, double confidence) {
    if (javelin.length < 2 || peer.length < 2) {
      throw new IllegalArgumentException("A ratio interval needs at least 2 samples a side, got " + javelin.length
          + " and " + peer.length + " (run more iterations or forks)");
    }
    double mj = mean(javelin);
    double mp = mean(peer);
    if (!(mj > 0) || !(mp > 0)) {
      throw new IllegalArgumentException("Means must be positive, got " + mj + " and " + mp);
    }
    double a = variance(javelin, mj) / (javelin.length * mj * mj);
    double b = variance(peer, mp) / (peer.length * mp * mp);
    double ratio = mp / mj;
    if (a + b == 0) {
      return new RatioInterval(ratio, ratio, ratio, confidence);
    }
    double df = (a + b) * (a + b) / (a * a / (javelin.length - 1) + b * b / (peer.length - 1));
    double t = new TDistribution(df).inverseCumulativeProbability(1 - (1 - confidence) / 2);
    double half = t * Math.sqrt(a + b);
    return new RatioInterval(ratio, ratio * Math.exp(-half), ratio * Math.exp(half), confidence);
  }

  /** Whether the interval holds 1.0. */
  public boolean noDifference() {
    return low <= 1.0 && high >= 1.0;
  }

  /** As a table shows it: {@code 1.45x (1.30-1.62)}, or {@code no difference (0.97x, 0.80-1.15)}. */
  public String describe() {
    String interval = bound(low) + "-" + bound(high);
    return noDifference()
        ? String.format(Locale.ROOT, "no difference (%.2fx, %s)", ratio, interval)
        : String.format(Locale.ROOT, "%.2fx (%s)", ratio, interval);
  }

  // Two decimals; the far ends of a very wide interval (few samples) in powers of ten.
  private static String bound(double x) {
    return x >= 1e-2 && x < 1e3 ? String.format(Locale.ROOT, "%.2f", x) : String.format(Locale.ROOT, "%.1e", x);
  }

  static double mean(double[] x) {
    double s = 0;
    for (double v : x) {
      s += v;
    }
    return s / x.length;
  }

  static double variance(double[] x, double mean) {
    double s = 0;
    for (double v : x) {
      s += (v - mean) * (v - mean);
    }
    return s / (x.length - 1);
  }

  /** Half the width of the mean's interval at {@code confidence}, for a side's own "mean +- error". */
  static double halfWidth(double[] x, double confidence) {
    if (x.length < 2) {
      return Double.NaN;
    }
    double t = new TDistribution(x.length - 1).inverseCumulativeProbability(1 - (1 - confidence) / 2);
    return t * Math.sqrt(variance(x, mean(x)) / x.length);
  }
}
