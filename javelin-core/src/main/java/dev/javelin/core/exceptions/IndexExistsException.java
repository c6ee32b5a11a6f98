package dev.javelin.core.exceptions;

import dev.javelin.table.exceptions.TableException;

/** An index of that name already exists, and the call did not ask to replace it. Nothing was written. */
public class IndexExistsException extends TableException {
  private static final long serialVersionUID = 1L;

  private final String name;

  public IndexExistsException(String location, String name) {
    super("Index '" + name + "' already exists: " + location);
    this.name = name;
  }

  /** The index's name. */
  public String name() {
    return name;
  }
}
