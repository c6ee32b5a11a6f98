package dev.javelin.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.io.InputFile;
import dev.javelin.io.ObjectExistsException;
import dev.javelin.io.ObjectInfo;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.OutputFile;
import dev.javelin.io.PositionOutputStream;
import java.io.EOFException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link ObjectStore} must do, as a test class each store's test extends with a fresh,
 * empty store per test: whole and ranged reads, put-if-absent that exactly one of many racing
 * writers wins, recursive listing, streamed writes that are whole once closed, batched deletes,
 * child stores. A dataset relies on nothing else, so a store that passes this holds datasets.
 */
public abstract class ObjectStoreContract {
  private ObjectStore store;

  /** A new, empty store (its own prefix or directory); closed after the test. */
  protected abstract ObjectStore newStore() throws Exception;

  /** Rounds of {@link #exactlyOneOfManyRacingWritersWins}; a fast store can afford more. */
  protected int raceRounds() {
    return 5;
  }

  /** Writers racing in each round. */
  protected int raceThreads() {
    return 8;
  }

  /** The store under test. */
  protected ObjectStore store() {
    return store;
  }

  @BeforeEach
  void openStore() throws Exception {
    store = newStore();
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  protected static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static List<String> keys(List<ObjectInfo> infos) {
    return infos.stream().map(ObjectInfo::key).sorted().collect(Collectors.toList());
  }

  @Test
  void putReadsBackWholeAndInRanges() throws Exception {
    byte[] data = new byte[300_000];
    new Random(7).nextBytes(data);
    store.put("data/a.lance", data);
    assertThat(store.read("data/a.lance")).isEqualTo(data);
    try (InputFile in = store.open("data/a.lance")) {
      assertThat(in.length()).isEqualTo(data.length);
      ByteBuffer mid = in.read(100_000, 70_000);
      assertThat(mid.remaining()).isEqualTo(70_000);
      byte[] got = new byte[70_000];
      mid.get(got);
      assertThat(got).isEqualTo(Arrays.copyOfRange(data, 100_000, 170_000));
      ByteBuffer dst = ByteBuffer.allocate(10);
      in.readFully(data.length - 10, dst);
      assertThat(dst.array()).isEqualTo(Arrays.copyOfRange(data, data.length - 10, data.length));
      assertThat(in.read(5, 0).remaining()).isZero();
      assertThatThrownBy(() -> in.read(data.length - 5, 10)).isInstanceOf(EOFException.class);
    }
  }

  @Test
  void putReplacesAndDeleteRemoves() throws Exception {
    store.put("k", bytes("one"));
    store.put("k", bytes("two"));
    assertThat(store.read("k")).isEqualTo(bytes("two"));
    assertThat(store.exists("k")).isTrue();
    store.delete("k");
    assertThat(store.exists("k")).isFalse();
    store.delete("k"); // deleting a missing object is not an error
  }

  @Test
  void missingObjectsAreNoSuchFile() {
    assertThatThrownBy(() -> store.open("nope").length()).isInstanceOf(NoSuchFileException.class);
    assertThatThrownBy(() -> store.read("nope")).isInstanceOf(NoSuchFileException.class);
  }

  @Test
  void putIfAbsentRefusesATakenKey() throws Exception {
    store.putIfAbsent("_versions/1.manifest", bytes("first"));
    assertThatThrownBy(() -> store.putIfAbsent("_versions/1.manifest", bytes("second")))
        .isInstanceOf(ObjectExistsException.class);
    assertThat(store.read("_versions/1.manifest")).isEqualTo(bytes("first"));
  }

  @Test
  void exactlyOneOfManyRacingWritersWins() throws Exception {
    int threads = raceThreads();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < raceRounds(); round++) {
        String key = "_versions/" + round + ".manifest";
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger wins = new AtomicInteger();
        AtomicInteger winner = new AtomicInteger(-1);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int id = t;
          futures.add(pool.submit(() -> {
            start.await();
            try {
              store.putIfAbsent(key, bytes(("writer-" + id + ";").repeat(2000)));
              wins.incrementAndGet();
              winner.set(id);
            } catch (ObjectExistsException e) {
              // lost the race
            }
            return null;
          }));
        }
        start.countDown();
        for (Future<?> f : futures) {
          f.get();
        }
        assertThat(wins.get()).as("round %d", round).isEqualTo(1);
        assertThat(store.read(key)).isEqualTo(bytes(("writer-" + winner.get() + ";").repeat(2000)));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void listsRecursivelyByPrefixWithSizes() throws Exception {
    store.put("_versions/1.manifest", bytes("a"));
    store.put("_versions/2.manifest", bytes("bb"));
    store.put("data/x.lance", bytes("ccc"));
    store.put("data/sub/y.lance", bytes("dddd"));
    assertThat(keys(store.list("_versions/"))).containsExactly("_versions/1.manifest", "_versions/2.manifest");
    assertThat(keys(store.list("data/"))).containsExactly("data/sub/y.lance", "data/x.lance");
    assertThat(keys(store.list(""))).hasSize(4);
    assertThat(store.list("missing/")).isEmpty();
    ObjectInfo y = store.list("data/sub/").get(0);
    assertThat(y.size()).isEqualTo(4);
    assertThat(y.name()).isEqualTo("y.lance");
  }

  @Test
  void listsPastOnePageOfResults() throws Exception {
    List<String> many = IntStream.range(0, 1_100).mapToObj(i -> "_deletions/" + i + ".arrow")
        .collect(Collectors.toList());
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> puts = new ArrayList<>();
      for (String k : many) {
        puts.add(pool.submit(() -> {
          store.put(k, bytes(k));
          return null;
        }));
      }
      for (Future<?> f : puts) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(store.list("_deletions/")).hasSize(1_100);
    store.deleteAll(many.subList(0, 1_050));
    assertThat(keys(store.list("_deletions/"))).containsExactlyInAnyOrderElementsOf(many.subList(1_050, 1_100));
  }

  @Test
  void streamedWritesAreWholeWhenClosed() throws Exception {
    byte[] chunk = new byte[1 << 20];
    new Random(3).nextBytes(chunk);
    OutputFile out = store.newOutputFile("data/big.lance");
    try (PositionOutputStream s = out.create()) {
      for (int i = 0; i < 12; i++) {
        s.write(chunk);
        s.write(i);
      }
      assertThat(s.position()).isEqualTo(12L * (chunk.length + 1));
    }
    try (InputFile in = store.open("data/big.lance")) {
      assertThat(in.length()).isEqualTo(12L * (chunk.length + 1));
      ByteBuffer b = in.read(5L * (chunk.length + 1), chunk.length + 1);
      byte[] got = new byte[chunk.length];
      b.get(got);
      assertThat(got).isEqualTo(chunk);
      assertThat(b.get()).isEqualTo((byte) 5);
    }
  }

  @Test
  void aSmallStreamedWriteWorksToo() throws Exception {
    try (PositionOutputStream s = store.newOutputFile("data/small.lance").create()) {
      s.write(bytes("tiny"));
    }
    assertThat(store.read("data/small.lance")).isEqualTo(bytes("tiny"));
    try (PositionOutputStream s = store.newOutputFile("data/empty.lance").create()) {
      assertThat(s.position()).isZero();
    }
    assertThat(store.read("data/empty.lance")).isEmpty();
  }

  @Test
  void aChildStoreSeesItsDirectory() throws Exception {
    store.put("tree/b1/_versions/1.manifest", bytes("m"));
    ObjectStore child = store.child("tree/b1");
    assertThat(child.read("_versions/1.manifest")).isEqualTo(bytes("m"));
    child.put("data/c.lance", bytes("c"));
    assertThat(store.read("tree/b1/data/c.lance")).isEqualTo(bytes("c"));
    assertThat(keys(child.list(""))).containsExactly("_versions/1.manifest", "data/c.lance");
    child.close(); // shares the parent's clients: the parent still works
    assertThat(store.exists("tree/b1/data/c.lance")).isTrue();
  }

  @Test
  void aLocationNamesTheRoot() {
    assertThat(store.location()).isNotBlank();
  }
}
