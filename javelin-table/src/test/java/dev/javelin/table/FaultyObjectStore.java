package dev.javelin.table;

import dev.javelin.io.InputFile;
import dev.javelin.io.ObjectExistsException;
import dev.javelin.io.ObjectInfo;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.OutputFile;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/** A store that fails on demand at the commit seam (put-if-absent), around a real store. */
final class FaultyObjectStore implements ObjectStore {
  private final ObjectStore delegate;
  private final Deque<Runnable> beforePutIfAbsent = new ArrayDeque<>();
  private int failures;
  private int losses;
  int putIfAbsentCalls;

  FaultyObjectStore(ObjectStore delegate) {
    this.delegate = delegate;
  }

  /** Runs {@code action} (say, a competing commit) just before the next put-if-absent. */
  FaultyObjectStore beforeNextPutIfAbsent(Runnable action) {
    beforePutIfAbsent.add(action);
    return this;
  }

  /** The next {@code n} put-if-absent calls fail with an I/O error (outcome unknown to the caller). */
  FaultyObjectStore failPutIfAbsent(int n) {
    this.failures = n;
    return this;
  }

  /** The next {@code n} put-if-absent calls report the key taken, without writing. */
  FaultyObjectStore losePutIfAbsent(int n) {
    this.losses = n;
    return this;
  }

  @Override
  public void putIfAbsent(String key, byte[] data) throws IOException {
    putIfAbsentCalls++;
    Runnable r = beforePutIfAbsent.poll();
    if (r != null) {
      r.run();
    }
    if (failures > 0) {
      failures--;
      throw new IOException("injected failure creating " + key);
    }
    if (losses > 0) {
      losses--;
      throw new ObjectExistsException(location(), key);
    }
    delegate.putIfAbsent(key, data);
  }

  @Override
  public String location() {
    return delegate.location();
  }

  @Override
  public List<ObjectInfo> list(String prefix) throws IOException {
    return delegate.list(prefix);
  }

  @Override
  public List<ObjectInfo> listTemporary(String prefix) throws IOException {
    return delegate.listTemporary(prefix);
  }

  @Override
  public InputFile open(String key) throws IOException {
    return delegate.open(key);
  }

  @Override
  public void put(String key, byte[] data) throws IOException {
    delegate.put(key, data);
  }

  @Override
  public OutputFile newOutputFile(String key) {
    return delegate.newOutputFile(key);
  }

  @Override
  public void delete(String key) throws IOException {
    delegate.delete(key);
  }

  @Override
  public boolean exists(String key) throws IOException {
    return delegate.exists(key);
  }
}
