package dev.javelin.cli;

import dev.javelin.common.JavelinException;

/**
 * The user gave input the command cannot use; the message says what and where, in one line. Ends
 * the command with {@link ExitCodes#INVALID_INPUT}.
 */
final class InvalidInputException extends JavelinException {
  private static final long serialVersionUID = 1L;

  InvalidInputException(String message) {
    super(message);
  }

  InvalidInputException(String message, Throwable cause) {
    super(message, cause);
  }
}
