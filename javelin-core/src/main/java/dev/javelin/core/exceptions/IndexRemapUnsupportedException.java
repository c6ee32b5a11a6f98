package dev.javelin.core.exceptions;


/**
 * A fragment rewrite would move rows an index covers where Javelin cannot keep that index right:
 * any index on a dataset with stable row ids, or an inverted or vector index when the remap is
 * deferred. Column repacks are unaffected (they move no rows).
 */
public class IndexRemapUnsupportedException extends CompactionException {
  private static final long serialVersionUID = 1L;

  public IndexRemapUnsupportedException(String message) {
    super(message);
  }
}
