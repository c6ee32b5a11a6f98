package dev.javelin.core.cluster;

import java.util.List;

/**
 * Decides where each clustered row goes. Rows (live rows of the sources, in source order) are
 * put in cluster order: by the key ranks (RANGE, lexicographic) or by the curve position of
 * their scaled ranks (ZORDER, HILBERT), ties broken by source order. The row at position p of
 * that order goes to destination {@code p / targetRowsPerFragment}, so every destination but the
 * last holds exactly the target, and destinations cover consecutive stretches of the order.
 */
final class Destinations {
  private Destinations() {}

  /** How many destinations {@code rows} rows make. */
  static int count(long rows, long targetRowsPerFragment) {
    return Math.toIntExact((rows + targetRowsPerFragment - 1) / targetRowsPerFragment);
  }

  /** The destination of every row; {@code keys} are the key columns' ranks, all of one length. */
  static int[] assign(List<KeyColumn.Ranked> keys, Curve curve, long targetRowsPerFragment) {
    int[] primary = keys.size() == 1 || curve == Curve.RANGE ? lexicographic(keys) : curve(keys, curve);
    int n = primary.length;
    int distinct = 0;
    for (int r : primary) {
      distinct = Math.max(distinct, r + 1);
    }
    int[] order = DenseRanks.order(primary, distinct);
    int[] dest = new int[n];
    for (int p = 0; p < n; p++) {
      dest[order[p]] = (int) (p / targetRowsPerFragment);
    }
    return dest;
  }

  /** The destination of every row, given the rows in cluster order (a single key's {@link KeyColumn#order}). */
  static int[] inOrder(int[] order, long targetRowsPerFragment) {
    int[] dest = new int[order.length];
    for (int p = 0; p < order.length; p++) {
      dest[order[p]] = (int) (p / targetRowsPerFragment);
    }
    return dest;
  }

  // The dense rank of each row's key tuple, folding one column in at a time.
  private static int[] lexicographic(List<KeyColumn.Ranked> keys) {
    int[] cur = keys.get(0).ranks();
    for (int j = 1; j < keys.size(); j++) {
      int[] next = keys.get(j).ranks();
      long[] pairs = new long[cur.length];
      for (int i = 0; i < cur.length; i++) {
        pairs[i] = ((long) cur[i] << 32) | next[i];
      }
      cur = denseRanks(pairs);
    }
    return cur;
  }

  // The dense rank of each row's curve position. Each column's rank is scaled onto the same
  // number of bits, so a column with few distinct values spreads over the whole axis instead of
  // leaving the curve to order by the other columns alone.
  private static int[] curve(List<KeyColumn.Ranked> keys, Curve curve) {
    int d = keys.size();
    int bits = SpaceFillingCurves.bitsPerDimension(d);
    long max = (1L << bits) - 1;
    int n = keys.get(0).ranks().length;
    long[] positions = new long[n];
    long[] coords = new long[d];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < d; j++) {
        coords[j] = scale(keys.get(j).ranks()[i], keys.get(j).distinct(), max);
      }
      positions[i] = curve == Curve.HILBERT ? SpaceFillingCurves.hilbert(coords, bits)
          : SpaceFillingCurves.zorder(coords, bits);
    }
    return denseRanks(positions);
  }

  /** Rank {@code rank} of {@code distinct} mapped onto 0..max, keeping order (the top rank lands on max). */
  static long scale(int rank, int distinct, long max) {
    return distinct <= 1 ? 0 : rank * max / (distinct - 1);
  }

  static int[] denseRanks(long[] keys) {
    return DenseRanks.of(keys, keys.length).ranks();
  }
}
