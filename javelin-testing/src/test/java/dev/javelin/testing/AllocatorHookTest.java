package dev.javelin.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.AfterFailureMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;
import org.opentest4j.AssertionFailedError;

/**
 * The jqwik allocator hook, run on a fixture through JUnit's engine test kit and the jqwik engine:
 * a property that leaks (16 bytes in each of 3 tries) fails, one that cleans up passes, and the
 * lifecycle methods see the allocator. The fixture leaks only while {@link #armed}, so it passes if anything runs it alone.
 */
class AllocatorHookTest {
  static volatile boolean armed;

  @AfterEach
  void disarm() {
    armed = false;
  }

  @Test
  void aPropertyThatLeaksFailsAndOneThatCleansUpPasses() {
    armed = true;
    Fixture.seen.clear();
    Events events = EngineTestKit.engine("jqwik").selectors(selectClass(Fixture.class)).execute().testEvents();
    events.assertStatistics(s -> s.started(2).succeeded(1).failed(1));
    events.assertThatEvents().haveExactly(1, event(test("leaks"), finishedWithFailure(
        instanceOf(AssertionFailedError.class),
        message(m -> m.contains("leaks leaked Arrow memory: 48 bytes still allocated")))));
    events.assertThatEvents().haveExactly(1, event(test("cleansUp"), finishedSuccessfully()));
    // @BeforeProperty, each try and @AfterProperty of one property share one allocator.
    assertThat(Fixture.seen).hasSizeGreaterThanOrEqualTo(6).doesNotContainNull();
  }

  @AddLifecycleHook(AllocatorHook.class)
  static class Fixture {
    static final List<BufferAllocator> seen = new ArrayList<>();
    @TestAllocator BufferAllocator allocator;

    @BeforeProperty
    void before() {
      seen.add(allocator);
    }

    @AfterProperty
    void after() {
      seen.add(allocator);
    }

    @Property(tries = 3, afterFailure = AfterFailureMode.RANDOM_SEED)
    void leaks(@ForAll @IntRange(min = 1, max = 4) int n) {
      seen.add(allocator);
      if (armed) {
        allocator.buffer(16);
      }
    }

    @Property(tries = 3, afterFailure = AfterFailureMode.RANDOM_SEED)
    void cleansUp(@ForAll @IntRange(min = 1, max = 4) int n) {
      seen.add(allocator);
      try (ArrowBuf b = allocator.buffer(8L * n)) {
        assertThat(b.capacity()).isGreaterThanOrEqualTo(8L * n);
      }
    }
  }
}
