package dev.javelin.table;

/** The dataset has no such version, or no dataset exists at the location. */
public class VersionNotFoundException extends TableException {
  VersionNotFoundException(String message) {
    super(message);
  }
}
