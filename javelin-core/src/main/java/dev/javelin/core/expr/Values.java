package dev.javelin.core.expr;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
   * UTF-8 strings: the rows of an Arrow (large) string vector, copied out of its buffers once
   * (plain arrays make the per-row loops of comparisons and LIKE cheap), or one constant for
   * every row.
   */
  static final class Strings {
    /** Row i is {@code bytes[offsets[i], offsets[i + 1])}; null for a constant. */
    private final int[] offsets;
    private final byte[] bytes;
    final byte[] constant;

    /**
     * The first {@code n} rows of a vector's offset and data buffers; with {@code only} given, just
     * the rows where it is true (the others read as empty strings).
     */
    Strings(ArrowBuf offsets, ArrowBuf data, boolean large, int n, boolean[] only) {
      if (only != null) {
        long[] at = new long[n + 1];
        if (large) {
          for (int i = 0; i <= n; i++) {
            at[i] = offsets.getLong((long) i * 8);
          }
        } else if (n > 0) {
          int[] ints = new int[n + 1];
          offsets.nioBuffer(0, (n + 1) * 4).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(ints);
          for (int i = 0; i <= n; i++) {
            at[i] = ints[i];
          }
        }
        int[] offs = new int[n + 1];
        long total = 0;
        for (int i = 0; i < n; i++) {
          if (only[i]) {
            total += at[i + 1] - at[i];
            if (total > Integer.MAX_VALUE - 16) {
              throw new IllegalStateException("A batch holds more than 2 GiB of string data: " + total + " bytes");
            }
          }
          offs[i + 1] = (int) total;
        }
        byte[] b = new byte[(int) total];
        for (int i = 0; i < n; i++) {
          int len = offs[i + 1] - offs[i];
          if (len > 0) {
            data.getBytes(at[i], b, offs[i], len);
          }
        }
        this.offsets = offs;
        this.bytes = b;
        this.constant = null;
        return;
      }
      long first = n == 0 ? 0 : offsetAt(offsets, large, 0);
      long last = n == 0 ? 0 : offsetAt(offsets, large, n);
      if (last - first > Integer.MAX_VALUE - 16) {
        throw new IllegalStateException("A batch holds more than 2 GiB of string data: " + (last - first) + " bytes");
      }
      int[] offs = new int[n + 1];
      if (large) {
        for (int i = 1; i <= n; i++) {
          offs[i] = (int) (offsets.getLong((long) i * 8) - first);
        }
      } else if (n > 0) {
        // One bulk copy, then a plain loop: cheaper than a checked read per row.
        offsets.nioBuffer(0, (n + 1) * 4).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(offs);
        int base = offs[0];
        if (base != 0) {
          for (int i = 0; i <= n; i++) {
            offs[i] -= base;
          }
        }
      }
      byte[] b = new byte[(int) (last - first)];
      if (b.length > 0) {
        data.getBytes(first, b, 0, b.length);
      }
      this.offsets = offs;
      this.bytes = b;
      this.constant = null;
    }

    Strings(String constant) {
      this.offsets = null;
      this.constant = constant.getBytes(StandardCharsets.UTF_8);
      this.bytes = this.constant;
    }

    private static long offsetAt(ArrowBuf offsets, boolean large, int i) {
      return large ? offsets.getLong((long) i * 8) : offsets.getInt((long) i * 4);
    }

    /** Where row i starts in {@link #bytes()}. */
    int start(int i) {
      return offsets == null ? 0 : offsets[i];
    }

    int length(int i) {
      return offsets == null ? bytes.length : offsets[i + 1] - offsets[i];
    }

    /** The bytes rows index into (see {@link #start}); not to be modified. */
    byte[] bytes() {
      return bytes;
    }

    byte byteAt(long pos) {
      return bytes[(int) pos];
    }

    /** Copies row i's bytes into {@code into} (grown when short); returns the buffer used. */
    byte[] copy(int i, byte[] into) {
      int len = length(i);
      byte[] out = into.length >= len ? into : new byte[Math.max(len, into.length * 2)];
      System.arraycopy(bytes, start(i), out, 0, len);
      return out;
    }

    /** Byte-wise unsigned comparison, which for UTF-8 is code point order. */
    static int compare(Strings a, int i, Strings b, int j) {
      int sa = a.start(i);
      int sb = b.start(j);
      int la = a.length(i);
      int lb = b.length(j);
      return Arrays.compareUnsigned(a.bytes, sa, sa + la, b.bytes, sb, sb + lb);
    }
  }
}
