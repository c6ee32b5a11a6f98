package dev.javelin.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LeasedCacheTest {
  /** A value that knows whether it was closed (and refuses a second close). */
  static final class Resource implements AutoCloseable {
    final String key;
    volatile boolean closed;
    int weight = 1;

    Resource(String key) {
      this.key = key;
    }

    @Override
    public void close() {
      if (closed) {
        throw new IllegalStateException(key + " closed twice");
      }
      closed = true;
    }
  }

  final List<Resource> made = new CopyOnWriteArrayList<>();

  Resource load(String key) {
    Resource r = new Resource(key);
    made.add(r);
    return r;
  }

  static LeasedCache<String, Resource> bySize(int size) {
    return LeasedCache.<String, Resource>builder().maximumSize(size).executor(Runnable::run).build();
  }

  @Test
  void aCachedValueIsSharedAndLoadedOnce() {
    try (LeasedCache<String, Resource> cache = bySize(4)) {
      AtomicInteger loads = new AtomicInteger();
      try (LeasedCache.Lease<Resource> a = cache.lease("a", k -> {
            loads.incrementAndGet();
            return load(k);
          });
          LeasedCache.Lease<Resource> again = cache.lease("a", k -> {
            loads.incrementAndGet();
            return load(k);
          })) {
        assertThat(again.value()).isSameAs(a.value());
      }
      assertThat(loads).hasValue(1);
      assertThat(cache.size()).isEqualTo(1);
      assertThat(made.get(0).closed).isFalse(); // closing the leases does not close a cached value
    }
    assertThat(made.get(0).closed).isTrue();
  }

  @Test
  void anEvictedValueIsClosedAfterItsLastLease() {
    try (LeasedCache<String, Resource> cache = bySize(1)) {
      LeasedCache.Lease<Resource> a = cache.lease("a", this::load);
      LeasedCache.Lease<Resource> a2 = cache.lease("a", this::load);
      try (LeasedCache.Lease<Resource> b = cache.lease("b", this::load)) {
        Resource ra = a.value();
        assertThat(cache.size()).isEqualTo(1);
        // "a" was evicted but is still leased twice.
        assertThat(ra.closed).isFalse();
        a.close();
        a.close(); // a second close releases nothing more
        assertThat(ra.closed).isFalse();
        a2.close();
        assertThat(ra.closed).isTrue();
        assertThat(b.value().closed).isFalse();
        // Leasing "a" again loads it anew (and evicts "b", still leased here).
        try (LeasedCache.Lease<Resource> fresh = cache.lease("a", this::load)) {
          assertThat(fresh.value()).isNotSameAs(ra);
          assertThat(fresh.value().closed).isFalse();
        }
        assertThat(b.value().closed).isFalse();
      }
      assertThat(made).extracting(r -> r.key + "=" + r.closed).containsExactly("a=true", "b=true", "a=false");
    }
    assertThat(made).allMatch(r -> r.closed);
  }

  @Test
  void anEvictedValueWithoutLeasesIsClosedAtOnce() {
    try (LeasedCache<String, Resource> cache = bySize(2)) {
      for (String k : List.of("a", "b", "c", "d")) {
        cache.lease(k, this::load).close();
      }
      assertThat(cache.size()).isEqualTo(2);
      assertThat(made.stream().filter(r -> r.closed).count()).isEqualTo(2);
    }
  }

  @Test
  void aClosedLeaseRefusesItsValue() {
    try (LeasedCache<String, Resource> cache = bySize(2)) {
      LeasedCache.Lease<Resource> a = cache.lease("a", this::load);
      a.close();
      assertThatThrownBy(a::value).isInstanceOf(IllegalStateException.class).hasMessage("The lease is closed");
    }
  }

  @Test
  void invalidatedValuesAreClosedOnceUnleased() {
    try (LeasedCache<String, Resource> cache = bySize(8)) {
      LeasedCache.Lease<Resource> a = cache.lease("a", this::load);
      cache.lease("b", this::load).close();
      cache.invalidate("a");
      cache.invalidate("b");
      cache.invalidate("absent");
      assertThat(cache.size()).isZero();
      assertThat(a.value().closed).isFalse();
      assertThat(made.get(1).closed).isTrue();
      a.close();
      assertThat(made.get(0).closed).isTrue();
      cache.lease("c", this::load).close();
      cache.lease("d", this::load).close();
      cache.invalidateAll();
      assertThat(made).allMatch(r -> r.closed);
    }
  }

  @Test
  void closeClosesUnleasedValuesNowAndLeasedOnesAtTheirLastLease() {
    LeasedCache<String, Resource> cache = bySize(8);
    LeasedCache.Lease<Resource> a = cache.lease("a", this::load);
    cache.lease("b", this::load).close();
    cache.close();
    assertThat(cache.isClosed()).isTrue();
    assertThat(made.get(1).closed).isTrue();
    assertThat(a.value().closed).isFalse();
    a.close();
    assertThat(made.get(0).closed).isTrue();
    assertThatThrownBy(() -> cache.lease("c", this::load))
        .isInstanceOf(IllegalStateException.class).hasMessage("The cache is closed");
    assertThat(made).hasSize(2);
    cache.close(); // again: nothing left to do
  }

  @Test
  void aFailedLoadCachesNothingAndKeepsItsException() {
    try (LeasedCache<String, Resource> cache = bySize(2)) {
      assertThatThrownBy(() -> cache.lease("a", k -> {
        throw new IOException("cannot read " + k);
      })).isInstanceOf(IOException.class).hasMessage("cannot read a");
      assertThat(cache.size()).isZero();
      try (LeasedCache.Lease<Resource> a = cache.lease("a", this::load)) {
        assertThat(a.value().key).isEqualTo("a");
      }
    }
  }

  @Test
  void aCacheByWeightEvictsWhenAValueGrows() {
    LeasedCache<String, Resource> cache = LeasedCache.<String, Resource>builder()
        .maximumWeight(10, (k, r) -> r.weight).executor(Runnable::run).build();
    try (cache) {
      for (String k : List.of("a", "b", "c")) {
        try (LeasedCache.Lease<Resource> l = cache.lease(k, this::load)) {
          l.value().weight = 3;
          cache.reweigh(k);
        }
      }
      assertThat(cache.size()).isEqualTo(3);
      assertThat(made).noneMatch(r -> r.closed);
      made.get(2).weight = 5;
      cache.reweigh("c");
      // 3 + 3 + 5 > 10: one value goes (and is closed, being unleased).
      assertThat(cache.size()).isEqualTo(2);
      assertThat(made.stream().filter(r -> r.closed).count()).isEqualTo(1);
      cache.reweigh("absent");
    }
    assertThat(made).allMatch(r -> r.closed);
  }

  @Test
  void aPutValueReplacesTheCachedOneAndLeaseIfPresentLoadsNothing() {
    try (LeasedCache<String, Resource> cache = bySize(4)) {
      assertThat(cache.leaseIfPresent("a")).isNull();
      LeasedCache.Lease<Resource> old = cache.lease("a", this::load);
      try (LeasedCache.Lease<Resource> replaced = cache.put("a", load("a"))) {
        assertThat(replaced.value()).isSameAs(made.get(1));
        // The old value is forgotten, and closed once its lease is.
        assertThat(old.value().closed).isFalse();
        old.close();
        assertThat(made.get(0).closed).isTrue();
        try (LeasedCache.Lease<Resource> present = cache.leaseIfPresent("a")) {
          assertThat(present.value()).isSameAs(made.get(1));
        }
      }
      assertThat(cache.size()).isEqualTo(1);
      assertThat(made.get(1).closed).isFalse();
    }
    assertThat(made).hasSize(2).allMatch(r -> r.closed);
  }

  @Test
  void aCacheNeedsABound() {
    assertThatThrownBy(() -> LeasedCache.builder().build())
        .isInstanceOf(IllegalStateException.class).hasMessage("A cache needs a maximumSize or a maximumWeight");
    assertThatThrownBy(() -> LeasedCache.builder().maximumSize(-1))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("maximumSize must not be negative, got -1");
  }

  @Test
  void twoThreadsMissingTheSameKeyShareOneValue() throws Exception {
    try (LeasedCache<String, Resource> cache = bySize(4)) {
      CountDownLatch both = new CountDownLatch(2);
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        List<Future<LeasedCache.Lease<Resource>>> leases = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
          leases.add(pool.submit(() -> cache.lease("k", k -> {
            both.countDown();
            both.await(10, TimeUnit.SECONDS); // both load before either caches
            return load(k);
          })));
        }
        LeasedCache.Lease<Resource> first = leases.get(0).get();
        LeasedCache.Lease<Resource> second = leases.get(1).get();
        assertThat(first.value()).isSameAs(second.value());
        assertThat(made).hasSize(2);
        // The value that came second was closed unused; the shared one is open.
        assertThat(made.stream().filter(r -> r.closed).count()).isEqualTo(1);
        assertThat(first.value().closed).isFalse();
        first.close();
        second.close();
      } finally {
        pool.shutdown();
      }
    }
    assertThat(made).allMatch(r -> r.closed);
  }

  @Test
  void concurrentLeasesNeverSeeAClosedValueAndEveryValueIsClosedOnce() throws Exception {
    LeasedCache<String, Resource> cache = bySize(3);
    Map<Resource, AtomicInteger> inUse = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(6);
    List<Future<Integer>> runs = new ArrayList<>();
    try {
      for (int t = 0; t < 6; t++) {
        int seed = t;
        runs.add(pool.submit(() -> {
          Random random = new Random(seed);
          int problems = 0;
          for (int i = 0; i < 3_000; i++) {
            String key = "k" + random.nextInt(10);
            if (seed == 0 && i % 50 == 0) {
              cache.invalidate(key);
              continue;
            }
            // Hold up to three leases at once, of random keys, closed in random order.
            List<LeasedCache.Lease<Resource>> held = new ArrayList<>();
            for (int h = 0; h <= random.nextInt(3); h++) {
              LeasedCache.Lease<Resource> l = cache.lease("k" + random.nextInt(10), this::load);
              inUse.computeIfAbsent(l.value(), r -> new AtomicInteger()).incrementAndGet();
              held.add(l);
            }
            for (LeasedCache.Lease<Resource> l : held) {
              if (l.value().closed) {
                problems++;
              }
            }
            java.util.Collections.shuffle(held, random);
            for (LeasedCache.Lease<Resource> l : held) {
              inUse.get(l.value()).decrementAndGet();
              l.close();
            }
          }
          return problems;
        }));
      }
      for (Future<Integer> f : runs) {
        assertThat(f.get()).isZero();
      }
    } finally {
      pool.shutdown();
    }
    assertThat(cache.size()).isLessThanOrEqualTo(3);
    long open = made.stream().filter(r -> !r.closed).count();
    assertThat(open).isEqualTo(cache.size());
    cache.close();
    // Each value closed exactly once (a second close would have thrown into a lease's close).
    assertThat(made).allMatch(r -> r.closed);
    assertThat(inUse.values()).allMatch(n -> n.get() == 0);
    assertThat(made.size()).isGreaterThan(10);
  }
}
