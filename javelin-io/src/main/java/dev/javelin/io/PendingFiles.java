package dev.javelin.io;

import java.io.IOException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The objects a running operation has written and no committed version references yet: closing
 * it deletes them all unless {@link #commit} said they are kept (a version references them now,
 * or a commit took them over). One try-with-resources then covers every way out of an operation,
 * so a failed write, update or commit leaves no file behind.
 *
 * <p>Deletes are best effort: a key that cannot be deleted is logged as a warning and skipped, and the others
 * still are (an unreferenced file is harmless; cleanup removes it later), so that closing never
 * hides the failure that made the operation give up. Safe for use by several threads.
 */
public final class PendingFiles implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PendingFiles.class);
  private final ObjectStore store;
  private final Set<String> keys = new LinkedHashSet<>();
  private boolean committed;

  /** Tracks files written to {@code store}; none yet. */
  public PendingFiles(ObjectStore store) {
    this.store = store;
  }

  /** Tracks {@code key}, and returns it. */
  public synchronized String add(String key) {
    keys.add(key);
    return key;
  }

  /** Tracks every one of {@code more}. */
  public synchronized void addAll(Collection<String> more) {
    keys.addAll(more);
  }

  /** Deletes {@code key} now (best effort) and stops tracking it: the operation no longer uses it. */
  public void discard(String key) {
    synchronized (this) {
      keys.remove(key);
    }
    deleteQuietly(store, key);
  }

  /** The keys tracked, in the order they were added. */
  public synchronized List<String> keys() {
    return List.copyOf(keys);
  }

  /** Keeps the files: {@link #close} deletes nothing. */
  public synchronized void commit() {
    committed = true;
  }

  /** Whether {@link #commit} was called. */
  public synchronized boolean committed() {
    return committed;
  }

  /** Unless committed, deletes every tracked file and stops tracking them (a second close does nothing). */
  @Override
  public void close() {
    List<String> doomed;
    synchronized (this) {
      if (committed) {
        return;
      }
      doomed = List.copyOf(keys);
      keys.clear();
    }
    deleteAll(store, doomed);
  }

  /** Deletes {@code keys} now, best effort, as {@link #close} does: for files a failed step no longer tracks. */
  public static void deleteAll(ObjectStore store, Collection<String> keys) {
    keys.forEach(k -> deleteQuietly(store, k));
  }

  private static void deleteQuietly(ObjectStore store, String key) {
    try {
      store.delete(key);
    } catch (IOException | RuntimeException e) {
      // Best effort: the file stays behind, unreferenced, until cleanup removes it.
      LOG.warn("Could not delete {} of a failed operation in {}", key, store.location(), e);
    }
  }
}
