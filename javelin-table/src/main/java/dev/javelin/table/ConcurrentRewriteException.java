package dev.javelin.table;

/**
 * A reordered rewrite was built on a {@code __lance_stable_partition} entry that a concurrent
 * reordered rewrite has since replaced; committing it would drop that rewrite's transition.
 * Nothing was committed: build the rewrite's {@link StablePartition} again on the newest version
 * and retry.
 */
public class ConcurrentRewriteException extends CommitConflictException {
  ConcurrentRewriteException(String message, long conflictingVersion) {
    super(message, conflictingVersion);
  }
}
