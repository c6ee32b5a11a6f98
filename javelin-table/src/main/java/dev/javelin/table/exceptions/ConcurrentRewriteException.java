package dev.javelin.table.exceptions;

import dev.javelin.table.stablepartition.StablePartition;

/**
 * A reordered rewrite was built on a {@code __lance_stable_partition} entry that a concurrent
 * reordered rewrite has since replaced; committing it would drop that rewrite's transition.
 * Nothing was committed: build the rewrite's {@link StablePartition} again on the newest version
 * and retry.
 */
public class ConcurrentRewriteException extends CommitConflictException {
  public ConcurrentRewriteException(String message, long conflictingVersion) {
    super(message, conflictingVersion);
  }
}
