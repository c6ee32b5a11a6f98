package dev.javelin.io;

import dev.javelin.common.JavelinException;

/** No store on the class path opens a URI's scheme (or the URI names no store at all). */
public class UnsupportedStoreException extends JavelinException {
  private static final long serialVersionUID = 1L;

  public UnsupportedStoreException(String message) {
    super(message);
  }
}
