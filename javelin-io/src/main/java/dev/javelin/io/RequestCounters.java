package dev.javelin.io;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts of the requests a store sent, by kind, and the bytes they moved: what a benchmark or
 * {@code explain} reports next to time, since over a network requests cost more than bytes.
 * Safe for use by many threads; {@link #NONE} stays zero.
 */
public class RequestCounters {
  /** The counters of a store that does not count. */
  public static final RequestCounters NONE = new RequestCounters() {
    @Override
    public void record(Kind kind, long bytes) {}
  };

  /** What a request did. */
  public enum Kind {
    /** A ranged or whole GET. */
    GET,
    /** A PUT of a whole object, conditional or not, or one part of a multipart upload. */
    PUT,
    /** A HEAD (exists, length). */
    HEAD,
    /** One page of a listing. */
    LIST,
    /** A delete request (one key or a batch). */
    DELETE,
    /** Starting, completing or aborting a multipart upload. */
    MULTIPART,
    /**
     * A copy the store makes between its own objects (S3's UploadPartCopy); its bytes are the
     * range copied, which never crossed the network.
     */
    COPY
  }

  private final LongAdder[] counts = new LongAdder[Kind.values().length];
  private final LongAdder[] bytes = new LongAdder[Kind.values().length];

  public RequestCounters() {
    for (int i = 0; i < counts.length; i++) {
      counts[i] = new LongAdder();
      bytes[i] = new LongAdder();
    }
  }

  /**
   * The bytes an HTTP range names ({@code bytes=a-b}: b - a + 1), or 0 for none or another form;
   * for stores that count ranged requests by the range they ask for.
   */
  public static long rangeLength(String range) {
    if (range == null || !range.startsWith("bytes=")) {
      return 0;
    }
    String[] ends = range.substring(6).split("-", 2);
    try {
      return Long.parseLong(ends[1]) - Long.parseLong(ends[0]) + 1;
    } catch (RuntimeException e) {
      return 0;
    }
  }

  /** Counts one request of {@code kind} that moved {@code bytes} bytes of payload. */
  public void record(Kind kind, long bytes) {
    counts[kind.ordinal()].increment();
    this.bytes[kind.ordinal()].add(bytes);
  }

  /** The number of requests of {@code kind} so far. */
  public long count(Kind kind) {
    return counts[kind.ordinal()].sum();
  }

  /** The payload bytes requests of {@code kind} moved so far. */
  public long bytes(Kind kind) {
    return bytes[kind.ordinal()].sum();
  }

  /** All requests so far. */
  public long total() {
    long n = 0;
    for (LongAdder c : counts) {
      n += c.sum();
    }
    return n;
  }

  /** The counts now, to subtract from a later snapshot: what one operation asked of the store. */
  public RequestCounts snapshot() {
    long[] c = new long[counts.length];
    long[] b = new long[bytes.length];
    for (int i = 0; i < c.length; i++) {
      c[i] = counts[i].sum();
      b[i] = bytes[i].sum();
    }
    return new RequestCounts(c, b);
  }

  @Override
  public String toString() {
    return snapshot().toString();
  }
}
