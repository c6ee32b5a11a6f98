package dev.javelin.core;

import java.util.List;

/**
 * What {@link Dataset#optimizeIndices()} did.
 *
 * @param dataset the dataset at the version optimizing committed (the same version when no index
 *     changed)
 * @param indices one report per index name, in manifest order (system entries such as
 *     {@code __lance_frag_reuse} are not indices and are left out)
 */
public record IndexOptimizeResult(Dataset dataset, List<OptimizedIndex> indices) {
  public IndexOptimizeResult {
    indices = List.copyOf(indices);
  }

  /** Whether no index changed (nothing was committed). */
  public boolean unchanged() {
    return indices.stream().noneMatch(i -> i.outcome() == OptimizedIndex.Outcome.MERGED);
  }

  /** The report on the index named {@code name}. */
  public OptimizedIndex index(String name) {
    return indices.stream().filter(i -> i.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("No index named '" + name + "' was optimized"));
  }
}
