package dev.javelin.table;

/** A branch of that name already exists. */
public class BranchExistsException extends TableException {
  BranchExistsException(String message) {
    super(message);
  }
}
