package dev.javelin.testing;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.platform.commons.support.AnnotationSupport;
import org.opentest4j.AssertionFailedError;

/**
 * The jqwik counterpart of {@link AllocatorExtension}, for property-based test classes (jqwik runs
 * no JUnit extensions): {@code @AddLifecycleHook(AllocatorHook.class)} on the class fills its
 * {@link TestAllocator} fields with a fresh {@code RootAllocator} per property, before its
 * {@code @BeforeProperty} methods, and fails the property if memory is left after its
 * {@code @AfterProperty} methods. It replaces the {@code @BeforeProperty} / {@code @AfterProperty}
 * allocator pair. {@link TestAllocator#shared} is not supported here.
 */
public final class AllocatorHook implements AroundPropertyHook {
  /** Creates the hook (jqwik does, through {@code @AddLifecycleHook}). */
  public AllocatorHook() {}

  @Override
  public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
    RootAllocator allocator = new RootAllocator();
    for (Object instance : context.testInstances()) {
      for (Field f : AnnotationSupport.findAnnotatedFields(instance.getClass(), TestAllocator.class)) {
        if (Modifier.isStatic(f.getModifiers()) || f.getAnnotation(TestAllocator.class).shared()
            || !f.getType().isInstance(allocator)) {
          allocator.close();
          throw new IllegalStateException("AllocatorHook fills non-static, unshared BufferAllocator or RootAllocator"
              + " fields only: " + f);
        }
        try {
          f.setAccessible(true);
          f.set(instance, allocator);
        } catch (ReflectiveOperationException | RuntimeException e) {
          allocator.close();
          throw new IllegalStateException("Cannot set @TestAllocator field " + f, e);
        }
      }
    }
    PropertyExecutionResult result = property.execute();
    AssertionFailedError leak = Leaks.close(context.extendedLabel(), List.of(allocator));
    if (leak == null) {
      return result;
    }
    result.throwable().ifPresent(leak::addSuppressed);
    return result.mapToFailed(leak);
  }

  /** From the class it is added to, to every property in it (jqwik's default reaches none). */
  @Override
  public PropagationMode propagateTo() {
    return PropagationMode.ALL_DESCENDANTS;
  }

  /** Outside the {@code @BeforeProperty} / {@code @AfterProperty} methods (jqwik's hook for them is at -10). */
  @Override
  public int aroundPropertyProximity() {
    return -20;
  }
}
