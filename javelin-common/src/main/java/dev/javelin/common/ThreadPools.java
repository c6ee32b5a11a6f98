package dev.javelin.common;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The two thread pools Javelin's background work runs on, so that a process (or a session) has
 * one thread budget instead of a pool per feature: a CPU pool (encoding, decoding, searching; as
 * many threads as processors by default) and an I/O pool (work that mostly waits on storage; a
 * fixed, larger number by default). Threads are daemons named {@code javelin-cpu-N} and
 * {@code javelin-io-N}, started when work arrives and ended after a minute idle, so an unused
 * pool holds no thread.
 *
 * <p>Sizes come from the builder, else from the system properties {@value #CPU_THREADS_PROPERTY}
 * and {@value #IO_THREADS_PROPERTY}, else from the defaults. A task on one of these pools must not
 * wait for another task of the same pool (a full pool would wait forever); Javelin's own tasks
 * never do. {@link #close()} shuts both pools down and waits for the tasks already given to them.
 */
public final class ThreadPools implements AutoCloseable {
  /** System property: threads of the CPU pool (default: the available processors). */
  public static final String CPU_THREADS_PROPERTY = "javelin.cpu.threads";
  /** System property: threads of the I/O pool (default {@value #DEFAULT_IO_THREADS}). */
  public static final String IO_THREADS_PROPERTY = "javelin.io.threads";
  /** Threads of the I/O pool unless configured. */
  public static final int DEFAULT_IO_THREADS = 16;

  private static final class Shared {
    static final ThreadPools INSTANCE = builder().shared().build();
  }

  private final ThreadPoolExecutor cpu;
  private final ThreadPoolExecutor io;
  private final int cpuThreads;
  private final int ioThreads;
  private final boolean shared;

  private ThreadPools(int cpuThreads, int ioThreads, boolean shared) {
    this.cpuThreads = cpuThreads;
    this.ioThreads = ioThreads;
    this.shared = shared;
    this.cpu = pool(cpuThreads, "javelin-cpu-");
    this.io = pool(ioThreads, "javelin-io-");
  }

  private static ThreadPoolExecutor pool(int threads, String prefix) {
    ThreadPoolExecutor p = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
        daemonThreads(prefix));
    p.allowCoreThreadTimeOut(true);
    return p;
  }

  /**
   * Daemon threads named {@code prefix1}, {@code prefix2}, ...: for pools of Javelin's own (a
   * store's upload threads), so that a pool nobody shut down does not keep the JVM alive.
   */
  public static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + count.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /** The pools every user that is given no other shares, created on first use (sized by the system properties). */
  public static ThreadPools shared() {
    return Shared.INSTANCE;
  }

  /** Starts configuring pools of their own (close them when done). */
  public static Builder builder() {
    return new Builder();
  }

  /** The CPU pool, of {@link #cpuThreads()} threads. */
  public ExecutorService cpu() {
    return cpu;
  }

  /** The I/O pool, of {@link #ioThreads()} threads. */
  public ExecutorService io() {
    return io;
  }

  public int cpuThreads() {
    return cpuThreads;
  }

  public int ioThreads() {
    return ioThreads;
  }

  /** Whether both pools are shut down (tasks given to them afterwards are rejected). */
  public boolean isShutdown() {
    return cpu.isShutdown() && io.isShutdown();
  }

  /**
   * Shuts both pools down and waits for the tasks already given to them to end. If interrupted
   * while waiting, interrupts the tasks and returns with the interrupt flag set.
   *
   * @throws UnsupportedOperationException for the {@link #shared()} pools, which live as long as
   *     the process
   */
  @Override
  public void close() {
    if (shared) {
      throw new UnsupportedOperationException("The shared thread pools cannot be closed");
    }
    cpu.shutdown();
    io.shutdown();
    try {
      while (!cpu.awaitTermination(1, TimeUnit.MINUTES) || !io.awaitTermination(1, TimeUnit.MINUTES)) {
        // keep waiting: the tasks may hold resources their owner is about to free
      }
    } catch (InterruptedException e) {
      cpu.shutdownNow();
      io.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "ThreadPools[cpu=" + cpuThreads + ", io=" + ioThreads + "]";
  }

  /** Sizes of new pools; unset sizes come from the system properties, then the defaults. */
  public static final class Builder {
    private Integer cpuThreads;
    private Integer ioThreads;
    private boolean shared;

    private Builder() {}

    /** Threads of the CPU pool (at least 1). */
    public Builder cpuThreads(int threads) {
      this.cpuThreads = checked(threads, "cpuThreads");
      return this;
    }

    /** Threads of the I/O pool (at least 1). */
    public Builder ioThreads(int threads) {
      this.ioThreads = checked(threads, "ioThreads");
      return this;
    }

    private Builder shared() {
      this.shared = true;
      return this;
    }

    /**
     * @throws IllegalArgumentException if a size is unset and its system property is not a
     *     positive integer
     */
    public ThreadPools build() {
      int cpu = cpuThreads != null ? cpuThreads
          : fromProperty(CPU_THREADS_PROPERTY, Runtime.getRuntime().availableProcessors());
      int io = ioThreads != null ? ioThreads : fromProperty(IO_THREADS_PROPERTY, DEFAULT_IO_THREADS);
      return new ThreadPools(cpu, io, shared);
    }

    private static int checked(int threads, String what) {
      if (threads < 1) {
        throw new IllegalArgumentException(what + " must be at least 1, got " + threads);
      }
      return threads;
    }

    private static int fromProperty(String property, int fallback) {
      String value = System.getProperty(property);
      if (value == null || value.isBlank()) {
        return fallback;
      }
      try {
        int n = Integer.parseInt(value.trim());
        if (n >= 1) {
          return n;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new IllegalArgumentException("System property " + property + " must be a positive integer, got '"
          + value + "'");
    }
  }
}
