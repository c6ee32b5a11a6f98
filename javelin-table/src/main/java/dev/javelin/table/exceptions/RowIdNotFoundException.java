package dev.javelin.table.exceptions;


/**
 * A stable row id names no live row of the version: no fragment holds it (never assigned, or its
 * row was overwritten or compacted away), or its row is deleted. {@link #rowAddress()} returns the
 * row id too, for callers that catch every {@link RowNotFoundException}.
 */
public final class RowIdNotFoundException extends RowNotFoundException {
  private final boolean deleted;

  RowIdNotFoundException(String message, long rowId, boolean deleted) {
    super(message, rowId);
    this.deleted = deleted;
  }

  /** The stable row id asked for. */
  public long rowId() {
    return rowAddress();
  }

  /** Whether a fragment holds the id but its row is deleted (false: no fragment holds it). */
  public boolean deleted() {
    return deleted;
  }
}
