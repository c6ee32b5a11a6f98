package dev.javelin.table.stablepartition;

import dev.javelin.table.Fragment;
import dev.javelin.table.rowmap.RowMapSummary;
import java.util.List;

/**
 * Conservation checks of a reordered rewrite, from the counts its row map carries (no scan), made
 * before the transaction exists: no row may be lost, invented or sent to the wrong destination.
 */
public final class StablePartitionValidator {
  private StablePartitionValidator() {}

  /**
   * Checks that the row map's destination count is the transition's; that each destination's
   * physical rows equal its label total; that the row map covers exactly the sources' physical
   * rows; and that its labeled rows equal the sources' live rows (physical minus deleted).
   *
   * @param destinations the written destination fragments, in label order
   * @throws IllegalArgumentException naming the numbers that disagree
   */
  public static void validate(StablePartitionTransition t, RowMapSummary summary, List<Fragment> destinations) {
    String where = t.rowMapPath();
    if (summary.destinations() != t.destinations().size()) {
      throw new IllegalArgumentException("The row map names " + summary.destinations()
          + " destinations but the transition has " + t.destinations().size() + ": " + where);
    }
    List<Long> ids = destinations.stream().map(Fragment::id).toList();
    if (!ids.equals(t.destinations())) {
      throw new IllegalArgumentException("Destination fragments " + ids + " are not the transition's destinations "
          + t.destinations() + ": " + where);
    }
    for (int d = 0; d < destinations.size(); d++) {
      Fragment f = destinations.get(d);
      if (f.physicalRows() != summary.destinationRows(d)) {
        throw new IllegalArgumentException("Destination " + d + " (fragment " + f.id() + ") has " + f.physicalRows()
            + " physical rows but the row map labels " + summary.destinationRows(d) + " rows to it: " + where);
      }
    }
    long physical = 0;
    long live = 0;
    for (StablePartitionTransition.Source s : t.sources()) {
      physical += s.physicalRows();
      live += s.liveRows();
    }
    if (summary.rows() != physical) {
      throw new IllegalArgumentException("The row map has " + summary.rows() + " rows but the sources have "
          + physical + " physical rows: " + where);
    }
    if (summary.labeled() != live) {
      throw new IllegalArgumentException("The row map labels " + summary.labeled() + " rows but the sources have "
          + live + " live rows: " + where);
    }
  }
}
