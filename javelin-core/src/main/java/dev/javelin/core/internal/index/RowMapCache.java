package dev.javelin.core.internal.index;

import dev.javelin.common.LeasedCache;
import dev.javelin.core.Session;
import dev.javelin.core.internal.SessionState;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.rowmap.RowMapReader;
import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Open row map readers shared by the queries of a session, so their label chunks and rank
 * checkpoints are read once, not per query. A row map file never changes once written (each has
 * its own uuid directory), so entries never go stale. Bounded: a reader evicted beyond the
 * capacity is closed once its current users release it. Readers draw on the cache's own
 * allocator, since an entry outlives any one query's allocator. Thread-safe.
 */
public final class RowMapCache implements AutoCloseable {
  private final BufferAllocator allocator;
  private final LeasedCache<String, RowMapReader> open;

  /** @param allocator where the readers' memory comes from (closed by the caller after this cache) */
  public RowMapCache(int capacity, BufferAllocator allocator) {
    this.allocator = allocator;
    this.open = LeasedCache.<String, RowMapReader>builder().maximumSize(capacity).build();
  }

  /** A hold on an open reader; closing it releases the hold (not the cached reader). */
  public static final class Lease implements AutoCloseable {
    private final LeasedCache.Lease<RowMapReader> lease;

    private Lease(LeasedCache.Lease<RowMapReader> lease) {
      this.lease = lease;
    }

    public RowMapReader reader() {
      return lease.value();
    }

    @Override
    public void close() {
      lease.close();
    }
  }

  /**
   * The reader of the row map at {@code path} in the dataset at {@code store}, opened now or
   * earlier. The caller closes the lease when done.
   */
  public Lease lease(ObjectStore store, String path) throws IOException {
    return new Lease(open.lease(store.location() + "#" + path, k -> RowMapReader.open(store, path, allocator)));
  }

  /** {@link #lease} from the {@link Session#defaultSession() default session}'s cache. */
  public static Lease acquire(ObjectStore store, String path) throws IOException {
    return SessionState.of(Session.defaultSession()).rowMaps().lease(store, path);
  }

  /** Releases every cached reader (each closed once its current users release it), and refuses later leases. */
  @Override
  public void close() {
    open.close();
  }
}
