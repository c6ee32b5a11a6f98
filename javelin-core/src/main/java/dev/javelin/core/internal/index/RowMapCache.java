package dev.javelin.core.internal.index;

import dev.javelin.io.ObjectStore;
import dev.javelin.table.rowmap.RowMapReader;
import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Open row map readers shared by the queries of a process, so their label chunks and rank
 * checkpoints are read once, not per query. A row map file never changes once written (each has
 * its own uuid directory), so entries never go stale. Bounded: the least recently used reader
 * beyond {@value #CAPACITY} is closed once its current users release it. Readers draw on the
 * cache's own allocator, since an entry outlives any one query's allocator. Thread-safe.
 */
public final class RowMapCache {
  static final int CAPACITY = 8;
  private static final BufferAllocator ALLOCATOR = new RootAllocator();
  private static final Map<String, Entry> OPEN = new LinkedHashMap<>(16, 0.75f, true);

  private RowMapCache() {}

  /** A hold on an open reader; closing it releases the hold (not the cached reader). */
  public static final class Lease implements AutoCloseable {
    private final Entry entry;
    private boolean closed;

    private Lease(Entry entry) {
      this.entry = entry;
    }

    public RowMapReader reader() {
      return entry.reader;
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        entry.release();
      }
    }
  }

  private static final class Entry {
    final RowMapReader reader;
    private int holds = 1; // the cache's own

    Entry(RowMapReader reader) {
      this.reader = reader;
    }

    // False when the reader is already closed (evicted and released by everyone).
    synchronized boolean retain() {
      if (holds == 0) {
        return false;
      }
      holds++;
      return true;
    }

    void release() {
      boolean last;
      synchronized (this) {
        last = --holds == 0;
      }
      if (last) {
        try {
          reader.close();
        } catch (IOException ignored) {
          // nothing was written; a failed close of a read-only file loses nothing
        }
      }
    }
  }

  /**
   * The reader of the row map at {@code path} in the dataset at {@code store}, opened now or
   * earlier. The caller closes the lease when done.
   */
  public static Lease acquire(ObjectStore store, String path) throws IOException {
    String key = store.location() + "#" + path;
    synchronized (OPEN) {
      Entry e = OPEN.get(key);
      if (e != null && e.retain()) {
        return new Lease(e);
      }
    }
    // Opened outside the lock, so a slow open does not hold up other row maps.
    Entry fresh = new Entry(RowMapReader.open(store, path, ALLOCATOR));
    synchronized (OPEN) {
      Entry e = OPEN.get(key);
      if (e != null && e.retain()) {
        fresh.release();
        return new Lease(e);
      }
      fresh.retain();
      OPEN.put(key, fresh);
      Iterator<Entry> it = OPEN.values().iterator();
      while (OPEN.size() > CAPACITY) {
        Entry eldest = it.next();
        it.remove();
        eldest.release();
      }
      return new Lease(fresh);
    }
  }

  /** Releases every cached reader (each closed once its current users release it). */
  static void clear() {
    synchronized (OPEN) {
      OPEN.values().forEach(Entry::release);
      OPEN.clear();
    }
  }
}
