package dev.javelin.common;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;

/**
 * The two loops every write path needs, written once (as Iceberg's {@code Tasks} and Lance's
 * {@code execute_with_retry} are): {@link #retry()} runs an optimistic-concurrency attempt again
 * after a failure it is told to retry, with exponential backoff and jitter; {@link #foreach} runs
 * a list of items, in parallel on an executor or one after the other, and reverts the items that
 * completed when one fails, so a failed operation leaves nothing behind.
 */
public final class Tasks {
  private Tasks() {}

  /**
   * Waits for a task and returns its result. Its failure is rethrown as it was thrown (an
   * {@link IOException}, an unchecked exception or an {@link Error}; anything else inside an
   * IOException); an interrupted wait is an {@link InterruptedIOException} saying "Interrupted
   * while {@code what}", with the thread's interrupt flag set again.
   */
  public static <T> T join(Future<T> task, String what) throws IOException {
    try {
      return task.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted while " + what);
    } catch (ExecutionException e) {
      throw rethrow(e.getCause(), what);
    }
  }

  /**
   * Throws {@code failure} as it is when it is an {@link IOException}, an unchecked exception or an
   * {@link Error}, and anything else inside an IOException saying "Failed while {@code what}".
   * Declared to return the exception so that callers can write {@code throw rethrow(...)}.
   */
  public static IOException rethrow(Throwable failure, String what) throws IOException {
    if (failure instanceof IOException io) {
      throw io;
    }
    if (failure instanceof RuntimeException re) {
      throw re;
    }
    if (failure instanceof Error err) {
      throw err;
    }
    throw new IOException("Failed while " + what, failure);
  }

