package dev.javelin.core;

import java.util.List;

/**
 * How a merge insert finds the target rows its source keys match, and what it does with them
 * ({@link MergeInsertBuilder#explain()}, {@link MergeInsertResult#plan()}).
 *
 * @param on the key columns
 * @param whenMatched {@code update all}, {@code update all if <condition>}, {@code delete},
 *     {@code do nothing} or {@code fail}
 * @param whenNotMatched {@code insert all} or {@code do nothing}
 * @param whenNotMatchedBySource {@code keep}, {@code delete} or {@code delete if <condition>}
 * @param index the index on the key (a BTree or a bitmap: kinds that find exactly the matching
 *     rows) that finds the matches in {@code indexedFragments}, or null when every fragment's key
 *     column is read in full
 * @param indexKind that index's kind in lower case ({@code btree}, {@code bitmap}), or null
 * @param indexedFragments ids of the fragments whose matches come from the index
 * @param scannedFragments ids of the fragments whose key columns are read in full
 * @param note why no index is used, or null when one is
 */
public record MergeInsertPlan(List<String> on, String whenMatched, String whenNotMatched,
    String whenNotMatchedBySource, String index, String indexKind, List<Long> indexedFragments,
    List<Long> scannedFragments,
    String note) implements QueryPlan {

  /** Whether an index finds the matches (in some fragments at least). */
  public boolean usesIndex() {
    return index != null;
  }

  @Override
  public String describe() {
    StringBuilder b = new StringBuilder();
    b.append("merge insert on: ").append(String.join(", ", on)).append('\n');
    b.append("when matched: ").append(whenMatched).append('\n');
    b.append("when not matched: ").append(whenNotMatched).append('\n');
    b.append("when not matched by source: ").append(whenNotMatchedBySource).append('\n');
    if (index == null) {
      b.append("key lookup: full scan of the key columns").append(note == null ? "" : " (" + note + ")")
          .append('\n');
    } else {
      b.append("key lookup: ").append(indexKind).append(" index ").append(index).append(" on ").append(on.get(0)).append(" for fragments ")
          .append(indexedFragments).append('\n');
    }
    b.append("fragments scanned: ").append(scannedFragments.size()).append(' ').append(scannedFragments)
        .append('\n');
    return b.toString();
  }
}
