package dev.javelin.table.rowids;

import com.google.protobuf.ByteString;
import dev.javelin.table.proto.RowIdProtos;
import java.util.Arrays;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.PrimitiveIterator;

/**
 * A run of distinct u64 values (row ids, or row positions) in one of Lance's five compact forms
 * ({@code lance.table.U64Segment}). Immutable. Values are unsigned; Java longs hold them.
 *
 * <p>{@link #of} picks the form the way Lance does: a contiguous ascending run is a
 * {@link Kind#RANGE}; another ascending run is whichever of {@link Kind#RANGE_WITH_HOLES} (about 4
 * bytes a hole), {@link Kind#RANGE_WITH_BITMAP} (a bit a slot) and {@link Kind#SORTED_ARRAY} (about 2
 * bytes a value) Lance estimates smallest, ties in that order; anything else is an
 * {@link Kind#ARRAY}. Lance counts a run with repeated values as sorted, which would lose the
 * repeats in a range form; here repeats make an {@link Kind#ARRAY}, which keeps them.
 */
public final class U64Segment {
  /** The five forms, in the order of the protobuf oneof. */
  public enum Kind { RANGE, RANGE_WITH_HOLES, RANGE_WITH_BITMAP, SORTED_ARRAY, ARRAY }

  private final Kind kind;
  private final long start; // range forms: first value
  private final long end; // range forms: one past the last value
  private final EncodedU64Array array; // holes (absolute values), or the values of an array form
  private final byte[] bitmap; // RANGE_WITH_BITMAP: bit i (LSB first) set when start + i is present
  private final long length;
  private volatile long[] bitmapValues; // RANGE_WITH_BITMAP values, decoded on first random access

  private U64Segment(Kind kind, long start, long end, EncodedU64Array array, byte[] bitmap, long length) {
    this.kind = kind;
    this.start = start;
    this.end = end;
    this.array = array;
    this.bitmap = bitmap;
    this.length = length;
  }

  /** The values [start, end) (unsigned; start &le; end). */
  public static U64Segment range(long start, long end) {
    if (Long.compareUnsigned(start, end) > 0) {
      throw new IllegalArgumentException("Range start " + Long.toUnsignedString(start) + " is after its end "
          + Long.toUnsignedString(end));
    }
    return new U64Segment(Kind.RANGE, start, end, null, null, end - start);
  }

  /** The values in order, in the form Lance would choose for them (see the class comment). */
  public static U64Segment of(long... values) {
    long[] v = values.clone();
    if (v.length == 0) {
      return range(0, 0);
    }
    boolean strictlyAscending = true;
    for (int i = 1; i < v.length && strictlyAscending; i++) {
      strictlyAscending = Long.compareUnsigned(v[i - 1], v[i]) < 0;
    }
    if (!strictlyAscending) {
      return new U64Segment(Kind.ARRAY, 0, 0, EncodedU64Array.of(v), null, v.length);
    }
    long min = v[0];
    long max = v[v.length - 1];
    long span = max - min; // slots - 1
    if (span == v.length - 1) {
      return range(min, max + 1);
    }
    // Lance's size estimates, in doubles so that a huge span cannot overflow.
    double slots = unsignedDouble(span) + 1;
    double holes = slots - v.length;
    double withHoles = 24 + 4 * holes;
    double withBitmap = 24 + Math.ceil(slots / 8.0);
    double sortedArray = 24 + 2.0 * v.length;
    double best = Math.min(withHoles, Math.min(withBitmap, sortedArray));
    if (best == withHoles) {
      long[] h = new long[(int) holes];
      int n = 0;
      int j = 0;
      for (long x = min; x != max; x++) {
        if (v[j] == x) {
          j++;
        } else {
          h[n++] = x;
        }
      }
      return new U64Segment(Kind.RANGE_WITH_HOLES, min, max + 1, EncodedU64Array.of(h), null, v.length);
    }
    if (best == withBitmap) {
      byte[] bits = new byte[(int) ((span + 1 + 7) / 8)];
      for (long x : v) {
        long i = x - min;
        bits[(int) (i >>> 3)] |= (byte) (1 << (i & 7));
      }
      return new U64Segment(Kind.RANGE_WITH_BITMAP, min, max + 1, null, bits, v.length);
    }
    return new U64Segment(Kind.SORTED_ARRAY, 0, 0, EncodedU64Array.of(v), null, v.length);
  }

  /** An {@link Kind#ARRAY} of the values whatever their order (Lance keeps a masked array an array). */
  static U64Segment array(long[] values) {
    return new U64Segment(Kind.ARRAY, 0, 0, EncodedU64Array.of(values.clone()), null, values.length);
  }

  private static double unsignedDouble(long x) {
    return x >= 0 ? x : (double) (x >>> 1) * 2.0 + (x & 1);
  }

