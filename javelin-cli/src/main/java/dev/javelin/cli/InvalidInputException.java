package dev.javelin.cli;

/**
 * The user gave input the command cannot use; the message says what and where, in one line. Ends
 * the command with {@link ExitCodes#INVALID_INPUT}.
 */
final class InvalidInputException extends RuntimeException {
  InvalidInputException(String message) {
    super(message);
  }

  InvalidInputException(String message, Throwable cause) {
    super(message, cause);
  }
}
