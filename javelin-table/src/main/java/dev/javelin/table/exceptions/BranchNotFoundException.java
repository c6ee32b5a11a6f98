package dev.javelin.table.exceptions;


/** A branch the operation names does not exist. */
public class BranchNotFoundException extends TableException {
  BranchNotFoundException(String message) {
    super(message);
  }
}
