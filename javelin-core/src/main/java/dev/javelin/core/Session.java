package dev.javelin.core;

import dev.javelin.common.ThreadPools;
import dev.javelin.core.internal.SessionState;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.StorageOptions;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * The owner of what datasets share between queries, like Lance's session: an Arrow root
 * allocator, the thread pools background work runs on ({@link ThreadPools}), and the caches of
 * open indices, row maps and data file metadata. A dataset opened or created with a session
 * ({@link Dataset#open(java.nio.file.Path, Session)}, ...) reads with its allocator (each scan
 * and take on a child named after it) and uses its caches and pools; one opened with just an
 * allocator uses the {@link #defaultSession() default session}'s caches and pools.
 *
 * <p>Two sessions share nothing. Closing a session shuts its pools down, closes its caches and
 * then its allocator, which throws if memory is still held (a reader not closed, naming it):
 * close it after the datasets opened with it are done with.
 *
 * <pre>{@code
 * try (Session session = Session.builder().indexCacheSize(64).build()) {
 *   Dataset ds = Dataset.open(path, session);
 *   try (ArrowReader r = ds.newScan().build()) { ... }
 * }
 * }</pre>
 */
public final class Session implements AutoCloseable {
  /** Open BTree indices a session keeps unless configured. */
  public static final int DEFAULT_INDEX_CACHE_SIZE = 16;
  /** Open row map readers a session keeps unless configured. */
  public static final int DEFAULT_ROW_MAP_CACHE_SIZE = 8;
  /** Bytes of data file metadata (about) a session keeps unless configured. */
  public static final long DEFAULT_DATA_FILE_CACHE_BYTES = 64L << 20;
  /** Data files whose metadata a session keeps unless configured. */
  public static final int DEFAULT_DATA_FILE_CACHE_FILES = 1024;
  /** Open vector indices a session keeps unless configured. */
  public static final int DEFAULT_VECTOR_INDEX_CACHE_SIZE = 8;
  /** Stable partition entries whose transitions a session keeps unless configured. */
  public static final int DEFAULT_TRANSITION_CACHE_SIZE = 32;

  static {
    SessionState.grant(s -> s.state);
  }

  private static final class Default {
    static final Session INSTANCE = new Session(new SessionState(new RootAllocator(), ThreadPools.shared(), false,
        builder().sizes()), true);
  }

  private final SessionState state;
  private final boolean isDefault;

  private Session(SessionState state, boolean isDefault) {
    this.state = state;
    this.isDefault = isDefault;
  }

  /**
   * The session of every dataset opened without one: default cache sizes, the
   * {@link ThreadPools#shared() shared} pools, an allocator of its own for the caches. Created
   * on first use; it lives as long as the process.
   */
  public static Session defaultSession() {
    return Default.INSTANCE;
  }

  /** Starts configuring a session of its own (close it when done). */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The session's root allocator: datasets opened with the session read with it (each scan and
   * take on a child of it), and its caches draw on children of it.
   */
  public BufferAllocator allocator() {
    return state.allocator();
  }

  /**
   * The store of the dataset at {@code uri}: a local directory's, or the session's client for a
   * remote bucket or container (one per bucket and options, shared by its datasets, closed with
   * the session) rooted at the dataset's path.
   *
   * @throws dev.javelin.io.UnsupportedStoreException if no store on the class path opens the URI's scheme
   * @throws IllegalArgumentException if the URI or a storage option is malformed
   */
  public ObjectStore store(String uri, Map<String, String> storageOptions) {
    return state.stores().open(uri, StorageOptions.of(storageOptions));
  }

  /**
   * Shuts the session's pools down (waiting for their tasks), closes its caches, then its
   * allocator.
   *
   * @throws IllegalStateException if memory of the session's allocator is still held (its
   *     message names the allocator holding it, e.g. {@code scan <dataset>})
   * @throws UnsupportedOperationException for the {@link #defaultSession() default session}
   */
  @Override
  public void close() {
    if (isDefault) {
      throw new UnsupportedOperationException("The default session cannot be closed");
    }
    state.close();
  }

  /** A session's sizes; unset ones take the defaults. */
  public static final class Builder {
    private int indexCacheSize = DEFAULT_INDEX_CACHE_SIZE;
    private int rowMapCacheSize = DEFAULT_ROW_MAP_CACHE_SIZE;
    private long dataFileCacheBytes = DEFAULT_DATA_FILE_CACHE_BYTES;
    private int dataFileCacheFiles = DEFAULT_DATA_FILE_CACHE_FILES;
    private int vectorIndexCacheSize = DEFAULT_VECTOR_INDEX_CACHE_SIZE;
    private int transitionCacheSize = DEFAULT_TRANSITION_CACHE_SIZE;
    private final ThreadPools.Builder pools = ThreadPools.builder();
    private long allocatorLimit = Long.MAX_VALUE;

    private Builder() {}

    /** Open BTree indices kept (default {@value #DEFAULT_INDEX_CACHE_SIZE}). */
    public Builder indexCacheSize(int size) {
      this.indexCacheSize = atLeast(0, size, "indexCacheSize");
      return this;
    }

    /** Open row map readers kept (default {@value #DEFAULT_ROW_MAP_CACHE_SIZE}). */
    public Builder rowMapCacheSize(int size) {
      this.rowMapCacheSize = atLeast(0, size, "rowMapCacheSize");
      return this;
    }

    /** About how many bytes of data file metadata are kept (default 64 MiB). */
    public Builder dataFileCacheBytes(long bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("dataFileCacheBytes must not be negative, got " + bytes);
      }
      this.dataFileCacheBytes = bytes;
      return this;
    }

    /** Data files whose metadata is kept (default {@value #DEFAULT_DATA_FILE_CACHE_FILES}). */
    public Builder dataFileCacheFiles(int files) {
      this.dataFileCacheFiles = atLeast(1, files, "dataFileCacheFiles");
      return this;
    }

    /** Open vector indices kept (default {@value #DEFAULT_VECTOR_INDEX_CACHE_SIZE}). */
    public Builder vectorIndexCacheSize(int size) {
      this.vectorIndexCacheSize = atLeast(0, size, "vectorIndexCacheSize");
      return this;
    }

    /** Stable partition entries whose transitions are kept (default {@value #DEFAULT_TRANSITION_CACHE_SIZE}). */
    public Builder transitionCacheSize(int size) {
      this.transitionCacheSize = atLeast(0, size, "transitionCacheSize");
      return this;
    }

    /**
     * Threads of the session's CPU pool (default: the system property
     * {@value ThreadPools#CPU_THREADS_PROPERTY}, else the available processors).
     */
    public Builder cpuThreads(int threads) {
      pools.cpuThreads(threads);
      return this;
    }

    /**
     * Threads of the session's I/O pool (default: the system property
     * {@value ThreadPools#IO_THREADS_PROPERTY}, else {@value ThreadPools#DEFAULT_IO_THREADS}).
     */
    public Builder ioThreads(int threads) {
      pools.ioThreads(threads);
      return this;
    }

    /** The most bytes the session's allocator hands out (default: no limit). */
    public Builder allocatorLimit(long bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("allocatorLimit must not be negative, got " + bytes);
      }
      this.allocatorLimit = bytes;
      return this;
    }

    SessionState.Sizes sizes() {
      return new SessionState.Sizes(indexCacheSize, rowMapCacheSize, dataFileCacheBytes, dataFileCacheFiles,
          vectorIndexCacheSize, transitionCacheSize);
    }

    public Session build() {
      ThreadPools p = pools.build();
      RootAllocator allocator = new RootAllocator(allocatorLimit);
      try {
        return new Session(new SessionState(allocator, p, true, sizes()), false);
      } catch (RuntimeException | Error e) {
        allocator.close();
        p.close();
        throw e;
      }
    }
  }

  private static int atLeast(int minimum, int value, String what) {
    if (value < minimum) {
      throw new IllegalArgumentException(what + " must be at least " + minimum + ", got " + value);
    }
    return value;
  }
}
