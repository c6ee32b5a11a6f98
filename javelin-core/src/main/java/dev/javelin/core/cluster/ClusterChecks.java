package dev.javelin.core.cluster;

import dev.javelin.core.exceptions.ClusterException;
import dev.javelin.format.exceptions.ColumnNotFoundException;
import dev.javelin.format.schema.LanceField;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import java.util.ArrayList;
import java.util.List;

/**
 * What a clustering checks before reading a byte: that every key column exists and can be
 * ordered, that the fragments to cluster are in the version, and that their live rows fit one
 * clustering and make at most {@link Clustering#MAX_DESTINATIONS} destinations.
 */
final class ClusterChecks {
  private ClusterChecks() {}

  /**
   * A clustering that passed the checks.
   *
   * @param kinds each key column's kind, in key order
   * @param sources the fragments to cluster
   * @param liveRows their live rows
   */
  record Checked(List<KeyColumn.Kind> kinds, List<Fragment> sources, int liveRows) {}

  /** Checks clustering {@code fragmentIds} (null: all) of {@code m} by {@code keyNames} into fragments of {@code target} rows. */
  static Checked check(String location, Manifest m, List<String> keyNames, List<Long> fragmentIds, long target) {
    List<KeyColumn.Kind> kinds = keyKinds(location, m, keyNames);
    List<Fragment> sources = sources(location, m, fragmentIds);
    long liveRows = sources.stream().mapToLong(Fragment::liveRows).sum();
    if (liveRows > Integer.MAX_VALUE - 16) {
      throw new ClusterException("Fragments " + Clustering.ids(sources) + " hold " + liveRows + " live rows; one "
          + "clustering takes at most " + (Integer.MAX_VALUE - 16) + ": " + location);
    }
    if (liveRows == 0) {
      throw new ClusterException("Fragments " + Clustering.ids(sources) + " hold no live rows; delete them instead "
          + "of clustering: " + location);
    }
    int destinations = Destinations.count(liveRows, target);
    if (destinations > Clustering.MAX_DESTINATIONS) {
      throw new ClusterException("Clustering " + liveRows + " rows into fragments of " + target + " rows makes "
          + destinations + " destinations, more than the row map's " + Clustering.MAX_DESTINATIONS + "; raise "
          + "targetRowsPerFragment: " + location);
    }
    return new Checked(kinds, sources, (int) liveRows);
  }

  private static List<KeyColumn.Kind> keyKinds(String location, Manifest m, List<String> keyNames) {
    List<KeyColumn.Kind> out = new ArrayList<>();
    for (String name : keyNames) {
      LanceField field = m.schema().fields().stream().filter(f -> f.name().equals(name)).findFirst()
          .orElseThrow(() -> new ColumnNotFoundException(location, name));
      KeyColumn.Kind kind = KeyColumn.kindOf(field.toArrow().getType());
      if (kind == null) {
        throw new ClusterException("Column '" + name + "' is of type " + field.toArrow().getType() + ", which "
            + "clustering cannot order (integers, floats, dates, times, timestamps, durations, strings and binaries "
            + "it can): " + location);
      }
      out.add(kind);
    }
    return out;
  }

  private static List<Fragment> sources(String location, Manifest m, List<Long> fragmentIds) {
    if (fragmentIds == null) {
      if (m.fragments().isEmpty()) {
        throw new ClusterException("Version " + m.version() + " has no fragments to cluster: " + location);
      }
      return m.fragments();
    }
    List<Fragment> out = new ArrayList<>();
    for (long id : fragmentIds) {
      out.add(m.fragments().stream().filter(f -> f.id() == id).findFirst().orElseThrow(() ->
          new ClusterException("Fragment " + id + " is not in version " + m.version() + ": " + location)));
    }
    return out;
  }
}
