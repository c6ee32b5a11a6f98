package dev.javelin.core;

import java.util.List;

/**
 * How a scan with a filter reads its rows: which indices answer which parts of the filter, which
 * fragments' rows come from those indices (only the rows they find are read, and the whole filter
 * is applied to them again) and which fragments are read in full.
 *
 * @param filter the filter's text, or null for none
 * @param indices the indices used (empty when none is)
 * @param indexedFragments ids of the fragments whose rows come from the indices
 * @param scannedFragments ids of the fragments read in full
 * @param rowsFromIndex live rows the indices found in {@code indexedFragments} (read, then filtered)
 * @param note why no index is used, or null when one is
 */
public record ScanPlan(String filter, List<IndexUse> indices, List<Long> indexedFragments,
    List<Long> scannedFragments, long rowsFromIndex, String note) implements QueryPlan {

  /**
   * One index a scan uses.
   *
   * @param name the index name
   * @param column the indexed column
   * @param predicates the filter parts it answers, as written
   * @param throughRowMaps ids of the indexed fragments it answers for through reordered rewrites:
   *     it recorded their rows at older addresses, which the rewrites' row maps translate
   */
  public record IndexUse(String name, String column, List<String> predicates, List<Long> throughRowMaps) {
    /** An index answering only for fragments of its own bitmap. */
    public IndexUse(String name, String column, List<String> predicates) {
      this(name, column, predicates, List.of());
    }
  }

  /** Whether any rows come from an index. */
  public boolean usesIndex() {
    return !indices.isEmpty();
  }

  /** A few lines for people (the CLI's {@code --explain}). */
  @Override
  public String describe() {
    StringBuilder b = new StringBuilder();
    b.append("filter: ").append(filter == null ? "(none)" : filter).append('\n');
    if (!usesIndex()) {
      b.append("index: none").append(note == null ? "" : " (" + note + ")").append('\n');
    }
    for (IndexUse u : indices) {
      b.append("index: ").append(u.name()).append(" (btree on ").append(u.column()).append(") answers ")
          .append(String.join(", ", u.predicates())).append('\n');
      if (!u.throughRowMaps().isEmpty()) {
        b.append("  through row maps for fragments: ").append(u.throughRowMaps()).append('\n');
      }
    }
    if (usesIndex()) {
      b.append("fragments from index: ").append(indexedFragments.size()).append(' ').append(indexedFragments)
          .append(", rows from index: ").append(rowsFromIndex).append('\n');
    }
    b.append("fragments scanned: ").append(scannedFragments.size()).append(' ').append(scannedFragments)
        .append('\n');
    return b.toString();
  }
}
