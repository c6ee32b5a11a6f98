package dev.javelin.cli;

import dev.javelin.common.Progress;
import dev.javelin.common.ProgressListener;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Draws a library operation's progress on one terminal line of stderr: the stage, a bar, done of
 * total, the rate and the time left, redrawn at most every {@value #REDRAW_MILLIS} ms and replaced
 * by the next stage; a finished stage stays on the screen as one line. Only for a terminal: when
 * stderr is piped or {@code --quiet} is given, commands use {@link ProgressListener#NONE}.
 */
final class ProgressBar implements ProgressListener {
  static final long REDRAW_MILLIS = 100;
  private static final int BAR_WIDTH = 24;

  private final PrintWriter err;
  private final int width;
  private final LongSupplier clock;
  private String stage;
  private long stageStart;
  private long lastDraw;
  private int drawn;

  ProgressBar(PrintWriter err, int width, LongSupplier millisClock) {
    this.err = err;
    this.width = width;
    this.clock = millisClock;
  }

  /** The system property (or environment variable {@code JAVELIN_PROGRESS}) saying when bars are drawn. */
  static final String MODE_PROPERTY = "javelin.progress";

  /**
   * A bar on {@code err} if the process talks to a terminal and the user did not ask for quiet;
   * {@code JAVELIN_PROGRESS=always} (or {@code -Djavelin.progress=always}) draws it on a pipe too,
   * {@code never} never.
   */
  static ProgressListener forTerminal(PrintWriter err, boolean quiet) {
    String mode = System.getProperty(MODE_PROPERTY, System.getenv().getOrDefault("JAVELIN_PROGRESS", "auto"));
    boolean draw = switch (mode.trim().toLowerCase(Locale.ROOT)) {
      case "always" -> true;
      case "never" -> false;
      default -> System.console() != null;
    };
    if (quiet || !draw) {
      return ProgressListener.NONE;
    }
    return new ProgressBar(err, terminalWidth(System.getenv("COLUMNS")), System::currentTimeMillis);
  }

  // The shell's COLUMNS when it exports it, else the classic 80.
  static int terminalWidth(String columns) {
    try {
      int w = columns == null ? 0 : Integer.parseInt(columns.trim());
      return w >= 20 ? w : 80;
    } catch (NumberFormatException e) {
      return 80;
    }
  }

  @Override
  public synchronized void onProgress(Progress p) {
    long now = clock.getAsLong();
    if (!p.stage().equals(stage)) {
      stage = p.stage();
      stageStart = now;
      lastDraw = now - REDRAW_MILLIS; // a new stage draws at once
    }
    if (!p.finished() && now - lastDraw < REDRAW_MILLIS) {
      return;
    }
    lastDraw = now;
    String line = line(p, now - stageStart);
    // Pad over what the last line drew, then return to the start of the line.
    StringBuilder b = new StringBuilder("\r").append(line);
    for (int i = line.length(); i < drawn; i++) {
      b.append(' ');
    }
    drawn = line.length();
    if (p.finished()) {
      b.append('\n');
      drawn = 0;
      stage = null;
    }
    err.print(b);
    err.flush();
  }

  /**
   * The line for {@code p} after {@code elapsedMillis} in its stage, within the terminal's width:
   * without the bar when it does not fit (the percentage says as much), cut when still too long.
   */
  String line(Progress p, long elapsedMillis) {
    String full = line(p, elapsedMillis, true);
    if (full.length() <= width) {
      return full;
    }
    String b = line(p, elapsedMillis, false);
    return b.length() <= width ? b : b.substring(0, Math.max(0, width - 1)) + "…";
  }

  private String line(Progress p, long elapsedMillis, boolean withBar) {
    StringBuilder b = new StringBuilder();
    b.append(p.operation()).append(": ").append(p.stage()).append(' ');
    double fraction = p.fraction();
    if (fraction >= 0) {
      int filled = (int) Math.round(fraction * BAR_WIDTH);
      if (withBar) {
        b.append('[').append("#".repeat(filled)).append(".".repeat(BAR_WIDTH - filled)).append("] ");
      }
      b.append(String.format(Locale.ROOT, "%3d%% ", (int) Math.floor(fraction * 100)));
      b.append(Formats.number(p.done())).append(" of ").append(Formats.number(p.total()));
    } else {
      b.append(Formats.number(p.done()));
    }
    b.append(' ').append(p.unit().label());
    double seconds = elapsedMillis / 1000.0;
    if (seconds > 0 && p.done() > 0) {
      double rate = p.done() / seconds;
      b.append(", ").append(Formats.number(Math.round(rate))).append('/').append('s');
      if (!p.finished() && fraction >= 0 && fraction < 1) {
        long left = Math.round((p.total() - p.done()) / rate);
        b.append(", ").append(Formats.duration(Duration.ofSeconds(left))).append(" left");
      }
    }
    if (p.finished()) {
      b.append(", ").append(Formats.duration(Duration.ofMillis(elapsedMillis))).append(" in all");
    }
    return b.toString();
  }
}
