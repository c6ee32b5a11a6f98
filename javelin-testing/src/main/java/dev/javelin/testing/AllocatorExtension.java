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
        boolean shared = f.getAnnotation(TestAllocator.class).shared();
        if (!fits(f.getType(), shared)) {
          throw new ExtensionConfigurationException("@TestAllocator field must be declared as a BufferAllocator"
              + (shared ? "" : " or RootAllocator") + ": " + f);
        }
        BufferAllocator a = allocator(context, shared);
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
    return parameterContext.findAnnotation(TestAllocator.class).map(a -> fits(p.getType(), a.shared())).orElse(false);
  }

  /** Whether a field or parameter of {@code type} can hold the allocator: a shared one is a child, not a root. */
  private static boolean fits(Class<?> type, boolean shared) {
    return type.isAssignableFrom(BufferAllocator.class) || !shared && type.isAssignableFrom(RootAllocator.class);
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
    List<BufferAllocator> owned = new ArrayList<>();
    for (boolean shared : new boolean[] {false, true}) {
      Owned o = store.remove(shared, Owned.class);
      if (o != null) {
        owned.add(o.allocator);
      }
    }
    AssertionFailedError leak = Leaks.close(context.getDisplayName(), owned);
    if (leak != null) {
      throw leak;
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
