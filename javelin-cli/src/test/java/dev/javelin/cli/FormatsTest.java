package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FormatsTest {
  @Test
  void numbersAreGroupedByThousands() {
    assertThat(Formats.number(0)).isEqualTo("0");
    assertThat(Formats.number(999)).isEqualTo("999");
    assertThat(Formats.number(200_000)).isEqualTo("200,000");
    assertThat(Formats.number(-1_234_567)).isEqualTo("-1,234,567");
  }

  @Test
  void sizesUseBinaryUnitsWithOneDecimal() {
    assertThat(Formats.size(0)).isEqualTo("0 B");
    assertThat(Formats.size(1023)).isEqualTo("1023 B");
    assertThat(Formats.size(1024)).isEqualTo("1.0 KiB");
    assertThat(Formats.size(1536)).isEqualTo("1.5 KiB");
    assertThat(Formats.size(14_336)).isEqualTo("14.0 KiB");
    assertThat(Formats.size(1024 * 1024 - 1)).isEqualTo("1.0 MiB");
    assertThat(Formats.size(12L << 20)).isEqualTo("12.0 MiB");
    assertThat(Formats.size((3L << 30) + (1L << 29))).isEqualTo("3.5 GiB");
    assertThat(Formats.size(5L << 40)).isEqualTo("5.0 TiB");
  }

  @Test
  void durationsReadAsTheOptionsTakeThem() {
    assertThat(Formats.duration(Duration.ofDays(7))).isEqualTo("7d");
    assertThat(Formats.duration(Duration.ofHours(12))).isEqualTo("12h");
    assertThat(Formats.duration(Duration.ofMinutes(30))).isEqualTo("30m");
    assertThat(Formats.duration(Duration.ofSeconds(90))).isEqualTo("1m 30s");
    assertThat(Formats.duration(Duration.ofHours(36))).isEqualTo("1d 12h");
    assertThat(Formats.duration(Duration.ofMillis(250))).isEqualTo("250ms");
    assertThat(Formats.duration(Duration.ZERO)).isEqualTo("0s");
    assertThat(Formats.duration(Duration.ofDays(1).plusMinutes(5))).isEqualTo("1d 5m");
  }

  @Test
  void countedNounsArePluralUnlessOne() {
    assertThat(Formats.count(1, "row")).isEqualTo("1 row");
    assertThat(Formats.count(0, "row")).isEqualTo("0 rows");
    assertThat(Formats.count(1_500, "fragment")).isEqualTo("1,500 fragments");
    assertThat(Formats.count(2, "index", "indices")).isEqualTo("2 indices");
    assertThat(Formats.percent(0.25)).isEqualTo("25%");
  }
}
