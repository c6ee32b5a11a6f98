package dev.javelin.core.cluster;

import dev.javelin.core.Dataset;
import java.util.List;

/** What a committed clustering did. */
public final class ClusterResult {
  private final Dataset dataset;
  private final List<Long> sourceIds;
  private final List<Long> destinationIds;
  private final long rowsMoved;

  ClusterResult(Dataset dataset, List<Long> sourceIds, List<Long> destinationIds, long rowsMoved) {
    this.dataset = dataset;
    this.sourceIds = List.copyOf(sourceIds);
    this.destinationIds = List.copyOf(destinationIds);
    this.rowsMoved = rowsMoved;
  }

  /** The dataset at the version the clustering committed. */
  public Dataset dataset() {
    return dataset;
  }

  /** The version the clustering committed. */
  public long version() {
    return dataset.version();
  }

  /** The rewritten fragments, in the order their rows were read (the row map's source order). */
  public List<Long> sourceIds() {
    return sourceIds;
  }

  /** The new fragments, in order: a row map label is an index into this list. */
  public List<Long> destinationIds() {
    return destinationIds;
  }

  /** The live rows moved from the sources into the destinations. */
  public long rowsMoved() {
    return rowsMoved;
  }

  @Override
  public String toString() {
    return "ClusterResult{version=" + version() + ", sources=" + sourceIds + ", destinations=" + destinationIds
        + ", rows=" + rowsMoved + "}";
  }
}
