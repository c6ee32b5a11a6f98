package dev.javelin.core;

import java.util.Objects;

/**
 * A delete being configured; {@link #commit()} runs it. Start with {@link Dataset#delete()}:
 *
 * <pre>{@code
 * DeleteResult r = dataset.delete().where("ts < timestamp '2024-01-01 00:00:00'").commit();
 * }</pre>
 */
public final class DeleteBuilder {
  private final Dataset dataset;
  private String filter;
  private long[] addresses;

  DeleteBuilder(Dataset dataset) {
    this.dataset = dataset;
  }

  /** Deletes the rows for which {@code filter} is TRUE (the language of {@link ScanBuilder#filter}). */
  public DeleteBuilder where(String filter) {
    this.filter = Objects.requireNonNull(filter, "filter");
    return this;
  }

  /** Deletes the rows at these row addresses (fragment id in the high 32 bits, offset in the low). */
  public DeleteBuilder rows(long... rowAddresses) {
    this.addresses = rowAddresses.clone();
    return this;
  }

  /**
   * Runs the delete and commits it, as {@link Dataset#delete(String)} and
   * {@link Dataset#deleteRows(long[])} describe, with their exceptions.
   *
   * @return the dataset at the committed version and the rows deleted (this dataset and 0 if no
   *     live row was selected; nothing is committed then)
   * @throws IllegalStateException if neither or both of a filter and row addresses were given
   */
  public DeleteResult commit() {
    if ((filter == null) == (addresses == null)) {
      throw new IllegalStateException(filter == null
          ? "Say which rows to delete: where(filter) or rows(addresses)"
          : "Delete by a filter or by row addresses, not both");
    }
    return filter != null ? dataset.deleteByFilter(filter) : dataset.deleteByAddress(addresses);
  }
}
