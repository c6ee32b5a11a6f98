package dev.javelin.index.exceptions;


/**
 * A vector index of a kind Javelin cannot read yet (lance-core's IVF_RQ, IVF_HNSW_PQ,
 * or IVF_PQ with other than 8-bit codes). A query does not fail on it: it searches the
 * fragments the index covers exactly instead.
 */
public class UnsupportedIndexKindException extends VectorIndexException {
  private final String kind;

  public UnsupportedIndexKindException(String kind, String message) {
    super(message);
    this.kind = kind;
  }

  /** The index's kind as Lance names it, e.g. {@code IVF_HNSW_SQ} or {@code IVF_PQ (4-bit codes)}. */
  public String kind() {
    return kind;
  }
}
