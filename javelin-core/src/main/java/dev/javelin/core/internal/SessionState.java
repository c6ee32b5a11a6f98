package dev.javelin.core.internal;

import dev.javelin.common.LeasedCache;
import dev.javelin.common.ThreadPools;
import dev.javelin.core.Dataset;
import dev.javelin.core.Session;
import dev.javelin.core.internal.index.RowMapCache;
import dev.javelin.core.internal.scan.DataFileCache;
import dev.javelin.index.internal.IndexCache;
import dev.javelin.table.stablepartition.StablePartitionTransition;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;

/**
 * What a {@link Session} owns, for the internal packages: its root allocator, its thread pools
 * and its caches (open BTree indices, row map readers, data file metadata, open vector indices,
 * stable partition transitions). Reached with {@link #of(Dataset)} or {@link #of(Session)}, so
 * that the session's public API shows none of it.
 */
public final class SessionState implements AutoCloseable {
  private static volatile Function<Session, SessionState> access;

  /** The bounds of a session's caches. */
  public record Sizes(int indices, int rowMaps, long dataFileBytes, int dataFiles, int vectorIndices,
      int transitions) {}

  private final BufferAllocator allocator;
  private final ThreadPools pools;
  private final boolean ownsPools;
  private final BufferAllocator indexMemory;
  private final BufferAllocator rowMapMemory;
  private final IndexCache indices;
  private final RowMapCache rowMaps;
  private final DataFileCache dataFiles;
  private final LeasedCache<String, Object> vectorIndices;
  private final LeasedCache<String, List<StablePartitionTransition>> transitions;
  private final StoreRegistry stores = new StoreRegistry();

  /**
   * @param allocator the session's root allocator (closed last by {@link #close()})
   * @param ownsPools whether {@link #close()} closes the pools
   */
  public SessionState(BufferAllocator allocator, ThreadPools pools, boolean ownsPools, Sizes sizes) {
    this.allocator = allocator;
    this.pools = pools;
    this.ownsPools = ownsPools;
    // The caches' memory outlives any one query: each draws on a child of the session's root.
    this.indexMemory = allocator.newChildAllocator("index cache", 0, Long.MAX_VALUE);
    this.rowMapMemory = allocator.newChildAllocator("row map cache", 0, Long.MAX_VALUE);
    this.indices = new IndexCache(sizes.indices(), indexMemory);
    this.rowMaps = new RowMapCache(sizes.rowMaps(), rowMapMemory);
    this.dataFiles = new DataFileCache(sizes.dataFileBytes(), sizes.dataFiles());
    this.vectorIndices = LeasedCache.<String, Object>builder().maximumSize(sizes.vectorIndices()).build();
    this.transitions = LeasedCache.<String, List<StablePartitionTransition>>builder()
        .maximumSize(sizes.transitions()).build();
  }

  /** Lets {@link #of(Session)} reach a session's state; {@link Session} calls it once, when loaded. */
  public static void grant(Function<Session, SessionState> accessor) {
    synchronized (SessionState.class) {
      if (access != null) {
        throw new IllegalStateException("Session state access is already granted");
      }
      access = accessor;
    }
  }

  /** The state of {@code session}. */
  public static SessionState of(Session session) {
    // A Session instance exists, so its class is loaded and has granted access.
    return access.apply(session);
  }

  /** The state of the session {@code ds} was opened in. */
  public static SessionState of(Dataset ds) {
    return of(ds.session());
  }

  /** The session's root allocator. */
  /** The stores of remote datasets opened in this session (see {@link StoreRegistry}). */
  public StoreRegistry stores() {
    return stores;
  }

  public BufferAllocator allocator() {
    return allocator;
  }

  public ThreadPools pools() {
    return pools;
  }

  /** Open BTree indices, by store location and uuid. */
  public IndexCache indices() {
    return indices;
  }

  /** Open row map readers. */
  public RowMapCache rowMaps() {
    return rowMaps;
  }

  /** Parsed data file metadata. */
  public DataFileCache dataFiles() {
    return dataFiles;
  }

  /** Open vector indices (or why one cannot be read), by dataset location and uuid. */
  public LeasedCache<String, Object> vectorIndices() {
    return vectorIndices;
  }

  /** Stable partition transitions, by dataset location and entry. */
  public LeasedCache<String, List<StablePartitionTransition>> transitions() {
    return transitions;
  }

  /**
   * Shuts the pools down (when owned; their tasks end first), closes the caches, then the
   * allocators, which report memory still held (by a reader or a cached value still in use) as a
   * leak naming its allocator. Everything is closed even if a part fails; the first failure is
   * thrown, with the later ones suppressed.
   */
  @Override
  public void close() {
    List<AutoCloseable> parts = new ArrayList<>();
    parts.add(stores);
    if (ownsPools) {
      parts.add(pools);
    }
    parts.add(indices);
    parts.add(rowMaps);
    parts.add(dataFiles);
    parts.add(vectorIndices);
    parts.add(transitions);
    parts.add(indexMemory);
    parts.add(rowMapMemory);
    parts.add(allocator);
    RuntimeException failure = null;
    for (AutoCloseable c : parts) {
      try {
        c.close();
      } catch (Exception e) {
        RuntimeException r = e instanceof RuntimeException re ? re : new IllegalStateException(e);
        if (failure == null) {
          failure = r;
        } else {
          failure.addSuppressed(r);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
