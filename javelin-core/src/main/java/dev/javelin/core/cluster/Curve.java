package dev.javelin.core.cluster;

/**
 * How a clustering orders rows before cutting them into destination fragments.
 *
 * <p>Every curve first maps each key column to the rank of each row's value among the clustered
 * rows (equal values share a rank, nulls rank last), so integers, floats, dates, timestamps and
 * strings all take part on equal terms. With a single key column every curve orders rows as
 * {@link #RANGE} does (a one-dimensional curve is the line itself).
 */
public enum Curve {
  /** Sort by the key columns lexicographically (nulls last in each); ties keep source order. */
  RANGE,
  /** Interleave the bits of the columns' scaled ranks (Morton order); ties keep source order. */
  ZORDER,
  /** The position on a d-dimensional Hilbert curve over the columns' scaled ranks; ties keep source order. */
  HILBERT
}
