package dev.javelin.core.compaction;

import dev.javelin.core.Dataset;

/** Decides what a compaction run does. {@link DefaultCompactionPlanner} is Javelin's. */
public interface CompactionPlanner {
  /** Plans tasks on {@code dataset}'s version; {@code options} already carry table config. */
  CompactionPlan plan(Dataset dataset, CompactionOptions options);
}
