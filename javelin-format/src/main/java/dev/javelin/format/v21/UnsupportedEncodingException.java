package dev.javelin.format.v21;

/**
 * Thrown by the decompressor registry for an encoding Javelin does not read; page decoders turn it
 * into an {@link dev.javelin.format.UnsupportedFormatException} naming the column and page.
 */
final class UnsupportedEncodingException extends RuntimeException {
  UnsupportedEncodingException(String message) {
    super(message, null, false, false);
  }
}
