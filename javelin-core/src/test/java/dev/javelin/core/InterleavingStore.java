package dev.javelin.core;

import dev.javelin.io.InputFile;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.io.ObjectInfo;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.OutputFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A local store that runs {@code before} (another writer's commit, through its own store) just
 * before each of the first {@code times} manifest puts-if-absent, so the commit finds the
 * version it meant to create taken.
 */
final class InterleavingStore implements ObjectStore {
  private final LocalObjectStore local;
  private final Runnable before;
  private int times;

  InterleavingStore(Path root, int times, Runnable before) {
    this.local = new LocalObjectStore(root);
    this.times = times;
    this.before = before;
  }

  @Override
  public void putIfAbsent(String key, byte[] data) throws IOException {
    if (key.endsWith(".manifest") && times > 0) {
      times--;
      before.run();
    }
    local.putIfAbsent(key, data);
  }

  @Override
  public String location() {
    return local.location();
  }

  @Override
  public List<ObjectInfo> list(String prefix) throws IOException {
    return local.list(prefix);
  }

  @Override
  public InputFile open(String key) throws IOException {
    return local.open(key);
  }

  @Override
  public void put(String key, byte[] data) throws IOException {
    local.put(key, data);
  }

  @Override
  public OutputFile newOutputFile(String key) {
    return local.newOutputFile(key);
  }

  @Override
  public void delete(String key) throws IOException {
    local.delete(key);
  }

  @Override
  public boolean exists(String key) throws IOException {
    return local.exists(key);
  }
}
