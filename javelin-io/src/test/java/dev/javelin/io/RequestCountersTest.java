package dev.javelin.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.io.RequestCounters.Kind;
import org.junit.jupiter.api.Test;

class RequestCountersTest {
  @Test
  void aRangeNamesItsInclusiveLengthAndAnythingElseNothing() {
    assertThat(RequestCounters.rangeLength("bytes=0-0")).isEqualTo(1);
    assertThat(RequestCounters.rangeLength("bytes=100-5242979")).isEqualTo(5_242_880);
    assertThat(RequestCounters.rangeLength("bytes=-500")).isZero(); // a suffix: its length is unknown here
    assertThat(RequestCounters.rangeLength("bytes=7-")).isZero();
    assertThat(RequestCounters.rangeLength("items=0-9")).isZero();
    assertThat(RequestCounters.rangeLength(null)).isZero();
  }

  @Test
  void copiedBytesAreCountedButNotAsBytesMoved() {
    RequestCounters c = new RequestCounters();
    c.record(Kind.GET, 100);
    c.record(Kind.PUT, 50);
    c.record(Kind.COPY, 1 << 20);
    RequestCounts counts = c.snapshot();
    assertThat(counts.total()).isEqualTo(3);
    assertThat(counts.bytes(Kind.COPY)).isEqualTo(1 << 20);
    assertThat(counts.totalBytes()).isEqualTo(150);
    assertThat(counts.toString()).isEqualTo("GET 1 (100 bytes), PUT 1 (50 bytes), COPY 1 (1048576 bytes)");
  }
}
