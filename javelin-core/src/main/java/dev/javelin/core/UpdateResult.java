package dev.javelin.core;

/** What an update did: the dataset at the version it committed, and how many rows it changed. */
public final class UpdateResult {
  private final Dataset dataset;
  private final long rowsUpdated;

  public UpdateResult(Dataset dataset, long rowsUpdated) {
    this.dataset = dataset;
    this.rowsUpdated = rowsUpdated;
  }

  /** The dataset at the committed version (the one updated, unchanged, if no row matched). */
  public Dataset dataset() {
    return dataset;
  }

  /** The number of rows whose values were rewritten. */
  public long rowsUpdated() {
    return rowsUpdated;
  }

  @Override
  public String toString() {
    return "UpdateResult{version=" + dataset.version() + ", rowsUpdated=" + rowsUpdated + "}";
  }
}
