package dev.javelin.common;

/**
 * Hears the progress of long operations (writes, index builds, compactions, clusterings, cleanups,
 * settles): the command line draws a bar from it, a Spark job can log it. Called on the threads
 * doing the work, possibly several at once, after every batch or task: keep it cheap and
 * thread-safe; an exception it throws fails the operation.
 */
@FunctionalInterface
public interface ProgressListener {
  /** Hears nothing. */
  ProgressListener NONE = p -> {};

  /** One report: a stage started, moved on, or finished. */
  void onProgress(Progress progress);
}
