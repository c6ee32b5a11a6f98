package dev.javelin.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

class ColumnPoolTest {
  @Test
  void runsEveryFieldOnce() throws Exception {
    Set<Integer> seen = ConcurrentHashMap.newKeySet();
    Set<String> threads = ConcurrentHashMap.newKeySet();
    Thread caller = Thread.currentThread();
    try (ColumnPool pool = new ColumnPool(3)) {
      for (int round = 0; round < 5; round++) {
        seen.clear();
        // Workers wait (boundedly) until the caller has run a field, so that the caller's share
        // of the work does not depend on how fast the workers start.
        java.util.concurrent.CountDownLatch callerRan = new java.util.concurrent.CountDownLatch(1);
        pool.run(new long[] {5, 1, 9, 0, 3, 3, 7}, i -> {
          assertThat(seen.add(i)).as("field %s once", i).isTrue();
          threads.add(Thread.currentThread().getName());
          if (Thread.currentThread() == caller) {
            callerRan.countDown();
          } else {
            try {
              callerRan.await(2, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        });
        assertThat(seen).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6);
      }
    }
    assertThat(threads).contains(Thread.currentThread().getName());
  }

  @Test
  void oneThreadRunsCostliestFirst() throws Exception {
    java.util.List<Integer> order = Collections.synchronizedList(new java.util.ArrayList<>());
    try (ColumnPool pool = new ColumnPool(1)) {
      pool.run(new long[] {5, 1, 9, 0}, order::add);
    }
    assertThat(order).containsExactly(2, 0, 1, 3);
  }

  @Test
  void rethrowsAFieldsIoFailure() {
    Set<Integer> ran = Collections.synchronizedSet(new HashSet<>());
    try (ColumnPool pool = new ColumnPool(2)) {
      assertThatThrownBy(() -> pool.run(new long[4], i -> {
        ran.add(i);
        if (i == 2) {
          throw new IOException("disk full at field 2");
        }
      })).isInstanceOf(IOException.class).hasMessage("disk full at field 2");
    }
    assertThat(ran).contains(2);
  }

  @Test
  void rethrowsAFieldsRuntimeFailure() {
    try (ColumnPool pool = new ColumnPool(2)) {
      assertThatThrownBy(() -> pool.run(new long[3], i -> {
        if (i == 1) {
          throw new IllegalStateException("field 1 is bad");
        }
      })).isInstanceOf(IllegalStateException.class).hasMessage("field 1 is bad");
    }
  }
}