  /**
   * Decodes a segment, checking that it is consistent (holes sorted and inside the range, a bitmap
   * long enough).
   *
   * @throws IllegalArgumentException if it is not
   */
  static U64Segment fromProto(RowIdProtos.U64Segment p) {
    switch (p.getSegmentCase()) {
      case RANGE:
        return range(p.getRange().getStart(), p.getRange().getEnd());
      case RANGE_WITH_HOLES: {
        RowIdProtos.U64Segment.RangeWithHoles r = p.getRangeWithHoles();
        checkRange(r.getStart(), r.getEnd());
        if (!r.hasHoles()) {
          throw new IllegalArgumentException("RangeWithHoles has no holes array");
        }
        EncodedU64Array holes = EncodedU64Array.fromProto(r.getHoles());
        long[] h = holes.values();
        for (int i = 0; i < h.length; i++) {
          if (Long.compareUnsigned(h[i], r.getStart()) < 0 || Long.compareUnsigned(h[i], r.getEnd()) >= 0
              || (i > 0 && Long.compareUnsigned(h[i - 1], h[i]) >= 0)) {
            throw new IllegalArgumentException("RangeWithHoles hole " + Long.toUnsignedString(h[i])
                + " is outside [" + Long.toUnsignedString(r.getStart()) + ", " + Long.toUnsignedString(r.getEnd())
                + ") or out of order");
          }
        }
        return new U64Segment(Kind.RANGE_WITH_HOLES, r.getStart(), r.getEnd(), holes, null,
            r.getEnd() - r.getStart() - h.length);
      }
      case RANGE_WITH_BITMAP: {
        RowIdProtos.U64Segment.RangeWithBitmap r = p.getRangeWithBitmap();
        checkRange(r.getStart(), r.getEnd());
        long slots = r.getEnd() - r.getStart();
        if (slots < 0 || slots > (long) Integer.MAX_VALUE * 8 || r.getBitmap().size() < (slots + 7) / 8) {
          throw new IllegalArgumentException("RangeWithBitmap of " + Long.toUnsignedString(slots) + " slots has a "
              + r.getBitmap().size() + "-byte bitmap");
        }
        byte[] bits = r.getBitmap().toByteArray();
        long n = 0;
        for (long i = 0; i < slots; i++) {
          if ((bits[(int) (i >>> 3)] & (1 << (i & 7))) != 0) {
            n++;
          }
        }
        return new U64Segment(Kind.RANGE_WITH_BITMAP, r.getStart(), r.getEnd(), null, bits, n);
      }
      case SORTED_ARRAY: {
        EncodedU64Array a = EncodedU64Array.fromProto(p.getSortedArray());
        long[] v = a.values();
        for (int i = 1; i < v.length; i++) {
          if (Long.compareUnsigned(v[i - 1], v[i]) >= 0) {
            throw new IllegalArgumentException("SortedArray is not strictly ascending at " + i);
          }
        }
        return new U64Segment(Kind.SORTED_ARRAY, 0, 0, a, null, v.length);
      }
      case ARRAY: {
        EncodedU64Array a = EncodedU64Array.fromProto(p.getArray());
        return new U64Segment(Kind.ARRAY, 0, 0, a, null, a.values().length);
      }
      default:
        throw new IllegalArgumentException("U64Segment has no segment");
    }
  }

  private static void checkRange(long start, long end) {
    if (Long.compareUnsigned(start, end) > 0) {
      throw new IllegalArgumentException("Range start " + Long.toUnsignedString(start) + " is after its end "
          + Long.toUnsignedString(end));
    }
  }

  RowIdProtos.U64Segment toProto() {
    RowIdProtos.U64Segment.Builder p = RowIdProtos.U64Segment.newBuilder();
    switch (kind) {
      case RANGE:
        return p.setRange(RowIdProtos.U64Segment.Range.newBuilder().setStart(start).setEnd(end)).build();
      case RANGE_WITH_HOLES:
        return p.setRangeWithHoles(RowIdProtos.U64Segment.RangeWithHoles.newBuilder()
            .setStart(start).setEnd(end).setHoles(array.toProto())).build();
      case RANGE_WITH_BITMAP:
        return p.setRangeWithBitmap(RowIdProtos.U64Segment.RangeWithBitmap.newBuilder()
            .setStart(start).setEnd(end).setBitmap(ByteString.copyFrom(bitmap))).build();
      case SORTED_ARRAY:
        return p.setSortedArray(array.toProto()).build();
      default:
        return p.setArray(array.toProto()).build();
    }
  }

  public Kind kind() {
    return kind;
  }

  /** How many values. */
  public long length() {
    return length;
  }

  /**
   * The i-th value.
   *
   * @throws IndexOutOfBoundsException unless 0 &le; i &lt; length
   */
  public long get(long i) {
    if (i < 0 || i >= length) {
      throw new IndexOutOfBoundsException("Index " + i + " of a segment of " + length + " values");
    }
    switch (kind) {
      case RANGE:
        return start + i;
      case RANGE_WITH_HOLES: {
        // Every hole at or before the candidate pushes it one further.
        long v = start + i;
        for (long h : array.values()) {
          if (Long.compareUnsigned(h, v) <= 0) {
            v++;
          } else {
            break;
          }
        }
        return v;
      }
      case RANGE_WITH_BITMAP:
        return bitmapValues()[(int) i];
      default:
        return array.values()[(int) i];
    }
  }

