package dev.javelin.table;

/**
 * A commit did not land after every retry (other writers kept taking the next version). Nothing
 * was committed and the files of this commit were removed.
 */
public class CommitFailedException extends TableException {
  CommitFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
