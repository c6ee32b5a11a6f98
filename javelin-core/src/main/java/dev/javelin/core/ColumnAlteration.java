package dev.javelin.core;

import java.util.Objects;
import java.util.Optional;

/**
 * One change to an existing column, for {@link Dataset#alterColumns}: a new name and/or a new
 * nullability. Metadata only (no data file is rewritten). Immutable.
 *
 * <pre>{@code
 * ds = ds.alterColumns(ColumnAlteration.of("st.a").rename("alpha"), ColumnAlteration.of("id").nullable(true));
 * }</pre>
 */
public final class ColumnAlteration {
  private final String path;
  private final String newName;
  private final Boolean nullable;

  private ColumnAlteration(String path, String newName, Boolean nullable) {
    this.path = Objects.requireNonNull(path, "path");
    this.newName = newName;
    this.nullable = nullable;
  }

  /** A change to the column at {@code path}: a top-level name, or {@code parent.child} inside structs. */
  public static ColumnAlteration of(String path) {
    return new ColumnAlteration(path, null, null);
  }

  /** Renames the column (the last part of its path); must not clash with a sibling. */
  public ColumnAlteration rename(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("A column cannot be renamed to an empty name: " + path);
    }
    return new ColumnAlteration(path, name, nullable);
  }

  /**
   * Makes the column nullable ({@code true}, always allowed) or non-nullable ({@code false},
   * refused for a column that is nullable now, as Lance does: its rows are not checked).
   */
  public ColumnAlteration nullable(boolean value) {
    return new ColumnAlteration(path, newName, value);
  }

  public String path() {
    return path;
  }

  public Optional<String> newName() {
    return Optional.ofNullable(newName);
  }

  public Optional<Boolean> newNullable() {
    return Optional.ofNullable(nullable);
  }

  @Override
  public String toString() {
    return "ColumnAlteration{" + path + (newName == null ? "" : ", rename=" + newName)
        + (nullable == null ? "" : ", nullable=" + nullable) + "}";
  }
}
