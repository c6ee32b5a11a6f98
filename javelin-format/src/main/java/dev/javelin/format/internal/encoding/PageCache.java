package dev.javelin.format.internal.encoding;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongConsumer;

/**
 * Page metadata that decoders of one (immutable) file load lazily, such as a mini-block page's
 * chunk table, kept so that later readers of the same file do not load it again. The states kept
 * must never be modified once put: readers on any thread share them. Bounded: a put that would
 * pass {@code maxBytes} is dropped (the decoder keeps its state to itself, as without a cache).
 * Thread-safe.
 */
public final class PageCache {
  private final long maxBytes;
  private final LongConsumer onAdded;
  private final ConcurrentHashMap<Long, Object> states = new ConcurrentHashMap<>();
  private long bytes;
  private boolean closed;

  /**
   * @param maxBytes the most (estimated) bytes of states to keep
   * @param onAdded told the estimated size of every state kept, for a cache of many files to
   *     bound their sum
   */
  public PageCache(long maxBytes, LongConsumer onAdded) {
    this.maxBytes = maxBytes;
    this.onAdded = onAdded;
  }

  /** The key of the state of kind {@code kind} (0 to 3) of a column's page. */
  public static long key(int column, int page, int kind) {
    return (long) column << 32 | (long) page << 2 | kind;
  }

  /** The state kept under {@code key}, or null. */
  public Object get(long key) {
    return states.get(key);
  }

  /**
   * Keeps {@code state} (of about {@code size} bytes) under {@code key} unless the cache is
   * closed, already has a state there, or would grow past its bound.
   */
  public void put(long key, Object state, long size) {
    synchronized (this) {
      if (closed || bytes + size > maxBytes || states.putIfAbsent(key, state) != null) {
        return;
      }
      bytes += size;
    }
    onAdded.accept(size);
  }

  /** The estimated bytes of the states kept. */
  public synchronized long bytes() {
    return bytes;
  }

  /**
   * Stops keeping new states (those kept stay readable) and returns the estimated bytes kept, so
   * that whoever counted them through {@code onAdded} can uncount exactly that much.
   */
  public synchronized long close() {
    closed = true;
    return bytes;
  }
}
