package dev.javelin.core;

import dev.javelin.core.internal.write.Updater;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An update being configured; {@link #commit()} runs it. Start with {@link Dataset#update()}:
 *
 * <pre>{@code
 * UpdateResult r = dataset.update().where("id < 100").set("price", "price * 2").commit();
 * }</pre>
 *
 * Values are expressions over the row's current values, in the language of
 * {@link ScanBuilder#filter}.
 */
public final class UpdateBuilder {
  private final Dataset dataset;
  private final Map<String, String> set = new LinkedHashMap<>();
  private String filter;
  private UpdateMode mode = UpdateMode.REWRITE_ROWS;

  UpdateBuilder(Dataset dataset) {
    this.dataset = dataset;
  }

  /** Updates only the rows for which {@code filter} is TRUE (null or blank, the default: every row). */
  public UpdateBuilder where(String filter) {
    this.filter = filter;
    return this;
  }

  /** Sets {@code column} to the value of {@code expression} (a later call for the same column wins). */
  public UpdateBuilder set(String column, String expression) {
    set.put(Objects.requireNonNull(column, "column"), Objects.requireNonNull(expression, "expression"));
    return this;
  }

  /** Sets each column of the map to the value of its expression. */
  public UpdateBuilder set(Map<String, String> assignments) {
    assignments.forEach(this::set);
    return this;
  }

  /** How the new values are written (default {@link UpdateMode#REWRITE_ROWS}). */
  public UpdateBuilder mode(UpdateMode mode) {
    this.mode = Objects.requireNonNull(mode, "mode");
    return this;
  }

  /**
   * Runs the update and commits it, as {@link Dataset#update(String, Map)} (rows),
   * {@link Dataset#updateColumns(String, Map)} (columns) or {@link Dataset#updateOverlay(String, Map)}
   * (overlays) describe, with their exceptions.
   *
   * @return the dataset at the committed version and the number of rows updated
   */
  public UpdateResult commit() {
    Updater updater = new Updater(dataset);
    switch (mode) {
      case REWRITE_COLUMNS:
        return updater.rewriteColumns(filter, set);
      case OVERLAY:
        return updater.overlay(filter, set);
      default:
        return updater.rewriteRows(filter, set);
    }
  }
}
