package dev.javelin.testing;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import org.opentest4j.AssertionFailedError;

/**
 * Gives each test the Arrow allocators its {@link TestAllocator} fields and parameters ask for,
 * and fails the test if one still holds memory when the test ends (memory of child allocators
 * included; an empty child left open is not a leak, as for RootAllocator's own close).
 * Registered by {@link TestAllocator} itself; {@code @ExtendWith(AllocatorExtension.class)} on a
 * class works too.
 */
public final class AllocatorExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(AllocatorExtension.class);
  private static final String SHARED_ROOT = "shared-root";

  /** Creates the extension (JUnit does, through {@link TestAllocator}). */
  public AllocatorExtension() {}

  @Override
  public void beforeEach(ExtensionContext context) {
    for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
      for (Field f : AnnotationSupport.findAnnotatedFields(instance.getClass(), TestAllocator.class)) {
        if (Modifier.isStatic(f.getModifiers())) {
          throw new ExtensionConfigurationException(
              "@TestAllocator gives each test its own allocator; it cannot fill static field " + f);
        }
        if (!f.getType().isAssignableFrom(BufferAllocator.class)) {
          throw new ExtensionConfigurationException(
              "@TestAllocator field must be declared as a BufferAllocator: " + f);
        }
        BufferAllocator a = allocator(context, f.getAnnotation(TestAllocator.class).shared());
        try {
          f.setAccessible(true);
          f.set(instance, a);
        } catch (ReflectiveOperationException | RuntimeException e) {
          throw new ExtensionConfigurationException("Cannot set @TestAllocator field " + f, e);
        }
      }
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
    Parameter p = parameterContext.getParameter();
    return parameterContext.isAnnotated(TestAllocator.class) && p.getType().isAssignableFrom(BufferAllocator.class);
  }

  @Override
  public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
    if (extensionContext.getTestMethod().isEmpty()) {
      throw new ParameterResolutionException(
          "@TestAllocator parameters are for test and @BeforeEach/@AfterEach methods, not " + parameterContext.getDeclaringExecutable());
    }
    boolean shared = parameterContext.findAnnotation(TestAllocator.class).orElseThrow().shared();
    return allocator(extensionContext, shared);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    ExtensionContext.Store store = context.getStore(NAMESPACE);
    List<String> leaks = new ArrayList<>();
    List<RuntimeException> failures = new ArrayList<>();
    for (boolean shared : new boolean[] {false, true}) {
      Owned owned = store.remove(shared, Owned.class);
      if (owned == null) {
        continue;
      }
      BufferAllocator a = owned.allocator;
      long leaked = a.getAllocatedMemory();
      String state = leaked == 0 ? "" : a.toVerboseString();
      try {
        a.close();
        if (leaked != 0) {
          leaks.add(leaked + " bytes still allocated\n" + state);
        }
      } catch (RuntimeException e) {
        // Arrow refuses to close an allocator with buffers or child allocators still open.
        leaks.add(leaked + " bytes still allocated (" + e.getMessage() + ")\n" + state);
        failures.add(e);
      }
    }
    if (!leaks.isEmpty()) {
      AssertionFailedError error = new AssertionFailedError(
          context.getDisplayName() + " leaked Arrow memory: " + String.join("; ", leaks));
      failures.forEach(error::addSuppressed);
      throw error;
    }
  }

  private static BufferAllocator allocator(ExtensionContext context, boolean shared) {
    ExtensionContext.Store store = context.getStore(NAMESPACE);
    Owned owned = store.getOrComputeIfAbsent(shared, k -> new Owned(shared
        ? sharedRoot(context).newChildAllocator(context.getUniqueId(), 0, Long.MAX_VALUE)
        : new RootAllocator()), Owned.class);
    return owned.allocator;
  }

  private static RootAllocator sharedRoot(ExtensionContext context) {
    return context.getRoot().getStore(NAMESPACE)
        .getOrComputeIfAbsent(SHARED_ROOT, k -> new SharedRoot(), SharedRoot.class).root;
  }

  /**
   * An allocator a test owns. Closed in afterEach, where a leak fails the test; JUnit closes what
   * is left in the store (an AutoCloseable) if afterEach never ran for it (a failed beforeEach).
   */
  private static final class Owned implements AutoCloseable {
    final BufferAllocator allocator;

    Owned(BufferAllocator allocator) {
      this.allocator = allocator;
    }

    @Override
    public void close() {
      allocator.close();
    }
  }

  /**
   * The root of the shared allocators, closed when the whole run ends; left open if a leaking
   * child still holds memory there (that test has failed already).
   */
  private static final class SharedRoot implements AutoCloseable {
    final RootAllocator root = new RootAllocator();

    @Override
    public void close() {
      if (root.getAllocatedMemory() == 0) {
        root.close();
      }
    }
  }
}
