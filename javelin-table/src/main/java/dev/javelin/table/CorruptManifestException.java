package dev.javelin.table;

/** A manifest or transaction file could not be parsed; the message names the file. */
public class CorruptManifestException extends TableException {
  CorruptManifestException(String message, Throwable cause) {
    super(message, cause);
  }
}
