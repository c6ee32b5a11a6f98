package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.common.Progress;
import dev.javelin.common.Progress.Unit;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressBarTest {
  private final StringWriter text = new StringWriter();
  private final AtomicLong now = new AtomicLong(1_000_000);
  private final ProgressBar bar = new ProgressBar(new PrintWriter(text), 120, now::get);

  private static Progress at(long done, long total, boolean finished) {
    return new Progress("create index id_idx", "read rows", done, total, Unit.ROWS, finished);
  }

  @Test
  void aLineShowsTheBarTheCountsTheRateAndTheTimeLeft() {
    assertThat(bar.line(at(0, 2_000_000, false), 0))
        .isEqualTo("create index id_idx: read rows [........................]   0% 0 of 2,000,000 rows");
    assertThat(bar.line(at(500_000, 2_000_000, false), 2_000))
        .isEqualTo("create index id_idx: read rows [######..................]  25% 500,000 of 2,000,000 rows, "
            + "250,000/s, 6s left");
    assertThat(bar.line(at(2_000_000, 2_000_000, true), 125_000))
        .isEqualTo("create index id_idx: read rows [########################] 100% 2,000,000 of 2,000,000 rows, "
            + "16,000/s, 2m 5s in all");
    assertThat(bar.line(new Progress("append", "write rows", 81_920, -1, Unit.ROWS, false), 1_000))
        .isEqualTo("append: write rows 81,920 rows, 81,920/s");
  }

  @Test
  void aLineNeverPassesTheTerminalsWidthDroppingTheBarFirst() {
    ProgressBar ninety = new ProgressBar(new PrintWriter(text), 90, now::get);
    assertThat(ninety.line(at(500_000, 2_000_000, false), 2_000))
        .isEqualTo("create index id_idx: read rows  25% 500,000 of 2,000,000 rows, 250,000/s, 6s left");
    ProgressBar narrow = new ProgressBar(new PrintWriter(text), 40, now::get);
    String line = narrow.line(at(500_000, 2_000_000, false), 2_000);
    assertThat(line).hasSize(40).endsWith("…").doesNotContain("[");
  }

  @Test
  void redrawsAreThrottledAndAFinishedStageKeepsItsLine() {
    bar.onProgress(at(0, 100, false));
    now.addAndGet(10);
    bar.onProgress(at(10, 100, false));   // too soon: not drawn
    now.addAndGet(ProgressBar.REDRAW_MILLIS);
    bar.onProgress(at(50, 100, false));
    now.addAndGet(10);
    bar.onProgress(at(100, 100, true));   // always drawn
    String[] draws = text.toString().split("\r", -1);
    assertThat(draws).hasSize(4); // "", then three draws
    assertThat(draws[1]).contains(" 0 of 100 rows");
    assertThat(draws[2]).contains(" 50 of 100 rows");
    assertThat(draws[3]).contains(" 100 of 100 rows").endsWith(" in all\n");
  }

  @Test
  void theWidthComesFromColumnsWhenTheShellSetsIt() {
    assertThat(ProgressBar.terminalWidth("132")).isEqualTo(132);
    assertThat(ProgressBar.terminalWidth(null)).isEqualTo(80);
    assertThat(ProgressBar.terminalWidth("wide")).isEqualTo(80);
    assertThat(ProgressBar.terminalWidth("5")).isEqualTo(80);
  }
}
