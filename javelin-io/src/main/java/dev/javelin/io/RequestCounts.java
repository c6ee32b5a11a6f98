package dev.javelin.io;

import dev.javelin.io.RequestCounters.Kind;
import java.util.Arrays;

/**
 * The requests a store had sent at one moment, by kind, and the bytes they moved
 * ({@link RequestCounters#snapshot()}); {@link #minus} of two gives what happened between them.
 */
public final class RequestCounts {
  /** No requests. */
  public static final RequestCounts ZERO = new RequestCounts(new long[Kind.values().length],
      new long[Kind.values().length]);

  private final long[] counts;
  private final long[] bytes;

  RequestCounts(long[] counts, long[] bytes) {
    this.counts = counts;
    this.bytes = bytes;
  }

  /** Requests of {@code kind}. */
  public long count(Kind kind) {
    return counts[kind.ordinal()];
  }

  /** Payload bytes requests of {@code kind} moved. */
  public long bytes(Kind kind) {
    return bytes[kind.ordinal()];
  }

  /** All requests. */
  public long total() {
    return Arrays.stream(counts).sum();
  }

  /** All payload bytes read and written (not the bytes a store copied between its own objects). */
  public long totalBytes() {
    return Arrays.stream(bytes).sum() - bytes(Kind.COPY);
  }

  /** What was counted here and not yet in {@code earlier}. */
  public RequestCounts minus(RequestCounts earlier) {
    long[] c = new long[counts.length];
    long[] b = new long[bytes.length];
    for (int i = 0; i < c.length; i++) {
      c[i] = counts[i] - earlier.counts[i];
      b[i] = bytes[i] - earlier.bytes[i];
    }
    return new RequestCounts(c, b);
  }

  /** For example {@code GET 3 (196608 bytes), HEAD 1}, or {@code no requests}. */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (Kind k : Kind.values()) {
      long n = count(k);
      if (n > 0) {
        b.append(b.length() == 0 ? "" : ", ").append(k).append(' ').append(n);
        if (bytes(k) > 0) {
          b.append(" (").append(bytes(k)).append(" bytes)");
        }
      }
    }
    return b.length() == 0 ? "no requests" : b.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RequestCounts r && Arrays.equals(counts, r.counts) && Arrays.equals(bytes, r.bytes);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(counts) + Arrays.hashCode(bytes);
  }
}
