package dev.javelin.core;

/**
 * What a merge insert did: the dataset at the version it committed, how many rows it inserted,
 * updated and deleted there, how many attempts it took (more than one when it lost a race and ran
 * again on a newer version), and how it found its matches.
 */
public final class MergeInsertResult {
  private final Dataset dataset;
  private final long inserted;
  private final long updated;
  private final long deleted;
  private final int attempts;
  private final MergeInsertPlan plan;

  public MergeInsertResult(Dataset dataset, long inserted, long updated, long deleted, int attempts,
      MergeInsertPlan plan) {
    this.dataset = dataset;
    this.inserted = inserted;
    this.updated = updated;
    this.deleted = deleted;
    this.attempts = attempts;
    this.plan = plan;
  }

  /** The dataset at the committed version (the one merged into, unchanged, if nothing changed). */
  public Dataset dataset() {
    return dataset;
  }

  /** Source rows inserted as new rows. */
  public long rowsInserted() {
    return inserted;
  }

  /** Target rows replaced by their source row. */
  public long rowsUpdated() {
    return updated;
  }

  /** Target rows deleted (matched and deleted, or not matched by the source and deleted). */
  public long rowsDeleted() {
    return deleted;
  }

  /** How many times the merge ran: 1, plus one per lost race. */
  public int attempts() {
    return attempts;
  }

  /** How the last attempt found its matches. */
  public MergeInsertPlan plan() {
    return plan;
  }

  @Override
  public String toString() {
    return "MergeInsertResult{version=" + dataset.version() + ", inserted=" + inserted + ", updated=" + updated
        + ", deleted=" + deleted + ", attempts=" + attempts + "}";
  }
}
