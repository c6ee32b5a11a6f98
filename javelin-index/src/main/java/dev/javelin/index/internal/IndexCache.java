package dev.javelin.index.internal;

import dev.javelin.index.internal.btree.BTreeIndex;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Open BTree indices shared by the queries of a process, like Lance's session index cache: the
 * first query of an index opens it (reads its lookup file), later ones reuse its lookup, open data
 * file and decoded pages. An index's files never change once written (a new index gets a new
 * uuid), so entries never go stale. Bounded: the least recently used index beyond
 * {@link #capacity()} is closed (freed once its current users close it too). Its memory comes
 * from the cache's own allocator, not from a caller's, since an entry outlives any one query.
 * Thread-safe.
 */
public final class IndexCache {
  private static final IndexCache SHARED = new IndexCache(16);

  private final int capacity;
  private final BufferAllocator allocator = new RootAllocator();
  private final Map<String, BTreeIndex> open = new LinkedHashMap<>(16, 0.75f, true);

  IndexCache(int capacity) {
    this.capacity = capacity;
  }

  /** The process-wide cache. */
  public static IndexCache shared() {
    return SHARED;
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
    String key = store.location() + "#" + uuid;
    synchronized (this) {
      BTreeIndex cached = open.get(key);
      if (cached != null && cached.retain()) {
        return cached;
      }
    }
    // Opened outside the lock, so a slow open does not hold up queries of other indices.
    BTreeIndex fresh = BTreeIndex.open(store, uuid, allocator);
    synchronized (this) {
      BTreeIndex cached = open.get(key);
      if (cached != null && cached.retain()) {
        fresh.close(); // another thread was first
        return cached;
      }
      fresh.retain();
      open.put(key, fresh);
      Iterator<BTreeIndex> it = open.values().iterator();
      while (open.size() > capacity) {
        BTreeIndex eldest = it.next();
        it.remove();
        eldest.close();
      }
      return fresh;
    }
  }

  /** Closes every cached index (each freed once its current users close it). */
  public synchronized void clear() {
    open.values().forEach(BTreeIndex::close);
    open.clear();
  }
}