  /** The position of a value, or -1 if the segment does not hold it. */
  public long indexOf(long value) {
    switch (kind) {
      case RANGE:
        return inRange(value) ? value - start : -1;
      case RANGE_WITH_HOLES: {
        if (!inRange(value)) {
          return -1;
        }
        int at = unsignedSearch(array.values(), value);
        return at >= 0 ? -1 : value - start - (-at - 1);
      }
      case RANGE_WITH_BITMAP: {
        if (!inRange(value)) {
          return -1;
        }
        int at = unsignedSearch(bitmapValues(), value);
        return at >= 0 ? at : -1;
      }
      case SORTED_ARRAY: {
        int at = unsignedSearch(array.values(), value);
        return at >= 0 ? at : -1;
      }
      default: {
        long[] v = array.values();
        for (int i = 0; i < v.length; i++) {
          if (v[i] == value) {
            return i;
          }
        }
        return -1;
      }
    }
  }

  private boolean inRange(long value) {
    return Long.compareUnsigned(value, start) >= 0 && Long.compareUnsigned(value, end) < 0;
  }

  // Like Arrays.binarySearch, with unsigned order.
  private static int unsignedSearch(long[] a, long key) {
    int lo = 0;
    int hi = a.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = Long.compareUnsigned(a[mid], key);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -(lo + 1);
  }

  private long[] bitmapValues() {
    long[] v = bitmapValues;
    if (v == null) {
      v = new long[(int) length];
      int n = 0;
      long slots = end - start;
      for (long i = 0; i < slots; i++) {
        if ((bitmap[(int) (i >>> 3)] & (1 << (i & 7))) != 0) {
          v[n++] = start + i;
        }
      }
      bitmapValues = v;
    }
    return v;
  }

  /** The values in order. */
  public PrimitiveIterator.OfLong iterator() {
    switch (kind) {
      case RANGE:
        return new PrimitiveIterator.OfLong() {
          private long next = start;

          @Override
          public boolean hasNext() {
            return next != end;
          }

          @Override
          public long nextLong() {
            if (next == end) {
              throw new NoSuchElementException();
            }
            return next++;
          }
        };
      case RANGE_WITH_HOLES:
        return new PrimitiveIterator.OfLong() {
          private long next = start;
          private int hole;
          private long left = length;

          @Override
          public boolean hasNext() {
            return left > 0;
          }

          @Override
          public long nextLong() {
            if (left == 0) {
              throw new NoSuchElementException();
            }
            long[] h = array.values();
            while (hole < h.length && h[hole] == next) {
              hole++;
              next++;
            }
            left--;
            return next++;
          }
        };
      case RANGE_WITH_BITMAP:
        return Arrays.stream(bitmapValues()).iterator();
      default:
        return Arrays.stream(array.values()).iterator();
    }
  }

  /** The values as an array (a copy). */
  public long[] toArray() {
    long[] out = new long[Math.toIntExact(length)];
    PrimitiveIterator.OfLong it = iterator();
    for (int i = 0; i < out.length; i++) {
      out[i] = it.nextLong();
    }
    return out;
  }

  /** Values [offset, offset + len), re-encoded in the form Lance would choose (a range stays a range). */
  U64Segment slice(long offset, long len) {
    if (offset < 0 || len < 0 || offset + len > length) {
      throw new IndexOutOfBoundsException("Slice [" + offset + ", " + (offset + len) + ") of a segment of "
          + length + " values");
    }
    if (offset == 0 && len == length) {
      return this;
    }
    if (kind == Kind.RANGE) {
      return range(start + offset, start + offset + len);
    }
    long[] all = toArray();
    return of(Arrays.copyOfRange(all, (int) offset, (int) (offset + len)));
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof U64Segment)) {
      return false;
    }
    U64Segment s = (U64Segment) o;
    return s.kind == kind && s.start == start && s.end == end && Objects.equals(s.array, array)
        && Arrays.equals(s.bitmap, bitmap);
  }

  @Override
  public int hashCode() {
    return (kind.hashCode() * 31 + Long.hashCode(start)) * 31 + Long.hashCode(end);
  }

  @Override
  public String toString() {
    switch (kind) {
      case RANGE:
        return "Range[" + Long.toUnsignedString(start) + ", " + Long.toUnsignedString(end) + ")";
      case RANGE_WITH_HOLES:
      case RANGE_WITH_BITMAP:
        return kind + "[" + Long.toUnsignedString(start) + ", " + Long.toUnsignedString(end) + "), " + length
            + " values";
      default:
        return kind + "(" + length + " values)";
    }
  }
}
