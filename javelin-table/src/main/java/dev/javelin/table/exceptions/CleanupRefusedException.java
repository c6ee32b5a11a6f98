package dev.javelin.table.exceptions;


/** A cleanup refused to run (nothing was removed); the message says why. */
public class CleanupRefusedException extends TableException {
  CleanupRefusedException(String message) {
    super(message);
  }
}
