package dev.javelin.index;

/** Kinds of index a dataset can hold. */
public enum IndexType {
  /** The BTree scalar index ({@code /lance.table.BTreeIndexDetails}). */
  BTREE,
  /** A vector index ({@code VectorIndexDetails}); Javelin builds and searches IVF_PQ. */
  VECTOR,
  /**
   * A bitmap scalar index ({@code /lance.table.BitmapIndexDetails}): one row set per distinct
   * value, for low-cardinality columns; answers equality, IN, ranges and IS NULL exactly.
   */
  BITMAP,
  /**
   * A zone map ({@code /lance.table.ZoneMapIndexDetails}): min, max and null count per zone of
   * rows; prunes zones for comparisons, BETWEEN, IN and IS NULL (the rows kept are checked again).
   */
  ZONEMAP,
  /**
   * A bloom filter per zone of rows ({@code /lance.index.pb.BloomFilterIndexDetails}); prunes
   * zones for equality, IN and IS NULL (the rows kept are checked again).
   */
  BLOOM_FILTER,
  /**
   * A label list index ({@code /lance.table.LabelListIndexDetails}): a bitmap over the elements of
   * a list column; answers {@code array_has_any}, {@code array_has_all} and {@code array_has} exactly.
   */
  LABEL_LIST,
  /**
   * An n-gram index ({@code /lance.table.NGramIndexDetails}): the rows holding each trigram of a
   * string column; narrows {@code contains} and {@code LIKE} filters (the rows kept are checked again).
   */
  NGRAM,
  /** Any other index (inverted, system indices, ...): listed only. */
  OTHER;

  /** The {@code index_details} type URL Lance writes for a BTree. */
  public static final String BTREE_DETAILS_TYPE_URL = "/lance.table.BTreeIndexDetails";
  /** The {@code index_details} type URL Lance writes for a bitmap index. */
  public static final String BITMAP_DETAILS_TYPE_URL = "/lance.table.BitmapIndexDetails";
  /** The {@code index_details} type URL Lance writes for a zone map. */
  public static final String ZONEMAP_DETAILS_TYPE_URL = "/lance.table.ZoneMapIndexDetails";
  /** The {@code index_details} type URL Lance writes for a bloom filter index. */
  public static final String BLOOM_FILTER_DETAILS_TYPE_URL = "/lance.index.pb.BloomFilterIndexDetails";

  /** The {@code index_details} type URL Lance writes for a label list index. */
  public static final String LABEL_LIST_DETAILS_TYPE_URL = "/lance.table.LabelListIndexDetails";
  /** The {@code index_details} type URL Lance writes for an n-gram index. */
  public static final String NGRAM_DETAILS_TYPE_URL = "/lance.table.NGramIndexDetails";

  /** The kind an {@code index_details} type URL names. */
  public static IndexType fromDetailsTypeUrl(String typeUrl) {
    if (typeUrl.endsWith(".BTreeIndexDetails")) {
      return BTREE;
    }
    if (typeUrl.endsWith(".VectorIndexDetails")) {
      return VECTOR;
    }
    if (typeUrl.endsWith(".BitmapIndexDetails")) {
      return BITMAP;
    }
    if (typeUrl.endsWith(".ZoneMapIndexDetails")) {
      return ZONEMAP;
    }
    if (typeUrl.endsWith(".BloomFilterIndexDetails")) {
      return BLOOM_FILTER;
    }
    if (typeUrl.endsWith(".LabelListIndexDetails")) {
      return LABEL_LIST;
    }
    if (typeUrl.endsWith(".NGramIndexDetails")) {
      return NGRAM;
    }
    return OTHER;
  }

  /** Whether the kind is a scalar index a filtered scan can use. */
  public boolean isScalar() {
    return this == BTREE || this == BITMAP || this == ZONEMAP || this == BLOOM_FILTER;
  }

  /**
   * Whether the rows the kind finds are exactly the matching ones (BTree, bitmap), rather than
   * whole zones that may hold them (zone map, bloom filter).
   */
  public boolean isExact() {
    return this == BTREE || this == BITMAP;
  }
}
