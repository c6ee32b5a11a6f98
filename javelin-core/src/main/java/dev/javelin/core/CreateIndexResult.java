package dev.javelin.core;

/** What building an index committed: the dataset at the new version, and the index as listed there. */
public final class CreateIndexResult {
  private final Dataset dataset;
  private final IndexInfo index;

  CreateIndexResult(Dataset dataset, IndexInfo index) {
    this.dataset = dataset;
    this.index = index;
  }

  /** The dataset at the version that holds the index. */
  public Dataset dataset() {
    return dataset;
  }

  /** The index built. */
  public IndexInfo index() {
    return index;
  }

  @Override
  public String toString() {
    return "CreateIndexResult{version=" + dataset.version() + ", index=" + index.name() + "}";
  }
}
