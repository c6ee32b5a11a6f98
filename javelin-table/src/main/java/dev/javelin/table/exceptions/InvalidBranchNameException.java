package dev.javelin.table.exceptions;


/** A branch name Lance would not accept (segments of letters, digits, '.', '-' and '_' joined by '/', not ending in '.lock', not 'main'). */
public class InvalidBranchNameException extends TableException {
  InvalidBranchNameException(String message) {
    super(message);
  }
}
