package dev.javelin.table.exceptions;


/** The dataset has no such version, or no dataset exists at the location. */
public class VersionNotFoundException extends TableException {
  public VersionNotFoundException(String message) {
    super(message);
  }
}
