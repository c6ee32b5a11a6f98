package dev.javelin.core.cluster;

import dev.javelin.core.Dataset;
import java.util.List;

/** What a committed clustering did. */
public final class ClusterResult {
  private final Dataset dataset;
  private final List<Long> sourceIds;
  private final List<Long> destinationIds;
  private final long rowsMoved;
  private final long clusteredVersion;
  private final List<String> zoneMaps;

  ClusterResult(Dataset dataset, List<Long> sourceIds, List<Long> destinationIds, long rowsMoved) {
    this(dataset, sourceIds, destinationIds, rowsMoved, dataset.version(), List.of());
  }

  private ClusterResult(Dataset dataset, List<Long> sourceIds, List<Long> destinationIds, long rowsMoved,
      long clusteredVersion, List<String> zoneMaps) {
    this.dataset = dataset;
    this.sourceIds = List.copyOf(sourceIds);
    this.destinationIds = List.copyOf(destinationIds);
    this.rowsMoved = rowsMoved;
    this.clusteredVersion = clusteredVersion;
    this.zoneMaps = List.copyOf(zoneMaps);
  }

  // The same clustering, followed by zone map commits reaching `after`.
  ClusterResult withZoneMaps(Dataset after, List<String> built) {
    return new ClusterResult(after, sourceIds, destinationIds, rowsMoved, clusteredVersion, built);
  }

  /** The dataset at the newest version the clustering committed (its zone maps' when it built any). */
  public Dataset dataset() {
    return dataset;
  }

  /** The newest version the clustering committed (its zone maps' when it built any). */
  public long version() {
    return dataset.version();
  }

  /** The version of the clustering's rewrite (before its zone maps). */
  public long clusteredVersion() {
    return clusteredVersion;
  }

  /** The zone maps built or rebuilt on the key columns, by index name. */
  public List<String> zoneMaps() {
    return zoneMaps;
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
        + ", rows=" + rowsMoved
        + (zoneMaps.isEmpty() ? "" : ", zoneMaps=" + zoneMaps) + "}";
  }
}
