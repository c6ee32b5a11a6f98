package dev.javelin.compat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Fresh file paths in one temporary directory per test JVM, removed when the JVM exits. jqwik
 * properties have no {@code @TempDir}, and a writer refuses a path that exists.
 */
final class Scratch {
  private static final AtomicLong COUNTER = new AtomicLong();
  private static Path dir;

  private Scratch() {}

  /** A path that does not exist yet; {@code name} is for a reader of failure messages. */
  static synchronized Path newFile(String name) {
    if (dir == null) {
      try {
        dir = Files.createTempDirectory("javelin-compat");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      Path d = dir;
      Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(d)));
    }
    return dir.resolve(COUNTER.incrementAndGet() + "-" + name + ".lance");
  }

  static void delete(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteTree(Path d) {
    try (Stream<Path> paths = Files.walk(d)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // Best effort at exit; the directory is under the system temp directory.
    }
  }
}
