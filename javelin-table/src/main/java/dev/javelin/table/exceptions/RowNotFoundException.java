package dev.javelin.table.exceptions;


/** A row address names no live row of the version: its fragment is gone, it is past the end, or deleted. */
public class RowNotFoundException extends TableException {
  private final long rowAddress;

  RowNotFoundException(String message, long rowAddress) {
    super(message);
    this.rowAddress = rowAddress;
  }

  /** The address asked for ({@code fragment_id << 32 | offset}). */
  public long rowAddress() {
    return rowAddress;
  }
}
