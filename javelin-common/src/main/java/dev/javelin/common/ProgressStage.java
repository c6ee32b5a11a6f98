package dev.javelin.common;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One stage of an operation reporting to a {@link ProgressListener}: announced when started,
 * reported on each {@link #advance}, and finished on {@link #close()}. Work on several threads
 * may advance one stage.
 */
public final class ProgressStage implements AutoCloseable {
  private final ProgressListener listener;
  private final String operation;
  private final String stage;
  private final long total;
  private final Progress.Unit unit;
  private final AtomicLong done = new AtomicLong();
  private boolean closed;

  private ProgressStage(ProgressListener listener, String operation, String stage, long total, Progress.Unit unit) {
    this.listener = listener;
    this.operation = operation;
    this.stage = stage;
    this.total = total;
    this.unit = unit;
  }

  /** Starts a stage of {@code total} units (-1 when not known) and says so to {@code listener}. */
  public static ProgressStage start(ProgressListener listener, String operation, String stage, long total,
      Progress.Unit unit) {
    ProgressStage s = new ProgressStage(listener, operation, stage, total, unit);
    listener.onProgress(new Progress(operation, stage, 0, total, unit, false));
    return s;
  }

  /** {@code units} more are done. */
  public void advance(long units) {
    long now = done.addAndGet(units);
    listener.onProgress(new Progress(operation, stage, now, total, unit, false));
  }

  /** Units done so far. */
  public long done() {
    return done.get();
  }

  /** Ends the stage (once; later calls do nothing), whether or not its work completed. */
  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      listener.onProgress(new Progress(operation, stage, done.get(), total, unit, true));
    }
  }
}
