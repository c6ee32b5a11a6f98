package dev.javelin.table.exceptions;


/** A manifest or transaction file could not be parsed; the message names the file. */
public class CorruptManifestException extends TableException {
  public CorruptManifestException(String message, Throwable cause) {
    super(message, cause);
  }
}
