package dev.javelin.core;

import dev.javelin.index.IndexType;
import java.util.List;
import java.util.Locale;

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
 * @param rowsSkipped rows of {@code indexedFragments} not read (deleted rows included)
 * @param bytesSkipped the data bytes of those rows, estimated from each fragment's file sizes in
 *     proportion to its rows skipped
 */
public record ScanPlan(String filter, List<IndexUse> indices, List<Long> indexedFragments,
    List<Long> scannedFragments, long rowsFromIndex, String note, long rowsSkipped, long bytesSkipped)
    implements QueryPlan {

  /** A plan that says nothing about what it skips. */
  public ScanPlan(String filter, List<IndexUse> indices, List<Long> indexedFragments, List<Long> scannedFragments,
      long rowsFromIndex, String note) {
    this(filter, indices, indexedFragments, scannedFragments, rowsFromIndex, note, 0, 0);
  }

  /**
   * One index a scan uses.
   *
   * @param name the index name
   * @param column the indexed column
   * @param predicates the filter parts it answers, as written
   * @param throughRowMaps ids of the indexed fragments it answers for through reordered rewrites:
   *     it recorded their rows at older addresses, which the rewrites' row maps translate
   * @param type the index's kind
   * @param zones for a zone map or bloom filter, its zones, times the predicates it answers (0 for
   *     other kinds)
   * @param zonesSkipped of those, the zones left out because they cannot hold a match
   */
  public record IndexUse(String name, String column, List<String> predicates, List<Long> throughRowMaps,
      IndexType type, long zones, long zonesSkipped) {
    /** A BTree answering only for fragments of its own bitmap. */
    public IndexUse(String name, String column, List<String> predicates) {
      this(name, column, predicates, List.of());
    }

    /** A BTree. */
    public IndexUse(String name, String column, List<String> predicates, List<Long> throughRowMaps) {
      this(name, column, predicates, throughRowMaps, IndexType.BTREE, 0, 0);
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
      b.append("index: ").append(u.name()).append(" (").append(u.type().name().toLowerCase(Locale.ROOT))
          .append(" on ").append(u.column()).append(") answers ").append(String.join(", ", u.predicates()))
          .append('\n');
      if (u.zones() > 0) {
        b.append("  zones skipped: ").append(u.zonesSkipped()).append(" of ").append(u.zones()).append('\n');
      }
      if (!u.throughRowMaps().isEmpty()) {
        b.append("  through row maps for fragments: ").append(u.throughRowMaps()).append('\n');
      }
    }
    if (usesIndex()) {
      b.append("fragments from index: ").append(indexedFragments.size()).append(' ').append(indexedFragments)
          .append(", rows from index: ").append(rowsFromIndex).append('\n');
      if (indices.stream().anyMatch(u -> u.zones() > 0)) {
        b.append("rows skipped: ").append(rowsSkipped).append(", bytes skipped: about ").append(bytesSkipped)
            .append('\n');
      }
    }
    b.append("fragments scanned: ").append(scannedFragments.size()).append(' ').append(scannedFragments)
        .append('\n');
    return b.toString();
  }
}
