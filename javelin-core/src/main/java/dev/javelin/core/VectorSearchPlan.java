package dev.javelin.core;

import dev.javelin.core.VectorQuery;
import java.util.List;

/**
 * How a nearest-neighbour query searches ({@link VectorQuery#explain()}): which IVF index
 * answers for which fragments and how many partitions it probes, which fragments are searched
 * exactly, and why an index on the column is not used.
 *
 * @param column the vector column
 * @param k rows asked for
 * @param distanceType the distance ranked by ({@code l2}, {@code cosine}, {@code dot})
 * @param filter the filter's text, or null
 * @param prefilter whether the filter applies before the search
 * @param index the index used, or null when none is
 * @param indexedFragments ids of the fragments searched through the index
 * @param exactFragments ids of the fragments searched exactly (by brute force)
 * @param refineFactor the refine factor (0: none)
 * @param approximateDistances whether the rows come with their PQ or SQ code distances (an index covers
 *     every fragment and no refine factor is set; as in lance-core, the index's candidates are
 *     re-ranked by their true vectors when some fragments are searched exactly)
 * @param notes why indices on the column are not used (for example a kind Javelin cannot read yet)
 */
public record VectorSearchPlan(String column, int k, String distanceType, String filter, boolean prefilter,
    IndexUse index, List<Long> indexedFragments, List<Long> exactFragments, int refineFactor,
    boolean approximateDistances, List<String> notes) implements QueryPlan {

  /**
   * The IVF index a query uses.
   *
   * @param name the index name
   * @param kind its kind ({@code IVF_PQ}, {@code IVF_FLAT}, {@code IVF_SQ})
   * @param partitions its partitions
   * @param minimumNprobes partitions always probed
   * @param maximumNprobes partitions probed at most, while fewer than k rows are found
   */
  public record IndexUse(String name, String kind, int partitions, int minimumNprobes, int maximumNprobes) {}

  public VectorSearchPlan {
    indexedFragments = List.copyOf(indexedFragments);
    exactFragments = List.copyOf(exactFragments);
    notes = List.copyOf(notes);
  }

  /** A few lines for people (the CLI's {@code search --explain}). */
  @Override
  public String describe() {
    StringBuilder b = new StringBuilder();
    b.append("vector search: column ").append(column).append(", k ").append(k).append(", ").append(distanceType)
        .append('\n');
    if (filter != null) {
      b.append("filter: ").append(filter).append(prefilter ? " (before the search)" : " (on the k nearest)")
          .append('\n');
    }
    if (index != null) {
      b.append("index: ").append(index.name()).append(" (").append(index.kind()).append(", ")
          .append(index.partitions()).append(" partitions) for fragments ").append(ranges(indexedFragments))
          .append(": probes ").append(index.minimumNprobes()).append(" partitions");
      if (index.maximumNprobes() > index.minimumNprobes()) {
        b.append(", up to ").append(index.maximumNprobes()).append(" while fewer than ").append(k)
            .append(" rows are found");
      }
      b.append('\n');
    } else {
      b.append("index: none\n");
    }
    for (String n : notes) {
      b.append("note: ").append(n).append('\n');
    }
    b.append("fragments searched exactly: ").append(exactFragments.size());
    if (!exactFragments.isEmpty()) {
      b.append(" (").append(ranges(exactFragments)).append(')');
    }
    b.append('\n');
    b.append("distances: ").append(approximateDistances
        ? "approximate (" + (index != null && index.kind().equals("IVF_SQ") ? "SQ" : "PQ")
            + " codes; a refine factor gives true distances)"
        : "exact").append('\n');
    return b.toString();
  }

  /** Ids as ranges, e.g. {@code 0-3, 7}; {@code none} when empty. */
  public static String ranges(List<Long> ids) {
    if (ids.isEmpty()) {
      return "none";
    }
    List<Long> sorted = ids.stream().sorted().toList();
    StringBuilder b = new StringBuilder();
    int i = 0;
    while (i < sorted.size()) {
      int j = i;
      while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) {
        j++;
      }
      if (b.length() > 0) {
        b.append(", ");
      }
      b.append(sorted.get(i));
      if (j > i) {
        b.append('-').append(sorted.get(j));
      }
      i = j + 1;
    }
    return b.toString();
  }
}
