package dev.javelin.table.exceptions;


/**
 * A concurrent commit made this one impossible (for example, an append found that the dataset was
 * overwritten after it read it). Nothing was committed and the files this commit wrote were
 * removed; redo the operation on the new version if it still makes sense.
 */
public class CommitConflictException extends TableException {
  private final long conflictingVersion;

  public CommitConflictException(String message, long conflictingVersion) {
    super(message);
    this.conflictingVersion = conflictingVersion;
  }

  /** The committed version whose transaction conflicts. */
  public long conflictingVersion() {
    return conflictingVersion;
  }
}
