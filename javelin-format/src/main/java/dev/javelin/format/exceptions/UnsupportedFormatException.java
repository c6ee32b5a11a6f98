package dev.javelin.format.exceptions;


/**
 * The file is valid Lance, but uses something Javelin does not read or write yet: a file version,
 * an encoding, a data type.
 */
public class UnsupportedFormatException extends LanceFormatException {
  public UnsupportedFormatException(String location, String message) {
    super(location, message);
  }
}
