package dev.javelin.common;

import java.util.Locale;
import org.slf4j.Logger;

/**
 * A {@link ProgressListener} that logs (what an engine with no terminal, as a Spark driver, does
 * with progress): each stage's start and end, and in between at most a line per tenth of the work.
 */
public final class ProgressLog implements ProgressListener {
  private final Logger log;
  private String stage;
  private int tenths;

  public ProgressLog(Logger log) {
    this.log = log;
  }

  @Override
  public synchronized void onProgress(Progress p) {
    if (!p.stage().equals(stage)) {
      stage = p.stage();
      tenths = 0;
      log.info(message(p));
      return;
    }
    int now = p.fraction() < 0 ? tenths : (int) (p.fraction() * 10);
    if (p.finished() || now > tenths) {
      tenths = now;
      log.info(message(p));
    }
  }

  /** For example {@code compact: rewrite and repack: 2,000 of 8,000 rows (25%)}, or {@code ... done}. */
  public static String message(Progress p) {
    StringBuilder b = new StringBuilder(p.operation()).append(": ").append(p.stage()).append(": ")
        .append(String.format(Locale.ROOT, "%,d", p.done()));
    if (p.total() >= 0) {
      b.append(String.format(Locale.ROOT, " of %,d", p.total()));
    }
    b.append(' ').append(p.unit().label());
    if (p.total() >= 0) {
      b.append(String.format(Locale.ROOT, " (%d%%)", (int) Math.floor(p.fraction() * 100)));
    }
    return p.finished() ? b.append(", done").toString() : b.toString();
  }
}
