package dev.javelin.common;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import java.util.Objects;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executor;
import java.util.function.ToIntBiFunction;
import org.slf4j.LoggerFactory;

/**
 * A bounded cache of values that may hold resources (open files, Arrow memory), shared by the
 * queries of a process or session: a Caffeine cache (by entry count or by weight) with a count of
 * leases on each value. {@link #lease} hands out a value, loading it when absent; a value the
 * cache evicts or forgets stays usable by the leases already given out, and is closed (when it is
 * {@link AutoCloseable}) only once the last of them is closed. {@link #close()} forgets every
 * value the same way and refuses later leases. Thread-safe.
 *
 * <p>Evictions and closes run on the thread whose operation caused them unless the builder is
 * given another executor, so a bound holds, and evicted values are closed, when the operation
 * returns. A value is loaded outside any lock: two threads missing the same key at once may both
 * load it, and the value of the one that comes second is closed unused. A failure to close a
 * value is logged, not thrown (the values are meant to be read-only, so nothing is lost).
 */
public final class LeasedCache<K, V> implements AutoCloseable {
  /** Loads the value of a key that is not cached. */
  @FunctionalInterface
  public interface Loader<K, V, X extends Exception> {
    V load(K key) throws X;
  }

  private final Cache<K, Holder<V>> cache;
  private final ConcurrentMap<K, Holder<V>> map;
  private volatile boolean closed;

  private LeasedCache(Builder<K, V> b) {
    Caffeine<Object, Object> c = Caffeine.newBuilder().executor(b.executor);
    if (b.weigher != null) {
      ToIntBiFunction<? super K, ? super V> weigher = b.weigher;
      c.maximumWeight(b.maximumWeight);
      this.cache = c.<K, Holder<V>>weigher((k, h) -> weigher.applyAsInt(k, h.value))
          .removalListener(this::removed).build();
    } else {
      c.maximumSize(b.maximumSize);
      this.cache = c.<K, Holder<V>>removalListener(this::removed).build();
    }
    this.map = cache.asMap();
  }

  /** Starts configuring a cache; give it a bound ({@code maximumSize} or {@code maximumWeight}). */
  public static <K, V> Builder<K, V> builder() {
    return new Builder<>();
  }

  /**
   * A lease on the value of {@code key}, loaded by {@code loader} if it is not cached. The caller
   * closes the lease when done with the value (the value itself is the cache's to close).
   *
   * @throws X what the loader throws (nothing is cached then)
   * @throws IllegalStateException if the cache is closed
   */
  public <X extends Exception> Lease<V> lease(K key, Loader<? super K, ? extends V, X> loader) throws X {
    while (true) {
      checkOpen();
      Holder<V> cached = map.get(key);
      if (cached != null && cached.retain()) {
        return new Lease<>(cached);
      }
      if (cached == null) {
        break;
      }
      // Closed between the lookup and the retain (evicted with no lease left): gone from the map
      // once its removal is done, or replaced below.
      if (map.remove(key, cached)) {
        break;
      }
    }
    // Loaded outside any lock, so a slow load does not hold up other keys.
    Holder<V> fresh = new Holder<>(loader.load(key));
    fresh.retain(); // the lease's, taken before the value can be evicted
    while (true) {
      Holder<V> other = map.putIfAbsent(key, fresh);
      if (other == null) {
        break;
      }
      if (other.retain()) {
        // Another thread was first: its value is the one shared.
        fresh.discard();
        return new Lease<>(other);
      }
      if (map.replace(key, other, fresh)) {
        break;
      }
    }
    if (closed) {
      // close() ran while this value was loading: it is not kept, only leased.
      map.remove(key, fresh);
    }
    return new Lease<>(fresh);
  }

  /**
   * A lease on the cached value of {@code key}, or null when there is none (nothing is loaded).
   *
   * @throws IllegalStateException if the cache is closed
   */
  public Lease<V> leaseIfPresent(K key) {
    checkOpen();
    Holder<V> cached = map.get(key);
    return cached != null && cached.retain() ? new Lease<>(cached) : null;
  }

  /**
   * Caches {@code value} under {@code key} in place of any value there (which is forgotten: closed
   * once no lease holds it) and returns a lease on it.
   *
   * @throws IllegalStateException if the cache is closed
   */
  public Lease<V> put(K key, V value) {
    checkOpen();
    Holder<V> fresh = new Holder<>(value);
    fresh.retain();
    map.put(key, fresh);
    if (closed) {
      map.remove(key, fresh);
    }
    return new Lease<>(fresh);
  }

