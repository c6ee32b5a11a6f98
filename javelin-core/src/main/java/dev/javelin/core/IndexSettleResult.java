package dev.javelin.core;

import java.util.List;

/**
 * What {@link Dataset#settleIndices()} did.
 *
 * @param dataset the dataset at the version settling committed (the same version when there was
 *     nothing to do)
 * @param remapped the names of the indices remapped onto the destinations of the reordered
 *     rewrites they answered through, in manifest order
 * @param transitionsDropped how many stable partition transitions were dropped (no index answers
 *     through them any more)
 * @param transitionsKept how many remain, because an index Javelin cannot remap still answers
 *     through them; 0 means the {@code __lance_stable_partition} entry is gone
 */
public record IndexSettleResult(Dataset dataset, List<String> remapped, int transitionsDropped,
    int transitionsKept) {
  public IndexSettleResult {
    remapped = List.copyOf(remapped);
  }

  /** Whether settling changed nothing (no transitions, or none to drop and no index to remap). */
  public boolean unchanged() {
    return remapped.isEmpty() && transitionsDropped == 0;
  }
}
