package dev.javelin.index;

import dev.javelin.index.internal.ivf.VectorMath;
import java.util.Locale;

/**
 * How vectors are compared, with Lance's definitions: {@code L2} is the squared Euclidean
 * distance, {@code COSINE} is {@code 1 - cos(a, b)}, {@code DOT} is {@code 1 - a·b}. Smaller is
 * nearer for all three.
 */
public enum DistanceType {
  /** Squared Euclidean distance. */
  L2("l2"),
  /** One minus the cosine similarity. */
  COSINE("cosine"),
  /** One minus the inner product. */
  DOT("dot");

  private final String lanceName;

  DistanceType(String lanceName) {
    this.lanceName = lanceName;
  }

  /** The name Lance writes in index metadata ({@code l2}, {@code cosine}, {@code dot}). */
  public String lanceName() {
    return lanceName;
  }

  /**
   * The distance type a Lance metadata name or a user's spelling names (case-insensitive;
   * {@code euclidean} is L2).
   *
   * @throws IllegalArgumentException if the name is not one of them
   */
  public static DistanceType fromName(String name) {
    String n = name.trim().toLowerCase(Locale.ROOT);
    switch (n) {
      case "l2":
      case "euclidean":
        return L2;
      case "cosine":
        return COSINE;
      case "dot":
        return DOT;
      default:
        throw new IllegalArgumentException("Unknown distance type '" + name + "' (expected l2, cosine or dot)");
    }
  }

  /** The distance between {@code a[aOff..aOff+len)} and {@code b[bOff..bOff+len)}. */
  public float distance(float[] a, int aOff, float[] b, int bOff, int len) {
    switch (this) {
      case L2:
        return VectorMath.l2(a, aOff, b, bOff, len);
      case DOT:
        return 1f - VectorMath.dot(a, aOff, b, bOff, len);
      default:
        float na = VectorMath.dot(a, aOff, a, aOff, len);
        float nb = VectorMath.dot(b, bOff, b, bOff, len);
        if (na == 0f || nb == 0f) {
          return 1f;
        }
        return 1f - VectorMath.dot(a, aOff, b, bOff, len) / (float) Math.sqrt((double) na * nb);
    }
  }
}
