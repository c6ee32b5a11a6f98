package dev.javelin.testing;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.opentest4j.AssertionFailedError;

/** Closes a test's allocators and reports the memory they still held: the leak check of both extensions. */
final class Leaks {
  private Leaks() {}

  /**
   * Closes every allocator, and returns the failure to report if one still held memory (null if
   * none did). {@code test} names the test in the message.
   */
  static AssertionFailedError close(String test, List<BufferAllocator> allocators) {
    List<String> leaks = new ArrayList<>();
    List<RuntimeException> failures = new ArrayList<>();
    for (BufferAllocator a : allocators) {
      long leaked = a.getAllocatedMemory();
      String state = leaked == 0 ? "" : a.toVerboseString();
      try {
        a.close();
        if (leaked != 0) {
          leaks.add(leaked + " bytes still allocated\n" + state);
        }
      } catch (RuntimeException e) {
        // Arrow refuses to close an allocator with buffers still open.
        leaks.add(leaked + " bytes still allocated (" + e.getMessage() + ")\n" + state);
        failures.add(e);
      }
    }
    if (leaks.isEmpty()) {
      return null;
    }
    AssertionFailedError error = new AssertionFailedError(test + " leaked Arrow memory: " + String.join("; ", leaks));
    failures.forEach(error::addSuppressed);
    return error;
  }
}
