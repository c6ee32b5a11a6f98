package dev.javelin.core.exceptions;

import dev.javelin.common.JavelinException;
import dev.javelin.core.compaction.Compaction;

/** Compaction cannot do what it was asked; nothing was committed by the step that failed. */
public class CompactionException extends JavelinException {
  private static final long serialVersionUID = 1L;

  public CompactionException(String message) {
    super(message);
  }

  public CompactionException(String message, Throwable cause) {
    super(message, cause);
  }
}
