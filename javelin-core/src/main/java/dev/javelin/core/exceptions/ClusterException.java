package dev.javelin.core.exceptions;

import dev.javelin.common.JavelinException;

/**
 * A clustering that cannot run against this dataset: a key column of a type that has no order
 * here, a fragment the version does not hold, a fragment an index covers, or too many
 * destinations. Thrown before anything is written.
 */
public class ClusterException extends JavelinException {
  private static final long serialVersionUID = 1L;

  public ClusterException(String message) {
    super(message);
  }

  public ClusterException(String message, Throwable cause) {
    super(message, cause);
  }
}
