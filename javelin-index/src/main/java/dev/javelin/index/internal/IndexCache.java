package dev.javelin.index.internal;

import dev.javelin.common.LeasedCache;
import dev.javelin.index.IndexType;
import dev.javelin.index.internal.bitmap.BitmapIndex;
import dev.javelin.index.internal.bloom.BloomFilterIndex;
import dev.javelin.index.internal.btree.BTreeIndex;
import dev.javelin.index.internal.labellist.LabelListIndex;
import dev.javelin.index.internal.ngram.NGramIndex;
import dev.javelin.index.internal.scalar.ScalarIndex;
import dev.javelin.index.internal.zonemap.ZoneMapIndex;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Open scalar indices (BTree, bitmap, zone map, bloom filter) shared by the queries of a session, like Lance's session index cache: the
 * first query of an index opens it (reads its lookup file), later ones reuse its lookup, open data
 * file and decoded pages. An index's files never change once written (a new index gets a new
 * uuid), so entries never go stale. Bounded: an index evicted beyond {@link #capacity()} is
 * closed (freed once its current users close it too). Its memory comes from the allocator it is
 * given (the session's), not from a query's, since an entry outlives any one query. Thread-safe.
 */
public final class IndexCache implements AutoCloseable {
  private final int capacity;
  private final BufferAllocator allocator;
  // Each cached index keeps one hold of its own (the opener's), dropped when the cache closes it.
  private final LeasedCache<String, BTreeIndex> open;
  // Bitmaps, zone maps and bloom filters: read whole into the heap, nothing to free.
  private final LeasedCache<String, ScalarIndex> scalar;
  // Label lists and n-grams: read whole into the heap too.
  private final LeasedCache<String, LabelListIndex> labelLists;
  private final LeasedCache<String, NGramIndex> ngrams;

  /**
   * @param allocator where the indices' memory comes from (closed by the caller after this cache)
   */
  public IndexCache(int capacity, BufferAllocator allocator) {
    this.capacity = capacity;
    this.allocator = allocator;
    this.open = LeasedCache.<String, BTreeIndex>builder().maximumSize(capacity).build();
    this.scalar = LeasedCache.<String, ScalarIndex>builder().maximumSize(capacity).build();
    this.labelLists = LeasedCache.<String, LabelListIndex>builder().maximumSize(capacity).build();
    this.ngrams = LeasedCache.<String, NGramIndex>builder().maximumSize(capacity).build();
  }

  public int capacity() {
    return capacity;
  }

  /**
   * The index with this uuid in the dataset at {@code store}, opened now or earlier. The caller
   * closes it when done (the cache keeps its own hold).
   *
   * @throws IOException if its lookup file cannot be read
   */
  public BTreeIndex open(ObjectStore store, String uuid) throws IOException {
    try (LeasedCache.Lease<BTreeIndex> lease = open.lease(store.location() + "#" + uuid,
        k -> BTreeIndex.open(store, uuid, allocator))) {
      BTreeIndex index = lease.value();
      // The lease keeps the cache's hold, so the index is not freed yet.
      index.retain();
      return index;
    }
  }

  /**
   * The bitmap, zone map or bloom filter index with this uuid in the dataset at {@code store},
   * read now or earlier.
   *
   * @param columnType the indexed column's type (a bloom filter hashes values by it)
   * @throws IOException if its file cannot be read
   * @throws IllegalArgumentException if {@code type} is not one of those kinds
   */
  public ScalarIndex openScalar(ObjectStore store, String uuid, IndexType type, ArrowType columnType)
      throws IOException {
    String dir = BTreeIndex.directory(uuid);
    try (LeasedCache.Lease<ScalarIndex> lease = scalar.lease(store.location() + "#" + uuid, k -> {
      switch (type) {
        case BITMAP: return BitmapIndex.open(store, dir, allocator);
        case ZONEMAP: return ZoneMapIndex.open(store, dir, allocator);
        case BLOOM_FILTER: return BloomFilterIndex.open(store, dir, columnType, allocator);
        default: throw new IllegalArgumentException("Not a bitmap, zone map or bloom filter index: " + type);
      }
    })) {
      return lease.value();
    }
  }

  /**
   * The label list index with this uuid in the dataset at {@code store}, read now or earlier.
   *
   * @throws IOException if its file cannot be read
   */
  public LabelListIndex openLabelList(ObjectStore store, String uuid) throws IOException {
    try (LeasedCache.Lease<LabelListIndex> lease = labelLists.lease(store.location() + "#" + uuid,
        k -> LabelListIndex.open(store, BTreeIndex.directory(uuid), allocator))) {
      return lease.value();
    }
  }

  /**
   * The n-gram index with this uuid in the dataset at {@code store}, read now or earlier.
   *
   * @throws IOException if its file cannot be read
   */
  public NGramIndex openNGram(ObjectStore store, String uuid) throws IOException {
    try (LeasedCache.Lease<NGramIndex> lease = ngrams.lease(store.location() + "#" + uuid,
        k -> NGramIndex.open(store, BTreeIndex.directory(uuid), allocator))) {
      return lease.value();
    }
  }

  /** The number of indices cached. */
  public long size() {
    return open.size() + scalar.size() + labelLists.size() + ngrams.size();
  }

  /** Closes every cached index (each freed once its current users close it). */
  public void clear() {
    open.invalidateAll();
    scalar.invalidateAll();
    labelLists.invalidateAll();
    ngrams.invalidateAll();
  }

  /** Closes every cached index as {@link #clear()} does, and refuses later opens. */
  @Override
  public void close() {
    open.close();
    scalar.close();
    labelLists.close();
    ngrams.close();
  }
}
