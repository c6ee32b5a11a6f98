package dev.javelin.format.v21;

/**
 * Thrown by decoding code that knows what is wrong with some bytes but not which column and page
 * they came from; page decoders turn it into a {@link dev.javelin.format.CorruptFileException}.
 */
final class BadDataException extends RuntimeException {
  BadDataException(String message) {
    super(message, null, false, false);
  }
}
