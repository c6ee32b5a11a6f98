package dev.javelin.format.exceptions;

import dev.javelin.common.JavelinException;

/**
 * Thrown by the decompressor registry for an encoding Javelin does not read; page decoders turn it
 * into an {@link dev.javelin.format.exceptions.UnsupportedFormatException} naming the column and page.
 */
public final class UnsupportedEncodingException extends JavelinException {
  public UnsupportedEncodingException(String message) {
    super(message, null, false, false);
  }
}
