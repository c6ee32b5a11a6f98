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
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;
import org.opentest4j.AssertionFailedError;

/**
 * The allocator extension, run on fixture classes through JUnit's engine test kit: a test that
 * leaks fails, one that cleans up passes. The fixtures are static nested classes, which neither
 * Surefire nor JUnit run on their own.
 */
class AllocatorExtensionTest {
  private static final String FIXTURES = "dev.javelin.testing.fixtures";

  /** Runs the fixtures only inside the test kit, not when a -Dtest pattern picks them up. */
  static final class OnlyInTestKit implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      return context.getConfigurationParameter(FIXTURES).isPresent()
          ? ConditionEvaluationResult.enabled("run by the test kit")
          : ConditionEvaluationResult.disabled("a fixture of AllocatorExtensionTest");
    }
  }

  private static Events run(Class<?> fixture) {
    return EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture))
        .configurationParameter(FIXTURES, "true").execute().testEvents();
  }

  @Test
  void aTestThatLeaksABufferFails() {
    Events events = run(LeakingBuffer.class);
    events.assertStatistics(s -> s.started(2).succeeded(1).failed(1));
    events.assertThatEvents().haveExactly(1, event(test("leaks"), finishedWithFailure(
        instanceOf(AssertionFailedError.class),
        message(m -> m.startsWith("leaks() leaked Arrow memory: 64 bytes still allocated")))));
    events.assertThatEvents().haveExactly(1, event(test("closesWhatItTakes"), finishedSuccessfully()));
  }

  @Test
  void memoryLeftInAChildAllocatorFails() {
    Events events = run(LeakingChild.class);
    events.assertStatistics(s -> s.started(1).failed(1));
    events.assertThatEvents().haveExactly(1, event(test("leavesAChildWithABuffer"), finishedWithFailure(
        instanceOf(AssertionFailedError.class),
        message(m -> m.startsWith("leavesAChildWithABuffer() leaked Arrow memory: 32 bytes still allocated")))));
  }

  @Test
  void aSharedAllocatorIsAChildAndItsLeaksFailToo() {
    Events events = run(Shared.class);
    events.assertStatistics(s -> s.started(2).succeeded(1).failed(1));
    events.assertThatEvents().haveExactly(1, event(test("leaksFromAChild"), finishedWithFailure(
        instanceOf(AssertionFailedError.class),
        message(m -> m.startsWith("leaksFromAChild() leaked Arrow memory: 128 bytes still allocated")))));
  }

  @Test
  void lifecycleMethodsFieldsAndParametersShareOneAllocatorPerTest() {
    Lifecycle.seen.clear();
    Events events = run(Lifecycle.class);
    events.assertStatistics(s -> s.started(2).succeeded(2));
    // Each test: the same allocator in @BeforeEach, the test, and @AfterEach; a new one per test.
    assertThat(Lifecycle.seen).hasSize(6);
    assertThat(Lifecycle.seen.get(0)).isSameAs(Lifecycle.seen.get(1)).isSameAs(Lifecycle.seen.get(2));
    assertThat(Lifecycle.seen.get(3)).isSameAs(Lifecycle.seen.get(4)).isSameAs(Lifecycle.seen.get(5));
    assertThat(Lifecycle.seen.get(0)).isNotSameAs(Lifecycle.seen.get(3));
    assertThat(Lifecycle.seen.get(0).getAllocatedMemory()).isZero();
  }

  @Test
  void aNestedTestGetsTheOuterField() {
    Events events = run(Outer.class);
    events.assertStatistics(s -> s.started(1).succeeded(1));
  }

  @Test
  void aStaticFieldIsRefused() {
    Events events = run(StaticField.class);
    events.assertThatEvents().haveExactly(1, event(test("test"), finishedWithFailure(
        instanceOf(ExtensionConfigurationException.class),
        message(m -> m.startsWith("@TestAllocator gives each test its own allocator; it cannot fill static field")))));
  }

  @ExtendWith(OnlyInTestKit.class)
  static class LeakingBuffer {
    @TestAllocator BufferAllocator allocator;

    @Test
    void leaks() {
      allocator.buffer(64);
    }

    @Test
    void closesWhatItTakes() {
      try (ArrowBuf b = allocator.buffer(64)) {
        b.setLong(0, 1);
      }
    }
  }

  @ExtendWith(OnlyInTestKit.class)
  static class LeakingChild {
    @TestAllocator BufferAllocator allocator;

    @Test
    void leavesAChildWithABuffer() {
      allocator.newChildAllocator("forgotten", 0, Long.MAX_VALUE).buffer(32);
    }
  }

  @ExtendWith(OnlyInTestKit.class)
  static class Shared {
    @TestAllocator(shared = true) BufferAllocator allocator;

    @Test
    void leaksFromAChild() {
      assertThat(allocator.getParentAllocator()).isNotNull();
      allocator.buffer(128);
    }

    @Test
    void isAChildOfOneRoot() {
      assertThat(allocator).isNotInstanceOf(RootAllocator.class);
    }
  }

  @ExtendWith(OnlyInTestKit.class)
  static class Lifecycle {
    static final List<BufferAllocator> seen = new ArrayList<>();
    @TestAllocator BufferAllocator allocator;

    @BeforeEach
    void before() {
      seen.add(allocator);
    }

    @Test
    void first(@TestAllocator BufferAllocator parameter) {
      seen.add(parameter);
    }

    @Test
    void second(@TestAllocator BufferAllocator parameter) {
      seen.add(parameter);
    }

    @AfterEach
    void after() {
      seen.add(allocator);
    }
  }

  @ExtendWith(OnlyInTestKit.class)
  static class Outer {
    @TestAllocator BufferAllocator allocator;

    @Nested
    class Inner {
      @Test
      void test() {
        try (ArrowBuf b = allocator.buffer(8)) {
          assertThat(b.capacity()).isEqualTo(8);
        }
      }
    }
  }

  @ExtendWith(OnlyInTestKit.class)
  static class StaticField {
    @TestAllocator static BufferAllocator allocator;

    @Test
    void test() {}
  }
}
