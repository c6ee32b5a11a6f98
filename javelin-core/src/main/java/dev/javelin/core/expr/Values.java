package dev.javelin.core.expr;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;

/**
 * One computed column of a batch, held in plain Java arrays so operators run as tight typed loops.
 * Exactly one of the payload arrays is set, chosen by {@link #kind}: {@code longs} for LONG, DATE
 * (epoch days) and TIMESTAMP (epoch nanoseconds), {@code doubles} for DOUBLE, {@code bools} for
 * BOOL, {@code strings} for STRING, {@code offsets} and {@code items} for LIST (row i's elements
 * are items {@code [offsets[i], offsets[i + 1])}). {@code nulls} is null when no row is null.
 */
final class Values {
  final Kind kind;
  final int n;
  boolean[] nulls;
  long[] longs;
  double[] doubles;
  boolean[] bools;
  Strings strings;
  int[] offsets;
  Values items;

  Values(Kind kind, int n) {
    this.kind = kind;
    this.n = n;
  }

  boolean isNull(int i) {
    return nulls != null && nulls[i];
  }

  /** A mask with every row null. */
  static boolean[] allNull(int n) {
    boolean[] out = new boolean[n];
    Arrays.fill(out, true);
    return out;
  }

  /**
   * A column of this one's kind whose row i is row {@code rows[i]} of this, or NULL where
   * {@code rows[i]} is -1 (a scalar kind).
   */
  Values gather(int[] rows) {
    int m = rows.length;
    Values out = new Values(kind, m);
    boolean[] nl = new boolean[m];
    boolean any = false;
    for (int i = 0; i < m; i++) {
      if (rows[i] < 0 || isNull(rows[i])) {
        nl[i] = true;
        any = true;
      }
    }
    out.nulls = any ? nl : null;
    switch (kind) {
      case LONG, DATE, TIMESTAMP -> {
        out.longs = new long[m];
        for (int i = 0; i < m; i++) {
          out.longs[i] = nl[i] ? 0 : longs[rows[i]];
        }
      }
      case DOUBLE -> {
        out.doubles = new double[m];
        for (int i = 0; i < m; i++) {
          out.doubles[i] = nl[i] ? 0 : doubles[rows[i]];
        }
      }
      case BOOL -> {
        out.bools = new boolean[m];
        for (int i = 0; i < m; i++) {
          out.bools[i] = !nl[i] && bools[rows[i]];
        }
      }
      case STRING -> {
        StringsBuilder b = new StringsBuilder(m);
        for (int i = 0; i < m; i++) {
          if (nl[i]) {
            b.add(strings.bytes(), 0, 0);
          } else {
            b.add(strings.bytes(), strings.start(rows[i]), strings.length(rows[i]));
          }
        }
        out.strings = b.build();
      }
      default -> out.nulls = allNull(m);
    }
    return out;
  }

  /** Whether row i of a equals row j of b (both non-null; numbers of either kind compare by value, floats in total order). */
  static boolean same(Values a, int i, Values b, int j) {
    if (a.kind == Kind.DOUBLE || b.kind == Kind.DOUBLE) {
      double x = a.kind == Kind.DOUBLE ? a.doubles[i] : a.longs[i];
      double y = b.kind == Kind.DOUBLE ? b.doubles[j] : b.longs[j];
      return Double.compare(x, y) == 0;
    }
    return switch (a.kind) {
      case LONG, DATE, TIMESTAMP -> a.longs[i] == b.longs[j];
      case BOOL -> a.bools[i] == b.bools[j];
      case STRING -> a.strings.length(i) == b.strings.length(j) && Strings.compare(a.strings, i, b.strings, j) == 0;
      default -> false;
    };
  }

  /** The value of row i boxed (Long, Double, Boolean, String), or null: for the rare per-row paths. */
  Object get(int i) {
    if (isNull(i)) {
      return null;
    }
    return switch (kind) {
      case LONG, DATE, TIMESTAMP -> longs[i];
      case DOUBLE -> doubles[i];
      case BOOL -> bools[i];
      case STRING -> strings.string(i);
      default -> throw new IllegalStateException("no scalar value of kind " + kind);
    };
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

    /** Rows built elsewhere: row i is {@code bytes[offsets[i], offsets[i + 1])}. */
    Strings(int[] offsets, byte[] bytes) {
      this.offsets = offsets;
      this.bytes = bytes;
      this.constant = null;
    }

    /** Whether the rows lie back to back in {@link #bytes()}, which holds nothing else (not a constant). */
    boolean contiguous() {
      return offsets != null && offsets[0] == 0 && offsets[offsets.length - 1] == bytes.length;
    }

    /** The same rows over other bytes of the same length (a byte-for-byte transform of these). */
    Strings withBytes(byte[] other) {
      if (offsets == null || other.length != bytes.length) {
        throw new IllegalArgumentException("Not a transform of these rows' bytes");
      }
      return new Strings(offsets, other);
    }

    /** Row i decoded. */
    String string(int i) {
      return new String(bytes, start(i), length(i), StandardCharsets.UTF_8);
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

  /** Builds string rows one after another. */
  static final class StringsBuilder {
    private final int[] offsets;
    private byte[] bytes = new byte[64];
    private int size;
    private int row;

    StringsBuilder(int n) {
      offsets = new int[n + 1];
    }

    /** Appends the next row (empty for a null row). */
    void add(byte[] b, int from, int len) {
      if (size + len > bytes.length) {
        long want = Math.max((long) bytes.length * 2, (long) size + len);
        if (want > Integer.MAX_VALUE - 16) {
          throw new IllegalStateException("A batch holds more than 2 GiB of string data");
        }
        bytes = Arrays.copyOf(bytes, (int) want);
      }
      System.arraycopy(b, from, bytes, size, len);
      size += len;
      offsets[++row] = size;
    }

    /** Appends the next row: v's decimal digits, without going through a String. */
    void add(long v) {
      if (v == Long.MIN_VALUE) {
        add(Long.toString(v));
        return;
      }
      int len = v < 0 ? 2 : 1;
      for (long a = Math.abs(v); a >= 10; a /= 10) {
        len++;
      }
      if (size + len > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + len));
      }
      int end = size + len;
      long a = Math.abs(v);
      for (int k = end - 1; k >= size + (v < 0 ? 1 : 0); k--) {
        bytes[k] = (byte) ('0' + a % 10);
        a /= 10;
      }
      if (v < 0) {
        bytes[size] = '-';
      }
      size = end;
      offsets[++row] = size;
    }

    void add(String s) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      add(b, 0, b.length);
    }

    Strings build() {
      return new Strings(offsets, bytes);
    }
  }
}