  /**
   * Waits for a task to end, however it ends (for a caller failing already, or whose failures are
   * reported elsewhere); an interrupt is kept for after the wait.
   */
  public static void awaitQuietly(Future<?> task) {
    boolean interrupted = false;
    while (true) {
      try {
        task.get();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      } catch (ExecutionException | CancellationException e) {
        break;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** A new retry loop: one attempt, no backoff, nothing retried, until configured otherwise. */
  public static Retry retry() {
    return new Retry();
  }

  /** A run over {@code items} (in the calling thread until {@link Each#executeWith} says otherwise). */
  public static <T> Each<T> foreach(List<T> items) {
    return new Each<>(items);
  }

  /** One attempt of a retried operation; {@code attempt} counts from 1. */
  @FunctionalInterface
  public interface Attempt<R, E extends Exception> {
    R run(int attempt) throws E;
  }

  /** What to throw when every attempt failed with a retryable failure, the last being {@code last}. */
  @FunctionalInterface
  public interface GiveUp {
    RuntimeException exhausted(int attempts, Exception last);
  }

  /** Waits between attempts; tests inject one that records the waits instead of sleeping. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(long millis) throws InterruptedException;
  }

  /** The work done for one item. */
  @FunctionalInterface
  public interface Work<T, R, E extends Exception> {
    R apply(T item) throws E;
  }

  /** Undoes the work of one item that completed (deletes the files it wrote, say). */
  @FunctionalInterface
  public interface Revert<R> {
    void revert(R result) throws Exception;
  }

  /**
   * A retry loop. An attempt that throws a failure {@link #retryOn} and {@link #retryIf} accept is
   * run again, after a wait, until {@link #maxAttempts} attempts have been made; then the
   * {@link #onGiveUp} handler's exception is thrown (by default the last failure itself). Any other
   * failure, and every {@link Error}, is thrown at once.
   *
   * <p>The wait before retry {@code n} (the first retry is 1) is {@code d = min(maxWait, minWait *
   * 2^(n-1))}, less a random part of up to {@code jitter * d}: with jitter 1 it is uniform in
   * {@code [0, d]} ("full jitter", which keeps racing writers from retrying in step), with 0 it is
   * exactly {@code d}. Without {@link #backoff} there is no wait. An interrupt while waiting
   * restores the thread's interrupt flag and throws the {@link #onInterrupt} handler's exception.
   */
  public static final class Retry {
    private int maxAttempts = 1;
    private long minWaitMillis;
    private long maxWaitMillis;
    private double jitter;
    private List<Class<? extends Exception>> retryOn = List.of();
    private Predicate<? super Exception> retryIf = e -> true;
    private GiveUp giveUp;
    private Function<InterruptedException, RuntimeException> onInterrupt;
    private Sleeper sleeper = Thread::sleep;
    private RandomGenerator random;

    private Retry() {}

    /** How many attempts at most, the first included (default 1: no retry). */
    public Retry maxAttempts(int attempts) {
      if (attempts < 1) {
        throw new IllegalArgumentException("maxAttempts must be at least 1: " + attempts);
      }
      this.maxAttempts = attempts;
      return this;
    }

    /**
     * Exponential backoff: the first retry waits up to {@code minWait}, each next one twice as
     * long, at most {@code maxWait}.
     */
    public Retry backoff(Duration minWait, Duration maxWait) {
      long min = minWait.toMillis();
      long max = maxWait.toMillis();
      if (min < 0 || max < 0) {
        throw new IllegalArgumentException("Backoff waits must not be negative: " + minWait + ", " + maxWait);
      }
      this.minWaitMillis = min;
      this.maxWaitMillis = max;
      return this;
    }

    /** The part of each wait that is random, from 0 (none) to 1 (the whole wait; default 0). */
    public Retry jitter(double fraction) {
      if (!(fraction >= 0 && fraction <= 1)) {
        throw new IllegalArgumentException("jitter must be between 0 and 1: " + fraction);
      }
      this.jitter = fraction;
      return this;
    }

    /** Retries failures of these types (and their subtypes). Without it, nothing is retried. */
    @SafeVarargs
    public final Retry retryOn(Class<? extends Exception>... types) {
      this.retryOn = List.copyOf(Arrays.asList(types));
      return this;
    }

    /** Of the failures {@link #retryOn} names, retries only those {@code test} accepts (default all). */
    public Retry retryIf(Predicate<? super Exception> test) {
      this.retryIf = Objects.requireNonNull(test);
      return this;
    }

    /** What to throw once the attempts are used up (default: the last failure, as it was thrown). */
    public Retry onGiveUp(GiveUp handler) {
      this.giveUp = Objects.requireNonNull(handler);
      return this;
    }

    /** What to throw when interrupted while waiting to retry (default: a {@link JavelinException}). */
    public Retry onInterrupt(Function<InterruptedException, RuntimeException> handler) {
      this.onInterrupt = Objects.requireNonNull(handler);
      return this;
    }

    /** How to wait (default {@link Thread#sleep(long)}). */
    public Retry sleeper(Sleeper s) {
      this.sleeper = Objects.requireNonNull(s);
      return this;
    }

    /** Where the jitter comes from (default the calling thread's {@link ThreadLocalRandom}). */
    public Retry random(RandomGenerator r) {
      this.random = Objects.requireNonNull(r);
      return this;
    }

    /**
     * Runs {@code attempt} until it returns or fails for good.
     *
     * @return what the successful attempt returned
     * @throws E the failure of the last attempt (unless {@link #onGiveUp} maps it)
     */
    public <R, E extends Exception> R run(Attempt<R, E> attempt) throws E {
      for (int n = 1; ; n++) {
        try {
          return attempt.run(n);
        } catch (Exception e) {
          boolean last = n >= maxAttempts;
          // Without a give-up handler, the last failure is thrown as it is: no need to judge it.
          if ((last && giveUp == null) || !retryable(e)) {
            throw Tasks.<E>sneaky(e);
          }
          if (last) {
            throw giveUp.exhausted(n, e);
          }
          waitBeforeRetry(n, e);
        }
      }
    }

    private boolean retryable(Exception e) {
      for (Class<? extends Exception> t : retryOn) {
        if (t.isInstance(e)) {
          return retryIf.test(e);
        }
      }
      return false;
    }

    // Waits before retry `retry` (1 for the first); `last` rides along on an interrupt.
    private void waitBeforeRetry(int retry, Exception last) {
      long cap = waitCap(retry);
      if (cap <= 0) {
        return;
      }
      long span = (long) (cap * jitter);
      RandomGenerator r = random != null ? random : ThreadLocalRandom.current();
      long wait = cap - span + (span == 0 ? 0 : r.nextLong(span + 1));
      try {
        sleeper.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        RuntimeException out = onInterrupt != null ? onInterrupt.apply(e)
            : new JavelinException("Interrupted while waiting to retry (after attempt " + retry + " of "
                + maxAttempts + ")", e);
        out.addSuppressed(last);
        throw out;
      }
    }

    /** The longest wait before retry {@code retry} (1 for the first): minWait·2^(retry-1), at most maxWait. */
    long waitCap(int retry) {
      long d = minWaitMillis;
      for (int i = 1; i < retry && d < maxWaitMillis; i++) {
        d = d > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : d * 2;
      }
      return Math.min(d, maxWaitMillis);
    }
  }

  /**
   * A run over a list of items. Each item's {@link Work} runs once, on the {@link #executeWith
   * executor} or (without one) in the calling thread in order; the results come back in the
   * items' order. If one item fails, no item that has not started yet starts (the others are
   * cancelled), the running ones are waited for, the {@link Revert} runs for every item
   * that completed, and the first failure is thrown with the later ones suppressed. Running items
   * are not interrupted: an interrupt closes every {@code FileChannel} the thread is blocked on,
   * which may be one other readers share, and a task that ends cleanly is simply reverted.
   *
   * <p>An interrupt of the calling thread while it waits is handled the same way (no new item
   * starts, the running ones end, the completed ones are reverted); then the interrupt flag is
   * restored and the {@link #onInterrupt} handler's exception is thrown.
   */
  public static final class Each<T> {
    private final List<T> items;
    private ExecutorService pool;
    private boolean callerRuns;
    private Function<InterruptedException, RuntimeException> onInterrupt;

    private Each(List<T> items) {
      this.items = new ArrayList<>(items);
    }

    /** Runs the items on {@code executor} (not shut down here; the caller owns it). */
    public Each<T> executeWith(ExecutorService executor) {
      this.pool = Objects.requireNonNull(executor);
      return this;
    }

    /**
     * The calling thread also runs items, those no pool thread has started by the time it gets to
     * them: a run nested in a task of the same pool (a take inside an I/O task) then completes even
     * when every pool thread is busy waiting, and a busy pool costs no idle wait.
     */
    public Each<T> callerRuns() {
      this.callerRuns = true;
      return this;
    }

    /** What to throw when the calling thread is interrupted while it waits (default: a {@link JavelinException}). */
    public Each<T> onInterrupt(Function<InterruptedException, RuntimeException> handler) {
      this.onInterrupt = Objects.requireNonNull(handler);
      return this;
    }

    /** Runs {@code work} for every item, with nothing to revert (see {@link #run(Work, Revert)}). */
    public <R, E extends Exception> List<R> run(Work<T, R, E> work) throws E {
      return run(work, r -> { });
    }

    /**
     * Runs {@code work} for every item; if the run fails, {@code revert} undoes the work of each
     * item that completed (a revert that fails is suppressed, and the others still run).
     *
     * @return each item's result, in the items' order
     * @throws E the first failure (an unchecked one as thrown), the later ones suppressed
     */
    public <R, E extends Exception> List<R> run(Work<T, R, E> work, Revert<? super R> revert) throws E {
      int n = items.size();
      Object[] results = new Object[n];
      boolean[] completed = new boolean[n];
      Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
      InterruptedException interrupted = null;
      if (pool == null) {
        for (int i = 0; i < n; i++) {
          try {
            results[i] = work.apply(items.get(i));
            completed[i] = true;
          } catch (Exception | Error e) {
            failures.add(e);
            break;
          }
        }
      } else {
        interrupted = runParallel(work, results, completed, failures);
      }
      if (failures.isEmpty() && interrupted == null) {
        List<R> out = new ArrayList<>(n);
        for (Object r : results) {
          @SuppressWarnings("unchecked")
          R result = (R) r;
          out.add(result);
        }
        return out;
      }
      Throwable first;
      if (interrupted != null) {
        first = onInterrupt != null ? onInterrupt.apply(interrupted)
            : new JavelinException("Interrupted while waiting for " + n + " tasks", interrupted);
      } else {
        first = failures.poll();
      }
      for (Throwable other : failures) {
        first.addSuppressed(other);
      }
      for (int i = 0; i < n; i++) {
        if (completed[i]) {
          @SuppressWarnings("unchecked")
          R result = (R) results[i];
          try {
            revert.revert(result);
          } catch (Exception | Error e) {
            first.addSuppressed(e);
          }
        }
      }
      throw Tasks.<E>sneaky(first);
    }

    // Returns the interrupt of the calling thread, if there was one (its flag is then set again).
    private <R, E extends Exception> InterruptedException runParallel(Work<T, R, E> work, Object[] results,
        boolean[] completed, Queue<Throwable> failures) {
      int n = items.size();
      AtomicBoolean stop = new AtomicBoolean();
      CountDownLatch ended = new CountDownLatch(n);
      // Each item runs once, by whoever claims it: a pool thread, or (callerRuns) the caller.
      AtomicIntegerArray claimed = new AtomicIntegerArray(n);
      IntConsumer runItem = index -> {
        try {
          if (stop.get()) {
            return; // cancelled: an item failed before this one started
          }
          results[index] = work.apply(items.get(index));
          completed[index] = true;
        } catch (Exception | Error e) {
          failures.add(e);
          stop.set(true);
        } finally {
          ended.countDown();
        }
      };
      for (int i = 0; i < n; i++) {
        int index = i;
        try {
          pool.execute(() -> {
            if (claimed.compareAndSet(index, 0, 1)) {
              runItem.accept(index);
            }
          });
        } catch (RejectedExecutionException e) {
          if (!callerRuns) {
            failures.add(e);
            stop.set(true);
            for (int j = i; j < n; j++) {
              if (claimed.compareAndSet(j, 0, 1)) {
                ended.countDown(); // never submitted
              }
            }
          }
          break; // with callerRuns, the caller runs what was not submitted
        }
      }
      if (callerRuns) {
        for (int i = 0; i < n; i++) {
          if (claimed.compareAndSet(i, 0, 1)) {
            runItem.accept(i);
          }
        }
      }
      InterruptedException interrupt = null;
      while (true) {
        try {
          ended.await(); // every write to results and completed happens before this returns
          break;
        } catch (InterruptedException e) {
          stop.set(true);
          if (interrupt == null) {
            interrupt = e;
          }
        }
      }
      if (interrupt != null) {
        Thread.currentThread().interrupt();
      }
      return interrupt;
    }
  }

  // Throws a failure that is unchecked or of the caller's declared type E as it is.
  @SuppressWarnings("unchecked")
  private static <E extends Exception> E sneaky(Throwable t) throws E {
    if (t instanceof Error err) {
      throw err;
    }
    throw (E) t;
  }
}
