package dev.javelin.index.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.index.internal.btree.BTreeIndex;
import dev.javelin.index.internal.btree.BTreeIndexBuilder;
import dev.javelin.index.internal.btree.ScalarQuery;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

class IndexCacheTest {
  @TempDir Path dir;
  @TestAllocator RootAllocator allocator;
  LocalObjectStore store;

  @BeforeEach
  void setUp() {
    store = new LocalObjectStore(dir.resolve("ds"));
  }

  // 20,000 values in [0, 2,000) over 79 pages of 256 (more than a BTreeIndex keeps decoded).
  private long[] build(String uuid) throws IOException {
    Random r = new Random(5);
    long[] values = new long[20_000];
    long[] addresses = new long[values.length];
    try (BigIntVector v = new BigIntVector("x", allocator);
        BTreeIndexBuilder b = new BTreeIndexBuilder(v.getField(),
            BTreeIndexBuilder.Options.defaults().batchSize(256), allocator)) {
      v.allocateNew(values.length);
      for (int i = 0; i < values.length; i++) {
        values[i] = r.nextInt(2_000);
        v.set(i, values[i]);
        addresses[i] = i;
      }
      v.setValueCount(values.length);
      b.add(v, addresses, 0, values.length);
      b.finish(store, BTreeIndex.directory(uuid));
    }
    return values;
  }

  private static Roaring64NavigableMap brute(long[] values, long lo, long hi) {
    Roaring64NavigableMap out = new Roaring64NavigableMap();
    for (int i = 0; i < values.length; i++) {
      if (values[i] >= lo && values[i] <= hi) {
        out.addLong(i);
      }
    }
    return out;
  }

  @Test
  void sharesOpenIndicesAndClosesEvictedOnesAfterTheirLastUser() throws Exception {
    long[] values = build("a");
    build("b");
    IndexCache cache = new IndexCache(1, allocator);
    BTreeIndex a = cache.open(store, "a");
    try (BTreeIndex again = cache.open(store, "a")) {
      assertThat(again).isSameAs(a);
    }
    // Repeated and overlapping queries, over more pages than are kept decoded.
    for (int round = 0; round < 3; round++) {
      for (long lo : new long[] {0, 7, 500, 1_990}) {
        assertThat(a.search(ScalarQuery.between(lo, lo + 40))).isEqualTo(brute(values, lo, lo + 40));
      }
      assertThat(a.search(ScalarQuery.greaterOrEqual(0L)).getLongCardinality()).isEqualTo(values.length);
    }
    try (BTreeIndex b = cache.open(store, "b")) {
      assertThat(b).isNotSameAs(a);
      // "a" was evicted but is still ours to use.
      assertThat(a.search(ScalarQuery.equalTo(values[3]))).isEqualTo(brute(values, values[3], values[3]));
      a.close();
      assertThatThrownBy(() -> a.search(ScalarQuery.equalTo(1L)))
          .isInstanceOf(IllegalStateException.class).hasMessage("BTree index _indices/a is closed");
      try (BTreeIndex reopened = cache.open(store, "a")) {
        assertThat(reopened).isNotSameAs(a);
        assertThat(reopened.search(ScalarQuery.equalTo(values[3]))).isEqualTo(brute(values, values[3], values[3]));
      }
    }
    cache.clear();
  }

  @Test
  void queriesFromSeveralThreadsAgree() throws Exception {
    long[] values = build("c");
    IndexCache cache = new IndexCache(4, allocator);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int seed = t;
        results.add(pool.submit(() -> {
          Random r = new Random(seed);
          for (int i = 0; i < 40; i++) {
            long lo = r.nextInt(2_000);
            try (BTreeIndex index = cache.open(store, "c")) {
              if (!index.search(ScalarQuery.between(lo, lo + 25)).equals(brute(values, lo, lo + 25))) {
                return false;
              }
            }
          }
          return true;
        }));
      }
      for (Future<Boolean> f : results) {
        assertThat(f.get()).isTrue();
      }
    } finally {
      pool.shutdown();
    }
    cache.clear();
  }
}
