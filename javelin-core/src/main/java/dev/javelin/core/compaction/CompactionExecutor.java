package dev.javelin.core.compaction;

import dev.javelin.core.Dataset;

/**
 * Runs one task (possibly on another machine). {@link DefaultCompactionExecutor} runs both kinds;
 * a caller may pass its own to {@link Compaction#compact(Dataset, CompactionOptions,
 * CompactionPlanner, CompactionExecutor)}.
 */
public interface CompactionExecutor {
  /**
   * Writes the task's new files. On failure deletes what it wrote.
   *
   * @param dataset the dataset (any version; the task reads its own {@link CompactionTask#readVersion()})
   */
  CompactionTaskResult execute(Dataset dataset, CompactionTask task);
}
