package dev.javelin.table.exceptions;


/**
 * The store failed while creating the manifest, so whether the commit landed is unknown. No file
 * was deleted, because the new version may reference them; list the versions to find out.
 */
public class CommitStateUnknownException extends TableException {
  CommitStateUnknownException(String message, Throwable cause) {
    super(message, cause);
  }
}
