package dev.javelin.core;

import dev.javelin.index.IndexType;
import java.util.List;

/**
 * What {@link Dataset#optimizeIndices()} did to one index (all entries of one name: an index and
 * its delta indices count as one).
 *
 * @param name the index name
 * @param type its kind
 * @param outcome what was done
 * @param fragmentsAdded ids of the fragments it newly covers (appended since it was built)
 * @param rowsAdded rows read from fragments and indexed (those of {@code fragmentsAdded}, and of
 *     delta indices whose model differs from the index's, encoded anew)
 * @param rowsDropped rows of the old index left out: deleted since, or of fragments no longer in
 *     the dataset
 * @param entriesReplaced how many manifest entries the new one replaced (2 or more: deltas merged)
 * @param reason why an index was {@link Outcome#SKIPPED} (empty otherwise)
 */
public record OptimizedIndex(String name, IndexType type, Outcome outcome, List<Long> fragmentsAdded,
    long rowsAdded, long rowsDropped, int entriesReplaced, String reason) {
  public OptimizedIndex {
    fragmentsAdded = List.copyOf(fragmentsAdded);
  }

  /** What optimizing did to an index. */
  public enum Outcome {
    /**
     * A new index under the same name replaces the old entries: their rows (still live ones) and
     * the rows of the new fragments. For a vector index the new rows went into the existing IVF
     * partitions, encoded with the existing PQ codebook (nothing retrained); for a BTree the
     * values were merged into one new tree.
     */
    MERGED,
    /** It already covered every fragment in one entry: nothing written. */
    UNCHANGED,
    /** Javelin cannot update an index of this kind ({@link #reason()} says why); it is left as it was. */
    SKIPPED
  }
}
