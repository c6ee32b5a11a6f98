package dev.javelin.index;

/** Kinds of index a dataset can hold. */
public enum IndexType {
  /** The BTree scalar index ({@code /lance.table.BTreeIndexDetails}). */
  BTREE,
  /** A vector index ({@code VectorIndexDetails}); Javelin builds and searches IVF_PQ. */
  VECTOR,
  /** Any other index (bitmap, inverted, system indices, ...): listed only. */
  OTHER;

  /** The {@code index_details} type URL Lance writes for a BTree. */
  public static final String BTREE_DETAILS_TYPE_URL = "/lance.table.BTreeIndexDetails";

  /** The kind an {@code index_details} type URL names. */
  public static IndexType fromDetailsTypeUrl(String typeUrl) {
    if (typeUrl.endsWith(".BTreeIndexDetails")) {
      return BTREE;
    }
    if (typeUrl.endsWith(".VectorIndexDetails")) {
      return VECTOR;
    }
    return OTHER;
  }
}
