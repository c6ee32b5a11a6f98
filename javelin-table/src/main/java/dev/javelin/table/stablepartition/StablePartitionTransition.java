package dev.javelin.table.stablepartition;

import dev.javelin.table.Fragment;
import dev.javelin.table.proto.TableProtos;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One reordered rewrite, as the {@code __lance_stable_partition} entry records it: the version it
 * read, its ordered source fragments (their physical rows position each source's rows in the row
 * map), its ordered destination fragment ids (a row map label indexes them) and the row map file.
 * Immutable.
 */
public final class StablePartitionTransition {
  /** A source fragment as the rewrite read it. */
  public record Source(long id, long physicalRows, long deletedRows) {
    /** The fragment as it stands in a manifest. */
    public static Source of(Fragment f) {
      return new Source(f.id(), f.physicalRows(), f.physicalRows() - f.liveRows());
    }

    /** Rows not deleted when the rewrite read the fragment. */
    public long liveRows() {
      return physicalRows - deletedRows;
    }
  }

  private final long datasetVersion;
  private final List<Source> sources;
  private final List<Long> destinations;
  private final String rowMapPath;

  /**
   * @param datasetVersion the version the rewrite read
   * @param sources the source fragments, in row map order
   * @param destinations the destination fragment ids, in label order
   * @param rowMapPath the row map file, relative to the dataset root
   */
  public StablePartitionTransition(long datasetVersion, List<Source> sources, List<Long> destinations,
      String rowMapPath) {
    if (sources.isEmpty() || destinations.isEmpty()) {
      throw new IllegalArgumentException("A transition needs sources and destinations: " + sources + " -> "
          + destinations);
    }
    this.datasetVersion = datasetVersion;
    this.sources = List.copyOf(sources);
    this.destinations = List.copyOf(destinations);
    this.rowMapPath = Objects.requireNonNull(rowMapPath);
  }

  /** The version the rewrite read. */
  public long datasetVersion() {
    return datasetVersion;
  }

  /** The source fragments, in row map order. */
  public List<Source> sources() {
    return sources;
  }

  /** The destination fragment ids; label {@code d} names {@code destinations().get(d)}. */
  public List<Long> destinations() {
    return destinations;
  }

  /** The row map file, relative to the dataset root. */
  public String rowMapPath() {
    return rowMapPath;
  }

  /** The row map position of a source's first row (the sum of earlier sources' physical rows). */
  public long firstPosition(long sourceId) {
    long p = 0;
    for (Source s : sources) {
      if (s.id() == sourceId) {
        return p;
      }
      p += s.physicalRows();
    }
    throw new IllegalArgumentException("Fragment " + sourceId + " is not a source of " + this);
  }

  TableProtos.StablePartitionDetails.Transition toProto() {
    TableProtos.StablePartitionDetails.Transition.Builder b = TableProtos.StablePartitionDetails.Transition
        .newBuilder().setDatasetVersion(datasetVersion).addAllDestinations(destinations).setRowMapPath(rowMapPath);
    for (Source s : sources) {
      b.addSources(TableProtos.FragmentReuseIndexDetails.FragmentDigest.newBuilder().setId(s.id())
          .setPhysicalRows(s.physicalRows()).setNumDeletedRows(s.deletedRows()));
    }
    return b.build();
  }

  static StablePartitionTransition fromProto(TableProtos.StablePartitionDetails.Transition p) {
    List<Source> sources = new ArrayList<>();
    p.getSourcesList().forEach(d -> sources.add(new Source(d.getId(), d.getPhysicalRows(), d.getNumDeletedRows())));
    return new StablePartitionTransition(p.getDatasetVersion(), sources, p.getDestinationsList(), p.getRowMapPath());
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof StablePartitionTransition)) {
      return false;
    }
    StablePartitionTransition t = (StablePartitionTransition) o;
    return t.datasetVersion == datasetVersion && t.sources.equals(sources) && t.destinations.equals(destinations)
        && t.rowMapPath.equals(rowMapPath);
  }

  @Override
  public int hashCode() {
    return Objects.hash(datasetVersion, sources, destinations, rowMapPath);
  }

  @Override
  public String toString() {
    return "StablePartitionTransition{version=" + datasetVersion + ", sources=" + sources + ", destinations="
        + destinations + ", rowMap=" + rowMapPath + "}";
  }
}
