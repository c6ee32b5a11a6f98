package dev.javelin.table.exceptions;


/** A branch of that name already exists. */
public class BranchExistsException extends TableException {
  BranchExistsException(String message) {
    super(message);
  }
}
