package dev.javelin.core.exceptions;

import dev.javelin.table.exceptions.TableException;

/** The version has no index of the name the operation gives. */
public class IndexNotFoundException extends TableException {
  private static final long serialVersionUID = 1L;

  private final String name;

  public IndexNotFoundException(String location, String name) {
    super("Index '" + name + "' does not exist: " + location);
    this.name = name;
  }

  /** The name no index has. */
  public String name() {
    return name;
  }
}
