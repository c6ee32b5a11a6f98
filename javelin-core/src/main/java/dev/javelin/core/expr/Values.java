package dev.javelin.core.expr;

import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.ArrowBuf;

/**
 * One computed column of a batch, held in plain Java arrays so operators run as tight typed loops.
 * Exactly one of the payload arrays is set, chosen by {@link #kind}: {@code longs} for LONG, DATE
 * (epoch days) and TIMESTAMP (epoch nanoseconds), {@code doubles} for DOUBLE, {@code bools} for
 * BOOL, {@code strings} for STRING. {@code nulls} is null when no row is null.
 */
final class Values {
  final Kind kind;
  final int n;
  boolean[] nulls;
  long[] longs;
  double[] doubles;
  boolean[] bools;
  Strings strings;

  Values(Kind kind, int n) {
    this.kind = kind;
    this.n = n;
  }

  boolean isNull(int i) {
    return nulls != null && nulls[i];
  }

  /** Union of two null masks; null when neither has nulls. */
  static boolean[] orNulls(boolean[] a, boolean[] b) {
    if (a == null) {
      return b == null ? null : b.clone();
    }
    boolean[] out = a.clone();
    if (b != null) {
      for (int i = 0; i < out.length; i++) {
        out[i] |= b[i];
      }
    }
    return out;
  }

  /**
   * UTF-8 strings: either the offset and data buffers of an Arrow (large) string vector, read in
   * place, or one constant for every row.
   */
  static final class Strings {
    private final ArrowBuf offsets;
    private final ArrowBuf data;
    private final boolean large;
    final byte[] constant;

    Strings(ArrowBuf offsets, ArrowBuf data, boolean large) {
      this.offsets = offsets;
      this.data = data;
      this.large = large;
      this.constant = null;
    }

    Strings(String constant) {
      this.offsets = null;
      this.data = null;
      this.large = false;
      this.constant = constant.getBytes(StandardCharsets.UTF_8);
    }

    long start(int i) {
      if (constant != null) {
        return 0;
      }
      return large ? offsets.getLong((long) i * 8) : offsets.getInt((long) i * 4);
    }

    int length(int i) {
      if (constant != null) {
        return constant.length;
      }
      return (int) (large ? offsets.getLong((long) (i + 1) * 8) - offsets.getLong((long) i * 8)
          : offsets.getInt((long) (i + 1) * 4) - offsets.getInt((long) i * 4));
    }

    byte byteAt(long pos) {
      return constant != null ? constant[(int) pos] : data.getByte(pos);
    }

    /** Copies row i's bytes into {@code into} (grown when short); returns the buffer used. */
    byte[] copy(int i, byte[] into) {
      int len = length(i);
      byte[] out = into.length >= len ? into : new byte[Math.max(len, into.length * 2)];
      if (constant != null) {
        System.arraycopy(constant, 0, out, 0, len);
      } else {
        data.getBytes(start(i), out, 0, len);
      }
      return out;
    }

    /** Byte-wise unsigned comparison, which for UTF-8 is code point order. */
    static int compare(Strings a, int i, Strings b, int j) {
      long sa = a.start(i);
      long sb = b.start(j);
      int la = a.length(i);
      int lb = b.length(j);
      int m = Math.min(la, lb);
      for (int k = 0; k < m; k++) {
        int x = a.byteAt(sa + k) & 0xFF;
        int y = b.byteAt(sb + k) & 0xFF;
        if (x != y) {
          return x < y ? -1 : 1;
        }
      }
      return Integer.compare(la, lb);
    }
  }
}
