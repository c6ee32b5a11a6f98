package dev.javelin.index.internal.scalar;

import dev.javelin.index.IndexType;
import dev.javelin.index.internal.btree.ScalarQuery;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * An opened bitmap, zone map or bloom filter index, held in memory (no Arrow buffers), so it can
 * be shared by the queries of a session without reference counting. Thread-safe.
 */
public interface ScalarIndex {
  /** The kind of index. */
  IndexType type();

  /** The type of the indexed values (a bloom filter's is the column type it was opened with). */
  ArrowType valueType();

  /** Whether {@link #search} narrows the rows for this query (a bloom filter cannot for ranges). */
  boolean answers(ScalarQuery query);

  /**
   * The row addresses that may match {@code query}: exactly the matching rows for a bitmap, every
   * row of each zone that may hold a match for a zone map or bloom filter.
   *
   * @throws IllegalArgumentException if a query value cannot be compared with the indexed values
   */
  ScalarSearch search(ScalarQuery query);
}
