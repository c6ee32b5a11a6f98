package dev.javelin.table.rowids;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.javelin.table.proto.RowIdProtos;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;

/**
 * The dataset version of every physical row of a fragment (when it was created, or last
 * updated), as runs of rows sharing a version: a {@code lance.table.RowDatasetVersionSequence}.
 * Only the length of a run's span matters (Lance writes {@code Range[0, n)}); the span's values
 * are kept so that a decoded sequence encodes back to the same bytes. Immutable.
 */
public final class RowVersionSequence {
  private final List<U64Segment> spans;
  private final long[] versions;
  private final long[] ends; // ends[i]: rows in runs 0..i

  private RowVersionSequence(List<U64Segment> spans, long[] versions) {
    this.spans = List.copyOf(spans);
    this.versions = versions;
    this.ends = new long[versions.length];
    long n = 0;
    for (int i = 0; i < ends.length; i++) {
      n += spans.get(i).length();
      ends[i] = n;
    }
  }

  /** Every one of {@code rows} rows at one version, as Lance writes for new rows (no run when 0 rows). */
  public static RowVersionSequence uniform(long rows, long version) {
    if (rows == 0) {
      return new RowVersionSequence(List.of(), new long[0]);
    }
    return new RowVersionSequence(List.of(U64Segment.range(0, rows)), new long[] {version});
  }

  /** One version per row, runs of equal versions kept together (as rows moved by compaction keep theirs). */
  public static RowVersionSequence ofVersions(long[] perRow) {
    List<U64Segment> spans = new ArrayList<>();
    List<Long> vs = new ArrayList<>();
    int start = 0;
    for (int i = 1; i <= perRow.length; i++) {
      if (i == perRow.length || perRow[i] != perRow[start]) {
        spans.add(U64Segment.range(start, i));
        vs.add(perRow[start]);
        start = i;
      }
    }
    return new RowVersionSequence(spans, vs.stream().mapToLong(Long::longValue).toArray());
  }

  /**
   * Decodes a serialised {@code RowDatasetVersionSequence}.
   *
   * @throws IllegalArgumentException if the bytes do not parse or a run is inconsistent
   */
  public static RowVersionSequence parse(byte[] bytes) {
    RowIdProtos.RowDatasetVersionSequence p;
    try {
      p = RowIdProtos.RowDatasetVersionSequence.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("RowDatasetVersionSequence does not parse: " + e.getMessage(), e);
    }
    List<U64Segment> spans = new ArrayList<>();
    long[] versions = new long[p.getRunsCount()];
    for (int i = 0; i < versions.length; i++) {
      RowIdProtos.RowDatasetVersionRun r = p.getRuns(i);
      if (!r.hasSpan()) {
        throw new IllegalArgumentException("RowDatasetVersionRun " + i + " has no span");
      }
      spans.add(U64Segment.fromProto(r.getSpan()));
      versions[i] = r.getVersion();
    }
    return new RowVersionSequence(spans, versions);
  }

  /** The serialised {@code RowDatasetVersionSequence}, as Lance writes it. */
  public byte[] toBytes() {
    RowIdProtos.RowDatasetVersionSequence.Builder p = RowIdProtos.RowDatasetVersionSequence.newBuilder();
    for (int i = 0; i < versions.length; i++) {
      p.addRuns(RowIdProtos.RowDatasetVersionRun.newBuilder().setSpan(spans.get(i).toProto()).setVersion(versions[i]));
    }
    return p.build().toByteArray();
  }

  /** How many rows. */
  public long length() {
    return ends.length == 0 ? 0 : ends[ends.length - 1];
  }

  /** How many runs. */
  public int runCount() {
    return versions.length;
  }

  /**
   * The version of physical row i.
   *
   * @throws IndexOutOfBoundsException unless 0 &le; i &lt; length
   */
  public long get(long i) {
    if (i < 0 || i >= length()) {
      throw new IndexOutOfBoundsException("Row " + i + " of a version sequence of " + length() + " rows");
    }
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
    return versions[lo];
  }

  /** The versions in row order. */
  public PrimitiveIterator.OfLong iterator() {
    return new PrimitiveIterator.OfLong() {
      private int run;
      private long row;

      @Override
      public boolean hasNext() {
        return row < length();
      }

      @Override
      public long nextLong() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        while (ends[run] <= row) {
          run++;
        }
        row++;
        return versions[run];
      }
    };
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RowVersionSequence)) {
      return false;
    }
    RowVersionSequence s = (RowVersionSequence) o;
    return s.spans.equals(spans) && Arrays.equals(s.versions, versions);
  }

  @Override
  public int hashCode() {
    return spans.hashCode() * 31 + Arrays.hashCode(versions);
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("RowVersionSequence[");
    for (int i = 0; i < versions.length; i++) {
      b.append(i == 0 ? "" : ", ").append(spans.get(i).length()).append("@v").append(versions[i]);
    }
    return b.append(']').toString();
  }
}
