package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.LanceFileReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes under a small heap, as `JAVA_OPTS=-Xmx64m javelin ...` runs them (a child JVM): an input
 * about as large as the heap writes, since pages shrink to what the heap holds; a heap too small
 * for even that fails with one line and leaves no file behind.
 */
class MemoryLimitTest {
  private static final int ROWS = 600_000;
  @TempDir static Path dir;
  private static Path csv;

  @BeforeAll
  static void writeInput() throws IOException {
    csv = dir.resolve("big.csv");
    Random random = new Random(1);
    try (BufferedWriter w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
      w.write("id,name,score,city,note\n");
      for (int i = 0; i < ROWS; i++) {
        w.write(i + ",user-" + String.format("%08d", i) + "," + random.nextInt(1_000_000) / 1000.0 + ",city"
            + (i % 97) + "," + "x".repeat(10 + random.nextInt(50)) + "\n");
      }
    }
    assertThat(Files.size(csv)).isGreaterThan(40L << 20);
  }

  /** Runs the CLI in a child JVM with {@code heap}; returns exit code, then stderr. */
  private static List<String> run(String heap, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx" + heap, "-cp", System.getProperty("java.class.path"),
        Javelin.class.getName()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    return List.of(String.valueOf(p.exitValue()), err);
  }

  @Test
  void aFileLargerThanTheHeapIsWrittenWithPagesTheHeapHolds() throws Exception {
    Path out = dir.resolve("out.lance");
    List<String> r = run("64m", "file", "write", out.toString(), "--input", csv.toString());
    assertThat(r.get(0)).as(r.get(1)).isEqualTo("0");
    try (BufferAllocator allocator = new RootAllocator();
        LanceFileReader reader = LanceFileReader.open(out, allocator)) {
      assertThat(reader.numRows()).isEqualTo(ROWS);
    }
  }

  @Test
  void aHeapTooSmallFailsWithOneLineAndLeavesNoFile() throws Exception {
    Path out = dir.resolve("small.lance");
    List<String> r = run("12m", "file", "write", out.toString(), "--input", csv.toString());
    assertThat(r.get(0)).isEqualTo(String.valueOf(ExitCodes.GENERIC));
    assertThat(r.get(1)).startsWith("javelin: out of memory (").contains("JAVA_OPTS=-Xmx4g")
        .doesNotContain("\tat ");
    assertThat(r.get(1).lines().count()).isEqualTo(1);
    assertThat(out).doesNotExist();

    Path ds = dir.resolve("ds");
    r = run("12m", "create", ds.toString(), "--input", csv.toString());
    assertThat(r.get(0)).isEqualTo(String.valueOf(ExitCodes.GENERIC));
    assertThat(r.get(1)).startsWith("javelin: out of memory (");
    assertThat(r.get(1).lines().count()).isEqualTo(1);
    try (var files = Files.walk(dir)) {
      assertThat(files.filter(f -> f.startsWith(ds) && Files.isRegularFile(f))).isEmpty();
    }
  }
}
