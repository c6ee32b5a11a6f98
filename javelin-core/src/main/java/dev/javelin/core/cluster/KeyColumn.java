package dev.javelin.core.cluster;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * One key column's values for the clustered rows, in source order, turned into dense ranks: the
 * position of each row's value among the distinct values (nulls after every value). Integers,
 * dates, times, timestamps and durations compare as numbers (unsigned integers as unsigned),
 * floats in {@link Double#compare} order (-0.0 before 0.0, NaN after +Inf), strings and binaries
 * by their bytes, unsigned (UTF-8 byte order is code point order).
 */
final class KeyColumn {
  enum Kind {
    INTEGER,
    FLOAT,
    BYTES
  }

  /** The ranks of the rows and how many distinct keys (null counting as one) they have. */
  record Ranked(int[] ranks, int distinct) {}

  private final Kind kind;
  private int size;
  private long[] longs;
  private double[] doubles;
  private byte[][] bytes;
  private final BitSet nulls = new BitSet();

  KeyColumn(Kind kind, int expectedRows) {
    this.kind = kind;
    int n = Math.max(16, expectedRows);
    switch (kind) {
      case INTEGER -> longs = new long[n];
      case FLOAT -> doubles = new double[n];
      default -> bytes = new byte[n][];
    }
  }

  /** The kind a column of this type is ordered as, or null when clustering cannot order it. */
  static Kind kindOf(ArrowType type) {
    if (type instanceof ArrowType.Int || type instanceof ArrowType.Date || type instanceof ArrowType.Timestamp
        || type instanceof ArrowType.Time || type instanceof ArrowType.Duration) {
      return Kind.INTEGER;
    }
    if (type instanceof ArrowType.FloatingPoint fp && fp.getPrecision() != FloatingPointPrecision.HALF) {
      return Kind.FLOAT;
    }
    if (type instanceof ArrowType.Utf8 || type instanceof ArrowType.LargeUtf8 || type instanceof ArrowType.Binary
        || type instanceof ArrowType.LargeBinary) {
      return Kind.BYTES;
    }
    return null;
  }

  int size() {
    return size;
  }

  /** Appends the first {@code rows} values of {@code v}. */
  void append(FieldVector v, int rows) {
    grow(size + rows);
    if (kind == Kind.INTEGER && v.getNullCount() == 0 && v instanceof BigIntVector b) {
      // The common key, a signed 64-bit column without nulls: one bulk copy, not a call per row.
      b.getDataBuffer().nioBuffer(0, rows * 8).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(longs, size, rows);
      size += rows;
      return;
    }
    for (int i = 0; i < rows; i++) {
      if (v.isNull(i)) {
        nulls.set(size);
      } else {
        switch (kind) {
          case INTEGER -> longs[size] = integer(v, i);
          case FLOAT -> doubles[size] = v instanceof Float4Vector f ? f.get(i) : ((Float8Vector) v).get(i);
          default -> bytes[size] = bytes(v, i);
        }
      }
      size++;
    }
  }

  // Fixed-width integer-like values read from the data buffer by width, so every integer, date,
  // time, timestamp and duration vector takes one path; unsigned 64-bit values get their sign bit
  // flipped so that signed comparison orders them.
  private static long integer(FieldVector v, int i) {
    BaseFixedWidthVector fv = (BaseFixedWidthVector) v;
    ArrowBuf data = fv.getDataBuffer();
    int width = fv.getTypeWidth();
    boolean unsigned = v.getField().getType() instanceof ArrowType.Int t && !t.getIsSigned();
    return switch (width) {
      case 1 -> unsigned ? data.getByte(i) & 0xFFL : data.getByte(i);
      case 2 -> unsigned ? data.getShort(2L * i) & 0xFFFFL : data.getShort(2L * i);
      case 4 -> unsigned ? data.getInt(4L * i) & 0xFFFFFFFFL : data.getInt(4L * i);
      default -> unsigned ? data.getLong(8L * i) ^ Long.MIN_VALUE : data.getLong(8L * i);
    };
  }

  private static byte[] bytes(FieldVector v, int i) {
    if (v instanceof VarCharVector s) {
      return s.get(i);
    }
    if (v instanceof LargeVarCharVector s) {
      return s.get(i);
    }
    if (v instanceof VarBinaryVector s) {
      return s.get(i);
    }
    return ((LargeVarBinaryVector) v).get(i);
  }

  private void grow(int need) {
    int cap = kind == Kind.INTEGER ? longs.length : kind == Kind.FLOAT ? doubles.length : bytes.length;
    if (need <= cap) {
      return;
    }
    int n = Math.max(need, cap + (cap >> 1));
    switch (kind) {
      case INTEGER -> longs = Arrays.copyOf(longs, n);
      case FLOAT -> doubles = Arrays.copyOf(doubles, n);
      default -> bytes = Arrays.copyOf(bytes, n);
    }
  }

  /**
   * The rows appended so far in key order (nulls last), equal keys in row order: what a single
   * key's clustering needs, without the ranks. The values are released afterwards.
   */
  int[] order() {
    if (kind == Kind.BYTES) {
      Ranked r = rank();
      return DenseRanks.order(r.ranks(), r.distinct());
    }
    int live = size - nulls.cardinality();
    long[] live64 = kind == Kind.INTEGER && live == size ? longs : new long[live];
    int[] at = live == size ? null : new int[live];
    if (live64 != longs) {
      int k = 0;
      for (int i = 0; i < size; i++) {
        if (!nulls.get(i)) {
          live64[k] = kind == Kind.INTEGER ? longs[i] : sortable(doubles[i]);
          if (at != null) {
            at[k] = i;
          }
          k++;
        }
      }
    }
    int[] pos = DenseRanks.sortedPositions(live64, live);
    int[] out = at == null ? pos : new int[size];
    if (at != null) {
      for (int j = 0; j < live; j++) {
        out[j] = at[pos[j]];
      }
      int k = live;
      for (int i = nulls.nextSetBit(0); i >= 0 && i < size; i = nulls.nextSetBit(i + 1)) {
        out[k++] = i;
      }
    }
    longs = null;
    doubles = null;
    return out;
  }

  /** Dense ranks of the rows appended so far; the values are released afterwards. */
  Ranked rank() {
    int[] ranks = new int[size];
    int live = size - nulls.cardinality();
    int distinct;
    switch (kind) {
      case INTEGER, FLOAT -> {
        // Floats become longs ordered as Double.compare orders them (-0.0 before 0.0, every NaN
        // equal and last), so both kinds take the radix sort.
        long[] live64 = new long[live];
        int[] at = new int[live];
        int k = 0;
        for (int i = 0; i < size; i++) {
          if (!nulls.get(i)) {
            live64[k] = kind == Kind.INTEGER ? longs[i] : sortable(doubles[i]);
            at[k++] = i;
          }
        }
        Ranked r = DenseRanks.of(live64, live);
        distinct = r.distinct();
        if (live < size) {
          Arrays.fill(ranks, distinct);
        }
        for (int j = 0; j < live; j++) {
          ranks[at[j]] = r.ranks()[j];
        }
      }
      default -> {
        Comparator<byte[]> order = Arrays::compareUnsigned;
        byte[][] sorted = new byte[live][];
        int k = 0;
        for (int i = 0; i < size; i++) {
          if (!nulls.get(i)) {
            sorted[k++] = bytes[i];
          }
        }
        Arrays.sort(sorted, order);
        int d = 0;
        for (int i = 0; i < sorted.length; i++) {
          if (d == 0 || order.compare(sorted[d - 1], sorted[i]) != 0) {
            sorted[d++] = sorted[i];
          }
        }
        distinct = d;
        for (int i = 0; i < size; i++) {
          ranks[i] = nulls.get(i) ? distinct : Arrays.binarySearch(sorted, 0, distinct, bytes[i], order);
        }
      }
    }
    longs = null;
    doubles = null;
    bytes = null;
    return new Ranked(ranks, distinct + (live < size ? 1 : 0));
  }

  static long sortable(double d) {
    long bits = Double.doubleToLongBits(d);
    return bits ^ ((bits >> 63) & Long.MAX_VALUE);
  }
}
