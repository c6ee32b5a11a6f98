package dev.javelin.format.exceptions;

import dev.javelin.common.JavelinException;

/**
 * Thrown by decoding code that knows what is wrong with some bytes but not which column and page
 * they came from; page decoders turn it into a {@link dev.javelin.format.exceptions.CorruptFileException}.
 */
public final class BadDataException extends JavelinException {
  public BadDataException(String message) {
    super(message, null, false, false);
  }
}
