package dev.javelin.format.exceptions;


/** The file's bytes are not a valid Lance file: truncated, bad magic, offsets past the end, bad protobuf. */
public class CorruptFileException extends LanceFormatException {
  public CorruptFileException(String location, String message) {
    super(location, message);
  }

  public CorruptFileException(String location, String message, Throwable cause) {
    super(location, message, cause);
  }
}
