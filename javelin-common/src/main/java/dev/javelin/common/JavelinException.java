package dev.javelin.common;

/**
 * The root of every exception Javelin throws on purpose, so that a caller can tell Javelin's own
 * refusals (a corrupt file, a commit conflict, an invalid option) from a bug or an error of the
 * JVM with one {@code catch}. Each module's exceptions live in its {@code exceptions} package.
 */
public class JavelinException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public JavelinException(String message) {
    super(message);
  }

  public JavelinException(String message, Throwable cause) {
    super(message, cause);
  }

  /** For exceptions thrown often enough that filling in a stack trace would cost (decoding's). */
  protected JavelinException(String message, Throwable cause, boolean enableSuppression, boolean writableStackTrace) {
    super(message, cause, enableSuppression, writableStackTrace);
  }
}
