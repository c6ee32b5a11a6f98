package dev.javelin.table.exceptions;


/**
 * A commit did not land after every retry (other writers kept taking the next version). Nothing
 * was committed and the files of this commit were removed.
 */
public class CommitFailedException extends TableException {
  public CommitFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
