package dev.javelin.table.rowids;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.javelin.table.proto.RowIdProtos;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;
import org.roaringbitmap.PeekableIntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * The stable row id of every physical row of a fragment, deleted rows included, in row order: a
 * list of {@link U64Segment}s, stored as a {@code lance.table.RowIdSequence} protobuf (inline in the
 * fragment, or in a region of another file). Immutable.
 */
public final class RowIdSequence {
  private final List<U64Segment> segments;
  private final long[] ends; // ends[i]: rows in segments 0..i

  private RowIdSequence(List<U64Segment> segments) {
    this.segments = Collections.unmodifiableList(new ArrayList<>(segments));
    this.ends = new long[segments.size()];
    long n = 0;
    for (int i = 0; i < ends.length; i++) {
      n += segments.get(i).length();
      ends[i] = n;
    }
  }

  /** The sequence of these segments, in order. */
  public static RowIdSequence of(List<U64Segment> segments) {
    return new RowIdSequence(segments);
  }

  /** The ids [start, end) as one range segment: what a commit assigns to a new fragment. */
  public static RowIdSequence range(long start, long end) {
    return new RowIdSequence(List.of(U64Segment.range(start, end)));
  }

  /** The ids in order, as one segment of the form Lance would choose. */
  public static RowIdSequence ofValues(long... ids) {
    return new RowIdSequence(List.of(U64Segment.of(ids)));
  }

  /**
   * Decodes a serialised {@code RowIdSequence}.
   *
   * @throws IllegalArgumentException if the bytes do not parse or a segment is inconsistent
   */
  public static RowIdSequence parse(byte[] bytes) {
    RowIdProtos.RowIdSequence p;
    try {
      p = RowIdProtos.RowIdSequence.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("RowIdSequence does not parse: " + e.getMessage(), e);
    }
    List<U64Segment> segs = new ArrayList<>();
    for (RowIdProtos.U64Segment s : p.getSegmentsList()) {
      segs.add(U64Segment.fromProto(s));
    }
    return new RowIdSequence(segs);
  }

  /** The serialised {@code RowIdSequence}, as Lance writes it. */
  public byte[] toBytes() {
    RowIdProtos.RowIdSequence.Builder p = RowIdProtos.RowIdSequence.newBuilder();
    for (U64Segment s : segments) {
      p.addSegments(s.toProto());
    }
    return p.build().toByteArray();
  }

  public List<U64Segment> segments() {
    return segments;
  }

  /** How many rows (the fragment's physical rows). */
  public long length() {
    return ends.length == 0 ? 0 : ends[ends.length - 1];
  }

  /**
   * The row id of physical row i.
   *
   * @throws IndexOutOfBoundsException unless 0 &le; i &lt; length
   */
  public long get(long i) {
    if (i < 0 || i >= length()) {
      throw new IndexOutOfBoundsException("Row " + i + " of a row id sequence of " + length() + " rows");
    }
    int s = segmentOf(i);
    return segments.get(s).get(i - (s == 0 ? 0 : ends[s - 1]));
  }

  // The segment holding position i (0 <= i < length).
  private int segmentOf(long i) {
    int lo = 0;
    int hi = ends.length - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (ends[mid] > i) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /** The physical row holding a row id, or -1 if this fragment has no such row. */
  public long indexOf(long rowId) {
    for (int s = 0; s < segments.size(); s++) {
      long at = segments.get(s).indexOf(rowId);
      if (at >= 0) {
        return at + (s == 0 ? 0 : ends[s - 1]);
      }
    }
    return -1;
  }

  /** The row ids in row order. */
  public PrimitiveIterator.OfLong iterator() {
    return new PrimitiveIterator.OfLong() {
      private int seg;
      private PrimitiveIterator.OfLong it = segments.isEmpty() ? null : segments.get(0).iterator();

      @Override
      public boolean hasNext() {
        while (it != null && !it.hasNext()) {
          seg++;
          it = seg < segments.size() ? segments.get(seg).iterator() : null;
        }
        return it != null;
      }

      @Override
      public long nextLong() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return it.nextLong();
      }
    };
  }

  /** The row ids as an array (a copy). */
  public long[] toArray() {
    long[] out = new long[Math.toIntExact(length())];
    PrimitiveIterator.OfLong it = iterator();
    for (int i = 0; i < out.length; i++) {
      out[i] = it.nextLong();
    }
    return out;
  }

  /**
   * The ids of rows [offset, offset + len): whole segments are kept as they are, the cut ones
   * re-encoded (a range stays a range).
   */
  public RowIdSequence slice(long offset, long len) {
    if (offset < 0 || len < 0 || offset + len > length()) {
      throw new IndexOutOfBoundsException("Slice [" + offset + ", " + (offset + len) + ") of a row id sequence of "
          + length() + " rows");
    }
    List<U64Segment> out = new ArrayList<>();
    long from = offset;
    long to = offset + len;
    long segStart = 0;
    for (U64Segment s : segments) {
      long segEnd = segStart + s.length();
      long a = Math.max(from, segStart);
      long b = Math.min(to, segEnd);
      if (a < b) {
        out.add(s.slice(a - segStart, b - a));
      }
      segStart = segEnd;
    }
    return new RowIdSequence(out);
  }

  /**
   * The sequence without the rows at the given positions (a fragment's deletion vector): segments
   * without such rows are kept, the others re-encoded (an array stays an array, others take the
   * form {@link U64Segment#of} picks), and emptied ones dropped, as Lance's mask does.
   */
  public RowIdSequence mask(RoaringBitmap positions) {
    if (positions.isEmpty()) {
      return this;
    }
    List<U64Segment> out = new ArrayList<>();
    PeekableIntIterator del = positions.getIntIterator();
    long segStart = 0;
    for (U64Segment s : segments) {
      long segEnd = segStart + s.length();
      while (del.hasNext() && Integer.toUnsignedLong(del.peekNext()) < segStart) {
        del.next();
      }
      if (!del.hasNext() || Integer.toUnsignedLong(del.peekNext()) >= segEnd) {
        if (s.length() > 0) {
          out.add(s);
        }
      } else {
        long[] kept = new long[(int) s.length()];
        int n = 0;
        PrimitiveIterator.OfLong it = s.iterator();
        for (long p = segStart; p < segEnd; p++) {
          long v = it.nextLong();
          if (del.hasNext() && Integer.toUnsignedLong(del.peekNext()) == p) {
            del.next();
          } else {
            kept[n++] = v;
          }
        }
        if (n > 0) {
          long[] rest = Arrays.copyOf(kept, n);
          out.add(s.kind() == U64Segment.Kind.ARRAY ? U64Segment.array(rest) : U64Segment.of(rest));
        }
      }
      segStart = segEnd;
    }
    return new RowIdSequence(out);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RowIdSequence && ((RowIdSequence) o).segments.equals(segments);
  }

  @Override
  public int hashCode() {
    return segments.hashCode();
  }

  @Override
  public String toString() {
    return "RowIdSequence" + segments;
  }
}