  /**
   * Weighs the value of {@code key} again, for a value whose weight changed since it was cached
   * (a cache bounded by weight may evict to make room). Does nothing if it is not cached.
   */
  public void reweigh(K key) {
    map.computeIfPresent(key, (k, h) -> h);
  }

  /** Forgets the value of {@code key}: closed now if no lease holds it, else when the last one closes. */
  public void invalidate(K key) {
    cache.invalidate(key);
  }

  /** Forgets every value (each closed once no lease holds it). */
  public void invalidateAll() {
    cache.invalidateAll();
  }

  /** The number of values cached (evictions due are done first). */
  public long size() {
    cache.cleanUp();
    return cache.estimatedSize();
  }

  /** Whether {@link #close()} was called. */
  public boolean isClosed() {
    return closed;
  }

  /**
   * Forgets every value and refuses later leases. Values no lease holds are closed now (with the
   * default executor), the others when their last lease closes.
   */
  @Override
  public void close() {
    closed = true;
    cache.invalidateAll();
    cache.cleanUp();
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("The cache is closed");
    }
  }

  private void removed(K key, Holder<V> h, RemovalCause cause) {
    // A value weighed again stays mapped: that is no removal (Caffeine does not report it as one,
    // but a removal of this same holder must never close a value still in the map).
    if (h == null || map.get(key) == h) {
      return;
    }
    h.release();
  }

  /** A hold on a cached value; closing it (once or more) releases the hold. */
  public static final class Lease<V> implements AutoCloseable {
    private final Holder<V> holder;
    private boolean released;

    private Lease(Holder<V> holder) {
      this.holder = holder;
    }

    /**
     * The value, usable until this lease is closed.
     *
     * @throws IllegalStateException if the lease is closed
     */
    public synchronized V value() {
      if (released) {
        throw new IllegalStateException("The lease is closed");
      }
      return holder.value;
    }

    @Override
    public void close() {
      synchronized (this) {
        if (released) {
          return;
        }
        released = true;
      }
      holder.release();
    }
  }

  /**
   * A cached value and its holds: the cache's own (until it forgets the value) and one per open
   * lease. At zero the value is closed, and it can never be leased again.
   */
  private static final class Holder<V> {
    final V value;
    private int holds = 1; // the cache's

    Holder(V value) {
      this.value = value;
    }

    synchronized boolean retain() {
      if (holds == 0) {
        return false;
      }
      holds++;
      return true;
    }

    void release() {
      synchronized (this) {
        if (holds == 0 || --holds > 0) {
          return;
        }
      }
      closeValue();
    }

    // Closes a value that was never cached.
    void discard() {
      synchronized (this) {
        holds = 0;
      }
      closeValue();
    }

    private void closeValue() {
      if (value instanceof AutoCloseable c) {
        try {
          c.close();
        } catch (Exception e) {
          LoggerFactory.getLogger(LeasedCache.class).warn("Could not close a value evicted from a cache: {}", value,
              e);
        }
      }
    }
  }

  /** The bound and executor of a {@link LeasedCache}. */
  public static final class Builder<K, V> {
    private long maximumSize = -1;
    private long maximumWeight = -1;
    private ToIntBiFunction<? super K, ? super V> weigher;
    private Executor executor = Runnable::run;

    private Builder() {}

    /** At most this many values (the least useful beyond it evicted). */
    public Builder<K, V> maximumSize(long size) {
      if (size < 0) {
        throw new IllegalArgumentException("maximumSize must not be negative, got " + size);
      }
      this.maximumSize = size;
      this.weigher = null;
      return this;
    }

    /**
     * At most this total weight of values, each weighed by {@code weigher} when cached (and when
     * {@link LeasedCache#reweigh} is called).
     */
    public Builder<K, V> maximumWeight(long weight, ToIntBiFunction<? super K, ? super V> weigher) {
      if (weight < 0) {
        throw new IllegalArgumentException("maximumWeight must not be negative, got " + weight);
      }
      this.maximumWeight = weight;
      this.weigher = Objects.requireNonNull(weigher, "weigher");
      return this;
    }

    /**
     * Where evictions and closes run (default: on the thread whose operation caused them, so
     * that they are done when it returns).
     */
    public Builder<K, V> executor(Executor executor) {
      this.executor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /** @throws IllegalStateException if no bound was given */
    public LeasedCache<K, V> build() {
      if (weigher == null && maximumSize < 0) {
        throw new IllegalStateException("A cache needs a maximumSize or a maximumWeight");
      }
      return new LeasedCache<>(this);
    }
  }
}
