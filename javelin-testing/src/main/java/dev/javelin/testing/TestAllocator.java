package dev.javelin.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a {@code BufferAllocator} (or, not shared, {@code RootAllocator}) field or test-method
 * parameter that {@link AllocatorExtension} fills with a fresh allocator for each test, and checks
 * for leaks when the test ends: the test fails if any Arrow memory is left, in the allocator or in
 * a child of it. It replaces the
 * {@code @BeforeEach allocator = new RootAllocator()} / {@code @AfterEach allocator.close()} pair.
 *
 * <p>The allocator is set before the test's {@code @BeforeEach} methods run and closed after its
 * {@code @AfterEach} methods, so those may use it. Fields and parameters of one test with the
 * same {@link #shared} value get the same allocator. jqwik properties run no Jupiter extensions:
 * their classes add {@link AllocatorHook} instead.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.PARAMETER})
@ExtendWith(AllocatorExtension.class)
public @interface TestAllocator {
  /**
   * False (the default): a {@code RootAllocator} of the test's own, as the old setup made. True:
   * a child of one root allocator shared by every test of the run, which is cheaper to make.
   */
  boolean shared() default false;
}
