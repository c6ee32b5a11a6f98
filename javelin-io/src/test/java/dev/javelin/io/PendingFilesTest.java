package dev.javelin.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PendingFilesTest {
  @TempDir Path dir;

  private LocalObjectStore store() throws IOException {
    LocalObjectStore store = new LocalObjectStore(dir);
    for (String k : List.of("data/a.lance", "data/b.lance", "data/c.lance")) {
      store.put(k, k.getBytes(StandardCharsets.UTF_8));
    }
    return store;
  }

  @Test
  void closeDeletesEveryTrackedFile() throws Exception {
    LocalObjectStore store = store();
    try (PendingFiles pending = new PendingFiles(store)) {
      assertThat(pending.add("data/a.lance")).isEqualTo("data/a.lance");
      pending.addAll(List.of("data/b.lance", "data/a.lance", "data/never-written.lance"));
      assertThat(pending.keys()).containsExactly("data/a.lance", "data/b.lance", "data/never-written.lance");
      assertThat(pending.committed()).isFalse();
    }
    assertThat(store.exists("data/a.lance")).isFalse();
    assertThat(store.exists("data/b.lance")).isFalse();
    assertThat(store.exists("data/c.lance")).isTrue();
  }

  @Test
  void aFailureInsideStillDeletesAndIsWhatComesOut() throws Exception {
    LocalObjectStore store = store();
    IllegalStateException boom = new IllegalStateException("write failed");
    assertThatThrownBy(() -> {
      try (PendingFiles pending = new PendingFiles(store)) {
        pending.add("data/a.lance");
        throw boom;
      }
    }).isSameAs(boom);
    assertThat(boom.getSuppressed()).isEmpty();
    assertThat(store.exists("data/a.lance")).isFalse();
  }

  @Test
  void committedFilesAreKept() throws Exception {
    LocalObjectStore store = store();
    try (PendingFiles pending = new PendingFiles(store)) {
      pending.add("data/a.lance");
      pending.commit();
      pending.add("data/b.lance"); // added after the commit: kept as well
      assertThat(pending.committed()).isTrue();
      assertThat(pending.keys()).containsExactly("data/a.lance", "data/b.lance");
    }
    assertThat(store.exists("data/a.lance")).isTrue();
    assertThat(store.exists("data/b.lance")).isTrue();
  }

  @Test
  void discardDeletesNowAndStopsTracking() throws Exception {
    LocalObjectStore store = store();
    PendingFiles pending = new PendingFiles(store);
    pending.addAll(List.of("data/a.lance", "data/b.lance"));
    pending.discard("data/a.lance");
    assertThat(store.exists("data/a.lance")).isFalse();
    assertThat(pending.keys()).containsExactly("data/b.lance");
    pending.commit();
    pending.close();
    assertThat(store.exists("data/b.lance")).isTrue();
  }

  @Test
  void deleteFailuresAreSkippedAndTheRestStillDeleted() throws Exception {
    LocalObjectStore local = store();
    List<String> tried = new ArrayList<>();
    ObjectStore failing = new ForwardingStore(local) {
      @Override
      public void delete(String key) throws IOException {
        tried.add(key);
        if (key.equals("data/a.lance")) {
          throw new IOException("cannot delete " + key);
        }
        if (key.equals("data/b.lance")) {
          throw new IllegalStateException("store closed");
        }
        super.delete(key);
      }
    };
    PendingFiles pending = new PendingFiles(failing);
    pending.addAll(List.of("data/a.lance", "data/b.lance", "data/c.lance"));
    pending.close();
    assertThat(tried).containsExactly("data/a.lance", "data/b.lance", "data/c.lance");
    assertThat(local.exists("data/a.lance")).isTrue();
    assertThat(local.exists("data/b.lance")).isTrue();
    assertThat(local.exists("data/c.lance")).isFalse();
    // Closed: nothing is tracked any more, a second close deletes nothing.
    assertThat(pending.keys()).isEmpty();
    pending.close();
    assertThat(tried).hasSize(3);
  }

  @Test
  void threadsMayAddAtOnce() throws Exception {
    LocalObjectStore store = new LocalObjectStore(dir);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (PendingFiles pending = new PendingFiles(store)) {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          for (int i = 0; i < 250; i++) {
            pending.add("data/" + thread + "-" + i + ".lance");
          }
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      assertThat(pending.keys()).hasSize(1000).doesNotHaveDuplicates();
    } finally {
      pool.shutdown();
    }
  }

  /** Forwards every call to another store. */
  private static class ForwardingStore implements ObjectStore {
    private final ObjectStore delegate;

    ForwardingStore(ObjectStore delegate) {
      this.delegate = delegate;
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
    public InputFile open(String key) throws IOException {
      return delegate.open(key);
    }

    @Override
    public void put(String key, byte[] data) throws IOException {
      delegate.put(key, data);
    }

    @Override
    public void putIfAbsent(String key, byte[] data) throws IOException {
      delegate.putIfAbsent(key, data);
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
}
