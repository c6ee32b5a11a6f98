package dev.javelin.core.compaction;

/**
 * A fragment rewrite would move rows an index covers on a dataset with stable row ids, where
 * Javelin cannot keep its indices right yet. Column repacks are unaffected (they move no rows).
 */
public class IndexRemapUnsupportedException extends CompactionException {
  private static final long serialVersionUID = 1L;

  public IndexRemapUnsupportedException(String message) {
    super(message);
  }
}
