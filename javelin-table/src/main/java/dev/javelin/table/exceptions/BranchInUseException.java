package dev.javelin.table.exceptions;


/** A branch cannot be deleted while other branches were created from it (they refer to its files). */
public class BranchInUseException extends TableException {
  BranchInUseException(String message) {
    super(message);
  }
}
