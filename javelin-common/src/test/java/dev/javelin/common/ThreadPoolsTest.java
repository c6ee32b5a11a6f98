package dev.javelin.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ThreadPoolsTest {
  @AfterEach
  void clearProperties() {
    System.clearProperty(ThreadPools.CPU_THREADS_PROPERTY);
    System.clearProperty(ThreadPools.IO_THREADS_PROPERTY);
  }

  @Test
  void sizesComeFromTheBuilderThenThePropertiesThenTheDefaults() {
    try (ThreadPools p = ThreadPools.builder().build()) {
      assertThat(p.cpuThreads()).isEqualTo(Runtime.getRuntime().availableProcessors());
      assertThat(p.ioThreads()).isEqualTo(ThreadPools.DEFAULT_IO_THREADS);
    }
    System.setProperty(ThreadPools.CPU_THREADS_PROPERTY, "3");
    System.setProperty(ThreadPools.IO_THREADS_PROPERTY, " 40 ");
    try (ThreadPools p = ThreadPools.builder().build()) {
      assertThat(p.cpuThreads()).isEqualTo(3);
      assertThat(p.ioThreads()).isEqualTo(40);
    }
    try (ThreadPools p = ThreadPools.builder().cpuThreads(2).ioThreads(5).build()) {
      assertThat(p.cpuThreads()).isEqualTo(2);
      assertThat(p.ioThreads()).isEqualTo(5);
      assertThat(p).hasToString("ThreadPools[cpu=2, io=5]");
    }
  }

  @Test
  void badSizesAreRefused() {
    assertThatThrownBy(() -> ThreadPools.builder().cpuThreads(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("cpuThreads must be at least 1, got 0");
    assertThatThrownBy(() -> ThreadPools.builder().ioThreads(-2))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("ioThreads must be at least 1, got -2");
    System.setProperty(ThreadPools.IO_THREADS_PROPERTY, "many");
    assertThatThrownBy(() -> ThreadPools.builder().build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("System property javelin.io.threads must be a positive integer, got 'many'");
    System.setProperty(ThreadPools.IO_THREADS_PROPERTY, "0");
    assertThatThrownBy(() -> ThreadPools.builder().build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("System property javelin.io.threads must be a positive integer, got '0'");
    // A size given in code wins over a bad property.
    try (ThreadPools p = ThreadPools.builder().ioThreads(1).build()) {
      assertThat(p.ioThreads()).isEqualTo(1);
    }
  }

  @Test
  void tasksRunOnNamedDaemonThreadsUpToThePoolSize() throws Exception {
    try (ThreadPools p = ThreadPools.builder().cpuThreads(2).ioThreads(3).build()) {
      assertThat(p.cpu().submit(() -> Thread.currentThread().getName()).get()).startsWith("javelin-cpu-");
      assertThat(p.io().submit(() -> Thread.currentThread().getName()).get()).startsWith("javelin-io-");
      assertThat(p.cpu().submit(() -> Thread.currentThread().isDaemon()).get()).isTrue();
      // Three tasks that each wait for the others: only the I/O pool runs three at once.
      CountDownLatch all = new CountDownLatch(3);
      List<Future<Boolean>> waits = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        waits.add(p.io().submit(() -> {
          all.countDown();
          return all.await(10, TimeUnit.SECONDS);
        }));
      }
      for (Future<Boolean> f : waits) {
        assertThat(f.get()).isTrue();
      }
      // Six tasks on the CPU pool: two at once (the first two wait for each other), never more.
      CountDownLatch pair = new CountDownLatch(2);
      AtomicInteger running = new AtomicInteger();
      AtomicInteger most = new AtomicInteger();
      List<Future<?>> busy = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        busy.add(p.cpu().submit(() -> {
          most.accumulateAndGet(running.incrementAndGet(), Math::max);
          pair.countDown();
          pair.await(10, TimeUnit.SECONDS);
          Thread.sleep(20);
          running.decrementAndGet();
          return null;
        }));
      }
      for (Future<?> f : busy) {
        f.get();
      }
      assertThat(most).hasValue(2);
    }
  }

  @Test
  void closeWaitsForTheTasksGivenAndRefusesNewOnes() {
    ThreadPools p = ThreadPools.builder().cpuThreads(1).ioThreads(1).build();
    AtomicBoolean done = new AtomicBoolean();
    p.cpu().execute(() -> {
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      done.set(true);
    });
    p.close();
    assertThat(done).isTrue();
    assertThat(p.isShutdown()).isTrue();
    assertThatThrownBy(() -> p.io().execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
  }

  @Test
  void theSharedPoolsAreOneInstanceThatCannotBeClosed() throws Exception {
    ThreadPools shared = ThreadPools.shared();
    assertThat(ThreadPools.shared()).isSameAs(shared);
    assertThat(shared.cpu().submit(() -> 1 + 1).get()).isEqualTo(2);
    assertThatThrownBy(shared::close).isInstanceOf(UnsupportedOperationException.class)
        .hasMessage("The shared thread pools cannot be closed");
    assertThat(shared.isShutdown()).isFalse();
  }
}
