package dev.javelin.core.exceptions;

import dev.javelin.table.exceptions.TableException;

/**
 * A merge insert cannot be done as asked: its key columns are missing or of a kind that cannot be
 * a key, two source rows have the same key, or a source row matched a target row while
 * {@code whenMatchedFail()} was set. The message names the key and the dataset; nothing was
 * committed and no file is left behind.
 */
public class MergeInsertException extends TableException {
  public MergeInsertException(String message) {
    super(message);
  }
}
