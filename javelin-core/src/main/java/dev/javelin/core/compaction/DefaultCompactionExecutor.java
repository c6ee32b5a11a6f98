package dev.javelin.core.compaction;

import dev.javelin.core.Dataset;

/** Runs both kinds of task in this process, reading the task's own version of the dataset. */
public final class DefaultCompactionExecutor implements CompactionExecutor {
  @Override
  public CompactionTaskResult execute(Dataset dataset, CompactionTask task) {
    Dataset at = dataset.version() == task.readVersion() ? dataset : dataset.checkout(task.readVersion());
    switch (task.kind()) {
      case REPACK_COLUMNS:
        return ColumnRepacker.execute(at, task);
      case REWRITE_FRAGMENTS:
      default:
        return FragmentRewriter.execute(at, task);
    }
  }
}
