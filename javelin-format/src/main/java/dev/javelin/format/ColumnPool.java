package dev.javelin.format;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * Runs one task per field on up to {@code threads} threads, the calling thread included, and
 * waits for all of them. A writer owns one and closes it when the file is done.
 */
final class ColumnPool implements AutoCloseable {
  /** A task for field {@code i}. */
  interface Task {
    void run(int i) throws IOException;
  }

  private final int threads;
  private ExecutorService executor;

  ColumnPool(int threads) {
    this.threads = threads;
  }

  /**
   * Runs {@code task} for every field, costliest first (by {@code cost}) so that the big ones do
   * not start last; rethrows the first failure once every started task has stopped.
   */
  void run(long[] cost, Task task) throws IOException {
    Integer[] order = IntStream.range(0, cost.length).boxed().toArray(Integer[]::new);
    Arrays.sort(order, Comparator.comparingLong((Integer i) -> cost[i]).reversed());
    AtomicInteger next = new AtomicInteger();
    Runnable worker = () -> {
      int k;
      while ((k = next.getAndIncrement()) < order.length) {
        try {
          task.run(order[k]);
        } catch (IOException e) {
          next.set(order.length);
          throw new UncheckedIOException(e);
        } catch (RuntimeException | Error e) {
          next.set(order.length);
          throw e;
        }
      }
    };
    int helpers = Math.min(threads, cost.length) - 1;
    List<Future<?>> futures = new ArrayList<>();
    if (helpers > 0) {
      if (executor == null) {
        executor = Executors.newFixedThreadPool(threads - 1, r -> {
          Thread t = new Thread(r, "javelin-encode");
          t.setDaemon(true);
          return t;
        });
      }
      for (int h = 0; h < helpers; h++) {
        futures.add(executor.submit(worker));
      }
    }
    Throwable failure = null;
    try {
      worker.run();
    } catch (RuntimeException | Error e) {
      failure = e;
    }
    for (Future<?> f : futures) {
      try {
        f.get();
      } catch (ExecutionException e) {
        if (failure == null) {
          failure = e.getCause();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        if (failure == null) {
          failure = new IOException("Interrupted while encoding columns", e);
        }
      }
    }
    if (failure == null) {
      return;
    }
    if (failure instanceof UncheckedIOException) {
      throw ((UncheckedIOException) failure).getCause();
    }
    if (failure instanceof IOException) {
      throw (IOException) failure;
    }
    if (failure instanceof RuntimeException) {
      throw (RuntimeException) failure;
    }
    throw (Error) failure;
  }

  @Override
  public void close() {
    if (executor != null) {
      executor.shutdownNow();
      executor = null;
    }
  }
}
