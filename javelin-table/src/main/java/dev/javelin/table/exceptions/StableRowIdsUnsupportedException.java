package dev.javelin.table.exceptions;

import dev.javelin.table.FeatureFlags;
import dev.javelin.table.OperationKind;

/**
 * An operation Javelin cannot commit yet on a dataset with stable row ids, because it does not
 * maintain the row ids (and row versions) of the fragments it writes. Nothing was committed.
 */
public final class StableRowIdsUnsupportedException extends UnsupportedFeatureException {
  private final OperationKind operation;

  StableRowIdsUnsupportedException(String message, OperationKind operation) {
    super(message, FeatureFlags.STABLE_ROW_IDS);
    this.operation = operation;
  }

  /** The operation refused. */
  public OperationKind operation() {
    return operation;
  }
}
