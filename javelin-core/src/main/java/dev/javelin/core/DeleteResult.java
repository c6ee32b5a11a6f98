package dev.javelin.core;

/**
 * What a delete did: the dataset at the version it committed, and how many rows that commit
 * deleted. The count is of rows live when the delete read the dataset and deleted by its commit;
 * rows a concurrent delete removed first are left out, and rows concurrent appends added do not
 * enter it (as they would in the difference of two row counts).
 */
public final class DeleteResult {
  private final Dataset dataset;
  private final long rowsDeleted;

  DeleteResult(Dataset dataset, long rowsDeleted) {
    this.dataset = dataset;
    this.rowsDeleted = rowsDeleted;
  }

  /** The dataset at the committed version (the one deleted from, unchanged, if no row matched). */
  public Dataset dataset() {
    return dataset;
  }

  /** The number of rows this commit deleted. */
  public long rowsDeleted() {
    return rowsDeleted;
  }

  @Override
  public String toString() {
    return "DeleteResult{version=" + dataset.version() + ", rowsDeleted=" + rowsDeleted + "}";
  }
}
