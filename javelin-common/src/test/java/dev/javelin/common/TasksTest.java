package dev.javelin.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class TasksTest {
  private final List<Long> waits = Collections.synchronizedList(new ArrayList<>());
  private final Tasks.Sleeper recorder = waits::add;
  private ExecutorService pool;

  @AfterEach
  void shutDown() throws InterruptedException {
    if (pool != null) {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  // ---- retry

  @Test
  void retriesUntilAnAttemptSucceeds() {
    AtomicInteger calls = new AtomicInteger();
    String out = Tasks.retry().maxAttempts(5).retryOn(IllegalStateException.class).sleeper(recorder)
        .backoff(Duration.ofMillis(10), Duration.ofMillis(100))
        .run(attempt -> {
          assertThat(attempt).isEqualTo(calls.incrementAndGet());
          if (attempt < 3) {
            throw new IllegalStateException("lost " + attempt);
          }
          return "done at " + attempt;
        });
    assertThat(out).isEqualTo("done at 3");
    assertThat(calls).hasValue(3);
    assertThat(waits).containsExactly(10L, 20L);
  }

  @Test
  void givesUpAfterMaxAttemptsRethrowingTheLastFailure() {
    AtomicInteger calls = new AtomicInteger();
    List<RuntimeException> thrown = new ArrayList<>();
    assertThatThrownBy(() -> Tasks.retry().maxAttempts(4).retryOn(IllegalStateException.class).run(attempt -> {
      calls.incrementAndGet();
      RuntimeException e = new IllegalStateException("lost " + attempt);
      thrown.add(e);
      throw e;
    })).isSameAs(thrown.get(3)).hasMessage("lost 4");
    assertThat(calls).hasValue(4);
  }

  @Test
  void giveUpHandlerTurnsTheLastFailureIntoItsOwn() {
    AtomicInteger calls = new AtomicInteger();
    assertThatThrownBy(() -> Tasks.retry().maxAttempts(3).retryOn(IllegalStateException.class)
        .onGiveUp((attempts, last) -> new JavelinException("gave up after " + attempts + " attempts", last))
        .run(attempt -> {
          calls.incrementAndGet();
          throw new IllegalStateException("lost " + attempt);
        }))
        .isExactlyInstanceOf(JavelinException.class).hasMessage("gave up after 3 attempts")
        .cause().isInstanceOf(IllegalStateException.class).hasMessage("lost 3");
    assertThat(calls).hasValue(3);
  }

  @Test
  void oneAttemptByDefault() {
    AtomicInteger calls = new AtomicInteger();
    assertThatThrownBy(() -> Tasks.retry().retryOn(IllegalStateException.class).run(attempt -> {
      calls.incrementAndGet();
      throw new IllegalStateException("lost");
    })).hasMessage("lost");
    assertThat(calls).hasValue(1);
  }

  @Test
  void retriesOnlyTheNamedTypesAndWhatThePredicateAccepts() {
    AtomicInteger calls = new AtomicInteger();
    // Not named: thrown at once.
    assertThatThrownBy(() -> Tasks.retry().maxAttempts(5).retryOn(IllegalStateException.class).run(attempt -> {
      calls.incrementAndGet();
      throw new IllegalArgumentException("bad");
    })).isExactlyInstanceOf(IllegalArgumentException.class);
    assertThat(calls).hasValue(1);

    // Nothing named: nothing retried.
    calls.set(0);
    assertThatThrownBy(() -> Tasks.retry().maxAttempts(5).run(attempt -> {
      calls.incrementAndGet();
      throw new IllegalStateException("lost");
    })).isExactlyInstanceOf(IllegalStateException.class);
    assertThat(calls).hasValue(1);

    // A subtype of a named type is retried; the predicate stops at the failure it refuses.
    calls.set(0);
    assertThatThrownBy(() -> Tasks.retry().maxAttempts(10).retryOn(IOException.class)
        .retryIf(e -> !e.getMessage().equals("stop"))
        .run(attempt -> {
          calls.incrementAndGet();
          throw new FileNotFoundException(attempt == 3 ? "stop" : "again");
        })).isExactlyInstanceOf(FileNotFoundException.class).hasMessage("stop");
    assertThat(calls).hasValue(3);
  }

  @Test
  void checkedFailuresComeOutAsDeclared() {
    AtomicInteger calls = new AtomicInteger();
    IOException e = new IOException("taken");
    try {
      Tasks.retry().maxAttempts(2).retryOn(IOException.class).<Void, IOException>run(attempt -> {
        calls.incrementAndGet();
        throw e;
      });
      throw new AssertionError("no failure");
    } catch (IOException thrown) {
      assertThat(thrown).isSameAs(e);
    }
    assertThat(calls).hasValue(2);
  }

  @Test
  void errorsAreNeverRetried() {
    AtomicInteger calls = new AtomicInteger();
    assertThatThrownBy(() -> Tasks.retry().maxAttempts(5).retryOn(Exception.class).run(attempt -> {
      calls.incrementAndGet();
      throw new AssertionError("broken");
    })).isExactlyInstanceOf(AssertionError.class);
    assertThat(calls).hasValue(1);
  }

  @Test
  void backoffDoublesFromMinWaitUpToMaxWaitWithoutJitter() {
    failing(Tasks.retry().maxAttempts(8).backoff(Duration.ofMillis(10), Duration.ofMillis(100)));
    assertThat(waits).containsExactly(10L, 20L, 40L, 80L, 100L, 100L, 100L);
  }

  @Test
  void fullJitterWaitsBetweenZeroAndTheCap() {
    failing(Tasks.retry().maxAttempts(8).backoff(Duration.ofMillis(10), Duration.ofMillis(100)).jitter(1)
        .random(fixed(true)));
    assertThat(waits).containsExactly(10L, 20L, 40L, 80L, 100L, 100L, 100L);
    waits.clear();
    failing(Tasks.retry().maxAttempts(8).backoff(Duration.ofMillis(10), Duration.ofMillis(100)).jitter(1)
        .random(fixed(false)));
    assertThat(waits).containsExactly(0L, 0L, 0L, 0L, 0L, 0L, 0L);
    waits.clear();
    failing(Tasks.retry().maxAttempts(40).backoff(Duration.ofMillis(10), Duration.ofMillis(100)).jitter(1)
        .random(new Random(42)));
    assertThat(waits).hasSize(39);
    int belowCap = 0;
    for (int i = 0; i < waits.size(); i++) {
      long cap = Math.min(100L, 10L << i);
      assertThat(waits.get(i)).isBetween(0L, cap);
      belowCap += waits.get(i) < cap ? 1 : 0;
    }
    assertThat(belowCap).isGreaterThan(30); // random, not the cap every time
  }

  @Test
  void partialJitterKeepsTheRestOfTheWait() {
    failing(Tasks.retry().maxAttempts(4).backoff(Duration.ofMillis(40), Duration.ofMillis(1000)).jitter(0.25)
        .random(fixed(false)));
    assertThat(waits).containsExactly(30L, 60L, 120L);
    waits.clear();
    failing(Tasks.retry().maxAttempts(4).backoff(Duration.ofMillis(40), Duration.ofMillis(1000)).jitter(0.25)
        .random(fixed(true)));
    assertThat(waits).containsExactly(40L, 80L, 160L);
  }

  @Test
  void noBackoffNoWait() {
    failing(Tasks.retry().maxAttempts(4));
    failing(Tasks.retry().maxAttempts(4).backoff(Duration.ZERO, Duration.ofMillis(100)).jitter(1));
    failing(Tasks.retry().maxAttempts(4).backoff(Duration.ofMillis(10), Duration.ZERO));
    assertThat(waits).isEmpty();
  }

  @Test
  void waitCapSaturates() {
    Tasks.Retry r = Tasks.retry().backoff(Duration.ofMillis(Long.MAX_VALUE / 4), Duration.ofMillis(Long.MAX_VALUE));
    assertThat(r.waitCap(1)).isEqualTo(Long.MAX_VALUE / 4);
    assertThat(r.waitCap(3)).isEqualTo(Long.MAX_VALUE / 4 * 4);
    assertThat(r.waitCap(100)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void interruptWhileWaitingStopsTheLoop() {
    AtomicInteger calls = new AtomicInteger();
    try {
      assertThatThrownBy(() -> Tasks.retry().maxAttempts(5).retryOn(IllegalStateException.class)
          .backoff(Duration.ofMillis(10), Duration.ofMillis(10))
          .sleeper(millis -> {
            throw new InterruptedException("stop");
          })
          .onInterrupt(e -> new JavelinException("interrupted", e))
          .run(attempt -> {
            calls.incrementAndGet();
            throw new IllegalStateException("lost " + attempt);
          }))
          .isExactlyInstanceOf(JavelinException.class).hasMessage("interrupted")
          .hasCauseInstanceOf(InterruptedException.class)
          .satisfies(e -> assertThat(e.getSuppressed()).singleElement()
              .satisfies(s -> assertThat(s).hasMessage("lost 1")));
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
    assertThat(calls).hasValue(1);
  }

  @Test
  void interruptWithoutHandlerIsAJavelinException() throws Exception {
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    AtomicReference<Boolean> flag = new AtomicReference<>();
    Thread t = new Thread(() -> {
      try {
        Tasks.retry().maxAttempts(3).retryOn(IllegalStateException.class)
            .backoff(Duration.ofMinutes(10), Duration.ofMinutes(10))
            .run(attempt -> {
              throw new IllegalStateException("lost");
            });
      } catch (RuntimeException e) {
        thrown.set(e);
        flag.set(Thread.currentThread().isInterrupted());
      }
    });
    t.start();
    while (t.getState() != Thread.State.TIMED_WAITING) {
      Thread.sleep(1);
    }
    t.interrupt();
    t.join(10_000);
    assertThat(thrown.get()).isExactlyInstanceOf(JavelinException.class)
        .hasMessage("Interrupted while waiting to retry (after attempt 1 of 3)")
        .hasCauseInstanceOf(InterruptedException.class);
    assertThat(flag.get()).isTrue();
  }

  @Test
  void refusesBadSettings() {
    assertThatThrownBy(() -> Tasks.retry().maxAttempts(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxAttempts must be at least 1: 0");
    assertThatThrownBy(() -> Tasks.retry().jitter(1.5)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("jitter must be between 0 and 1: 1.5");
    assertThatThrownBy(() -> Tasks.retry().jitter(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Tasks.retry().backoff(Duration.ofMillis(-1), Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private void failing(Tasks.Retry retry) {
    assertThatThrownBy(() -> retry.retryOn(IllegalStateException.class).sleeper(recorder).run(attempt -> {
      throw new IllegalStateException("lost");
    })).isExactlyInstanceOf(IllegalStateException.class);
  }

  // A random source that always draws the largest (or the smallest) value it may.
  private static RandomGenerator fixed(boolean largest) {
    return new RandomGenerator() {
      @Override
      public long nextLong() {
        throw new AssertionError("unbounded draw");
      }

      @Override
      public long nextLong(long bound) {
        return largest ? bound - 1 : 0;
      }
    };
  }

  // ---- foreach

  @Test
  void runsEveryItemInTheCallingThreadInOrder() {
    List<Integer> ran = new ArrayList<>();
    List<String> reverted = new ArrayList<>();
    Thread caller = Thread.currentThread();
    List<String> out = Tasks.foreach(List.of(1, 2, 3)).run(i -> {
      assertThat(Thread.currentThread()).isSameAs(caller);
      ran.add(i);
      return "r" + i;
    }, reverted::add);
    assertThat(out).containsExactly("r1", "r2", "r3");
    assertThat(ran).containsExactly(1, 2, 3);
    assertThat(reverted).isEmpty();
  }

  @Test
  void aFailureInTheCallingThreadRevertsTheItemsBeforeIt() {
    List<Integer> ran = new ArrayList<>();
    List<Integer> reverted = new ArrayList<>();
    RuntimeException boom = new IllegalStateException("item 2 failed");
    assertThatThrownBy(() -> Tasks.foreach(List.of(0, 1, 2, 3, 4)).run(i -> {
      ran.add(i);
      if (i == 2) {
        throw boom;
      }
      return i * 10;
    }, reverted::add)).isSameAs(boom);
    assertThat(ran).containsExactly(0, 1, 2);
    assertThat(reverted).containsExactly(0, 10);
  }

  @Test
  void parallelResultsComeBackInItemOrder() throws Exception {
    pool = Executors.newFixedThreadPool(3);
    List<Integer> items = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      items.add(i);
    }
    Set<String> threads = ConcurrentHashMap.newKeySet();
    List<Integer> out = Tasks.foreach(items).executeWith(pool).run(i -> {
      threads.add(Thread.currentThread().getName());
      Thread.sleep((i * 7) % 5);
      return i * i;
    }, r -> {
      throw new AssertionError("nothing to revert");
    });
    for (int i = 0; i < 30; i++) {
      assertThat(out.get(i)).isEqualTo(i * i);
    }
    assertThat(threads).doesNotContain(Thread.currentThread().getName());
  }

  @Test
  void aParallelFailureSkipsItemsNotStartedAndRevertsOnlyCompletedOnes() {
    pool = Executors.newSingleThreadExecutor();
    Set<Integer> started = ConcurrentHashMap.newKeySet();
    Set<Integer> completed = ConcurrentHashMap.newKeySet();
    Set<Integer> reverted = ConcurrentHashMap.newKeySet();
    assertThatThrownBy(() -> Tasks.foreach(List.of(0, 1, 2, 3, 4)).executeWith(pool).run(i -> {
      started.add(i);
      if (i == 1) {
        throw new IllegalStateException("item 1 failed");
      }
      completed.add(i);
      return i;
    }, reverted::add)).isExactlyInstanceOf(IllegalStateException.class).hasMessage("item 1 failed");
    assertThat(started).containsExactlyInAnyOrder(0, 1);
    assertThat(completed).containsExactly(0);
    assertThat(reverted).containsExactly(0);
  }

  @Test
  void anItemStillRunningAtTheFailureIsWaitedForAndReverted() {
    pool = Executors.newFixedThreadPool(2);
    CountDownLatch go = new CountDownLatch(1);
    CountDownLatch zeroStarted = new CountDownLatch(1);
    Set<Integer> started = ConcurrentHashMap.newKeySet();
    Set<Integer> completed = ConcurrentHashMap.newKeySet();
    List<Integer> reverted = Collections.synchronizedList(new ArrayList<>());
    assertThatThrownBy(() -> Tasks.foreach(List.of(0, 1, 2, 3, 4, 5)).executeWith(pool).run(i -> {
      started.add(i);
      if (i == 0) {
        zeroStarted.countDown();
        assertThat(go.await(10, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(200); // completes well after item 1 failed
        completed.add(i);
        return "file-0";
      }
      if (i == 1) {
        // Fails only once item 0 is running: otherwise item 0 might never start, rightly.
        assertThat(zeroStarted.await(10, TimeUnit.SECONDS)).isTrue();
        go.countDown();
        throw new UncheckedIOException(new IOException("item 1 failed"));
      }
      completed.add(i);
      return "file-" + i;
    }, r -> reverted.add(Integer.parseInt(r.substring(5))))).isExactlyInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("item 1 failed");
    assertThat(started).containsExactlyInAnyOrder(0, 1);
    assertThat(completed).containsExactly(0);
    assertThat(reverted).containsExactly(0);
  }

  @Test
  void theFirstFailureIsThrownWithTheOthersSuppressed() {
    pool = Executors.newFixedThreadPool(2);
    CyclicBarrier both = new CyclicBarrier(2);
    CountDownLatch firstThrown = new CountDownLatch(1);
    assertThatThrownBy(() -> Tasks.foreach(List.of(0, 1)).executeWith(pool).run(i -> {
      both.await(10, TimeUnit.SECONDS); // both started before either fails
      if (i == 1) {
        assertThat(firstThrown.await(10, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(100);
      } else {
        firstThrown.countDown();
      }
      throw new IllegalStateException("item " + i + " failed");
    })).hasMessage("item 0 failed")
        .satisfies(e -> assertThat(e.getSuppressed()).singleElement()
            .satisfies(s -> assertThat(s).hasMessage("item 1 failed")));
  }

  @Test
  void aFailingRevertIsSuppressedAndTheOthersStillRun() {
    List<Integer> reverted = new ArrayList<>();
    assertThatThrownBy(() -> Tasks.foreach(List.of(0, 1, 2, 3)).run(i -> {
      if (i == 3) {
        throw new IOException("item 3 failed");
      }
      return i;
    }, r -> {
      reverted.add(r);
      if (r == 1) {
        throw new IOException("cannot revert 1");
      }
    })).isExactlyInstanceOf(IOException.class).hasMessage("item 3 failed")
        .satisfies(e -> assertThat(e.getSuppressed()).singleElement()
            .satisfies(s -> assertThat(s).hasMessage("cannot revert 1")));
    assertThat(reverted).containsExactly(0, 1, 2);
  }

  @Test
  void checkedItemFailuresComeOutAsDeclared() {
    pool = Executors.newFixedThreadPool(2);
    try {
      Tasks.foreach(List.of(0, 1)).executeWith(pool).<Integer, IOException>run(i -> {
        if (i == 1) {
          throw new IOException("item 1 failed");
        }
        return i;
      });
      throw new AssertionError("no failure");
    } catch (IOException e) {
      assertThat(e).hasMessage("item 1 failed");
    }
  }

  @Test
  void errorsOfItemsAreThrownAsTheyAre() {
    pool = Executors.newFixedThreadPool(2);
    List<Object> reverted = Collections.synchronizedList(new ArrayList<>());
    assertThatThrownBy(() -> Tasks.foreach(List.of(0)).executeWith(pool).run(i -> {
      throw new AssertionError("broken");
    }, reverted::add)).isExactlyInstanceOf(AssertionError.class).hasMessage("broken");
    assertThat(reverted).isEmpty();
  }

  @Test
  void aRejectingExecutorFailsTheRun() {
    pool = Executors.newFixedThreadPool(1);
    pool.shutdown();
    AtomicInteger ran = new AtomicInteger();
    assertThatThrownBy(() -> Tasks.foreach(List.of(0, 1)).executeWith(pool).run(i -> ran.incrementAndGet()))
        .isInstanceOf(RejectedExecutionException.class);
    assertThat(ran).hasValue(0);
  }

  @Test
  void anInterruptedCallerWaitsForRunningItemsRevertsThemAndKeepsTheFlag() throws Exception {
    pool = Executors.newFixedThreadPool(2);
    CountDownLatch running = new CountDownLatch(2);
    CountDownLatch finish = new CountDownLatch(1);
    Set<Integer> completed = ConcurrentHashMap.newKeySet();
    Set<Integer> reverted = ConcurrentHashMap.newKeySet();
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    AtomicReference<Boolean> flag = new AtomicReference<>();
    AtomicReference<Set<Integer>> completedAtThrow = new AtomicReference<>();
    Thread caller = new Thread(() -> {
      try {
        Tasks.foreach(List.of(0, 1, 2, 3)).executeWith(pool)
            .onInterrupt(e -> new JavelinException("interrupted", e))
            .run(i -> {
              running.countDown();
              assertThat(finish.await(10, TimeUnit.SECONDS)).isTrue();
              completed.add(i);
              return i;
            }, reverted::add);
      } catch (RuntimeException | InterruptedException e) {
        thrown.set(e);
        completedAtThrow.set(Set.copyOf(completed));
        flag.set(Thread.currentThread().isInterrupted());
      }
    });
    caller.start();
    assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
    caller.interrupt();
    Thread.sleep(100);
    finish.countDown();
    caller.join(10_000);
    assertThat(thrown.get()).isExactlyInstanceOf(JavelinException.class).hasMessage("interrupted")
        .hasCauseInstanceOf(InterruptedException.class);
    assertThat(flag.get()).isTrue();
    assertThat(completedAtThrow.get()).contains(0, 1);
    assertThat(reverted).isEqualTo(completedAtThrow.get());
  }

  @Test
  void anInterruptWithoutHandlerIsAJavelinException() throws Exception {
    pool = Executors.newFixedThreadPool(1);
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread caller = new Thread(() -> {
      try {
        Tasks.foreach(List.of(0, 1)).executeWith(pool).run(i -> {
          running.countDown();
          return finish.await(10, TimeUnit.SECONDS);
        });
      } catch (RuntimeException | InterruptedException e) {
        thrown.set(e);
      }
    });
    caller.start();
    assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
    caller.interrupt();
    Thread.sleep(50);
    finish.countDown();
    caller.join(10_000);
    assertThat(thrown.get()).isExactlyInstanceOf(JavelinException.class)
        .hasMessage("Interrupted while waiting for 2 tasks").hasCauseInstanceOf(InterruptedException.class);
  }

  @Test
  @Timeout(30)
  void callerRunsFinishesARunNestedInTheSamePoolWhenEveryThreadIsBusy() throws Exception {
    pool = Executors.newFixedThreadPool(1);
    // The pool's one thread runs an outer item that itself runs items on the pool: without the
    // caller taking them, the inner run would wait forever for a thread.
    List<List<Integer>> out = Tasks.foreach(List.of(0)).executeWith(pool).run(outer ->
        Tasks.foreach(List.of(1, 2, 3)).executeWith(pool).callerRuns().run(i -> i * 10));
    assertThat(out).containsExactly(List.of(10, 20, 30));
  }

  @Test
  void callerRunsRunsEachItemOnceAndKeepsTheItemsOrder() throws Exception {
    pool = Executors.newFixedThreadPool(2);
    ConcurrentHashMap<Integer, Integer> runs = new ConcurrentHashMap<>();
    List<Integer> items = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      items.add(i);
    }
    List<Integer> got = Tasks.foreach(items).executeWith(pool).callerRuns().run(i -> {
      runs.merge(i, 1, Integer::sum);
      return i + 1;
    });
    assertThat(got).hasSize(200).startsWith(1, 2, 3).endsWith(200);
    assertThat(runs).hasSize(200).allSatisfy((k, v) -> assertThat(v).isEqualTo(1));
  }
  @Test
  void joinRethrowsWhatTheTaskThrewAndWrapsTheRest() throws Exception {
    assertThat(Tasks.join(CompletableFuture.completedFuture(7), "adding")).isEqualTo(7);
    IOException io = new FileNotFoundException("gone");
    assertThatThrownBy(() -> Tasks.join(CompletableFuture.failedFuture(io), "reading")).isSameAs(io);
    IllegalStateException unchecked = new IllegalStateException("bad");
    assertThatThrownBy(() -> Tasks.join(CompletableFuture.failedFuture(unchecked), "reading")).isSameAs(unchecked);
    Exception checked = new Exception("odd");
    assertThatThrownBy(() -> Tasks.join(CompletableFuture.failedFuture(checked), "reading"))
        .isInstanceOf(IOException.class).hasMessage("Failed while reading").hasCause(checked);
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> Tasks.join(new CompletableFuture<>(), "waiting for godot"))
          .isInstanceOf(InterruptedIOException.class).hasMessage("Interrupted while waiting for godot");
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void awaitQuietlyWaitsOutAnInterruptAndKeepsIt() throws Exception {
    CompletableFuture<Integer> task = new CompletableFuture<>();
    Thread waiter = new Thread(() -> {
      Tasks.awaitQuietly(task);
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    });
    AtomicReference<Throwable> failure = new AtomicReference<>();
    waiter.setUncaughtExceptionHandler((t, e) -> failure.set(e));
    waiter.start();
    waiter.interrupt();
    Thread.sleep(50);
    assertThat(waiter.isAlive()).isTrue();
    task.completeExceptionally(new IOException("ignored"));
    waiter.join(5_000);
    assertThat(waiter.isAlive()).isFalse();
    assertThat(failure.get()).isNull();
  }
}
