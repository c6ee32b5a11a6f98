package dev.javelin.core.compaction;

import dev.javelin.core.Dataset;

/** What a compaction run committed, and the dataset at its last committed version. */
public final class CompactionSummary {
  private final Dataset dataset;
  private final int fragmentsRemoved;
  private final int fragmentsAdded;
  private final int fragmentsRepacked;
  private final int filesAdded;

  CompactionSummary(Dataset dataset, int fragmentsRemoved, int fragmentsAdded, int fragmentsRepacked,
      int filesAdded) {
    this.dataset = dataset;
    this.fragmentsRemoved = fragmentsRemoved;
    this.fragmentsAdded = fragmentsAdded;
    this.fragmentsRepacked = fragmentsRepacked;
    this.filesAdded = filesAdded;
  }

  /** The dataset at the last version the run committed (the one it started from if none). */
  public Dataset dataset() {
    return dataset;
  }

  /** Fragments a rewrite replaced. */
  public int fragmentsRemoved() {
    return fragmentsRemoved;
  }

  /** Fragments a rewrite wrote. */
  public int fragmentsAdded() {
    return fragmentsAdded;
  }

  /** Fragments whose columns were repacked. */
  public int fragmentsRepacked() {
    return fragmentsRepacked;
  }

  /** Data files written (by both kinds of task). */
  public int filesAdded() {
    return filesAdded;
  }

  @Override
  public String toString() {
    return "CompactionSummary{removed=" + fragmentsRemoved + ", added=" + fragmentsAdded + ", repacked="
        + fragmentsRepacked + ", files=" + filesAdded + ", version=" + dataset.version() + "}";
  }
}
