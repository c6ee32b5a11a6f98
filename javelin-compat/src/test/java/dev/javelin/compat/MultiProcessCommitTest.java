package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

/**
 * Four writer processes ({@link MultiProcessWriter}) commit to one dataset on the local file system
 * at the same time: Javelin writers append batches and delete some of their own rows after each;
 * in the mixed run one writer is lance-core, appending. Afterwards every append is there exactly
 * once, every deleted row is gone, and every version opens and reads back as many rows as its
 * manifest counts, with no row coming back after it was deleted.
 */
class MultiProcessCommitTest {
  private static final int BATCHES = 8;
  private static final int ROWS = 60;
  private static final int INITIAL_WRITER = 99;
  private static final long TIMEOUT_SECONDS = 180;

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  @Test
  void javelinProcessesAppendAndDeleteConcurrently() throws Exception {
    run(List.of("javelin", "javelin", "javelin", "javelin"));
  }

  @Test
  void lanceCoreAppendsWhileJavelinProcessesAppendAndDelete() throws Exception {
    Path path = run(List.of("javelin", "lance", "javelin", "javelin"));
    Set<Long> want = expected(List.of("javelin", "lance", "javelin", "javelin"));
    Dataset javelin = Dataset.open(path, allocator);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.version()).isEqualTo(javelin.version());
      assertThat(lance.countRows()).isEqualTo(want.size());
      List<Long> ids = new ArrayList<>();
      try (LanceScanner s = lance.newScan(new ScanOptions.Builder().columns(List.of("id")).build());
          ArrowReader r = s.scanBatches()) {
        collect(r, ids);
      }
      assertThat(new TreeSet<>(ids)).isEqualTo(want);
      assertThat(ids).hasSameSizeAs(want);
      for (long v = 1; v <= javelin.version(); v++) {
        try (org.lance.Dataset at = lance.checkoutVersion(v)) {
          assertThat(at.countRows()).as("lance-core's row count at version %d", v)
              .isEqualTo(javelin.checkout(v).countRows());
        }
      }
    }
  }

  // Creates the dataset, runs one writer process per entry, checks the outcome; returns the path.
  private Path run(List<String> impls) throws Exception {
    Path path = dir.resolve("ds");
    try (VectorSchemaRoot first = MultiProcessWriter.batch(allocator, INITIAL_WRITER, 0, ROWS)) {
      Dataset.create(path, List.of(first), WriteParams.defaults(), allocator);
    }
    List<Process> processes = new ArrayList<>();
    try {
      for (int w = 0; w < impls.size(); w++) {
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--add-opens=java.base/java.nio=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
            MultiProcessWriter.class.getName(), impls.get(w), path.toString(), Integer.toString(w),
            Integer.toString(BATCHES), Integer.toString(ROWS));
        processes.add(new ProcessBuilder(cmd).redirectErrorStream(true)
            .redirectOutput(dir.resolve("log-" + w + ".txt").toFile()).start());
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
      for (int w = 0; w < impls.size(); w++) {
        while (!Files.exists(dir.resolve("ready-" + w))) {
          assertThat(processes.get(w).isAlive()).as("writer %d started: %s", w, log(w)).isTrue();
          assertThat(System.nanoTime()).as("writers ready in time").isLessThan(deadline);
          Thread.sleep(10);
        }
      }
      Files.createFile(dir.resolve("go"));
      for (int w = 0; w < impls.size(); w++) {
        Process p = processes.get(w);
        assertThat(p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("writer %d finished in time", w).isTrue();
        assertThat(p.exitValue()).as("writer %d (%s) exit, output:%n%s", w, impls.get(w), log(w)).isZero();
      }
    } finally {
      processes.forEach(Process::destroyForcibly);
    }
    checkOutcome(path, impls);
    return path;
  }

  private String log(int writer) throws IOException {
    Path f = dir.resolve("log-" + writer + ".txt");
    return Files.exists(f) ? Files.readString(f) : "";
  }

  // The ids the last version must hold.
  private static Set<Long> expected(List<String> impls) {
    Set<Long> want = new TreeSet<>();
    for (long i = 0; i < ROWS; i++) {
      want.add(INITIAL_WRITER * MultiProcessWriter.STRIDE + i);
    }
    LongPredicate survives = MultiProcessWriter.survives(BATCHES, ROWS);
    for (int w = 0; w < impls.size(); w++) {
      for (long i = 0; i < (long) BATCHES * ROWS; i++) {
        long id = w * MultiProcessWriter.STRIDE + i;
        if (impls.get(w).equals("lance") || survives.test(id)) {
          want.add(id);
        }
      }
    }
    return want;
  }

  private void checkOutcome(Path path, List<String> impls) throws Exception {
    Set<Long> want = expected(impls);
    Dataset latest = Dataset.open(path, allocator);
    int commits = 0;
    for (String impl : impls) {
      commits += impl.equals("lance") ? BATCHES : MultiProcessWriter.javelinCommits(BATCHES);
    }
    assertThat(latest.version()).as("one version per commit").isEqualTo(1 + commits);
    List<Long> ids = ids(latest);
    assertThat(new TreeSet<>(ids)).isEqualTo(want);
    assertThat(ids).as("no row twice").hasSameSizeAs(want);
    assertThat(latest.countRows()).isEqualTo(want.size());

    // Every version reads as many rows as its manifest says, each once, and a row deleted in one
    // version never shows up in a later one.
    Set<Long> previous = new HashSet<>();
    Set<Long> deleted = new HashSet<>();
    long lastWriter = -1;
    int switches = 0;
    for (long v = 1; v <= latest.version(); v++) {
      Dataset at = latest.checkout(v);
      List<Long> rows = ids(at);
      Set<Long> now = new HashSet<>(rows);
      assertThat(rows).as("no row twice at version %d", v).hasSameSizeAs(now);
      assertThat((long) rows.size()).as("rows read vs manifest count at version %d", v).isEqualTo(at.countRows());
      assertThat(at.countRows(null)).as("counted rows at version %d", v).isEqualTo(at.countRows());
      for (long id : previous) {
        if (!now.contains(id)) {
          deleted.add(id);
        }
      }
      assertThat(intersection(now, deleted)).as("rows back after their delete at version %d", v).isEmpty();
      assertThat(intersection(deleted, want)).as("rows deleted by version %d that should have stayed", v).isEmpty();
      // Which writer committed this version: the one whose rows changed.
      long writer = -1;
      for (long id : now) {
        if (!previous.contains(id)) {
          writer = id / MultiProcessWriter.STRIDE;
          break;
        }
      }
      if (writer < 0) {
        writer = previous.stream().filter(id -> !now.contains(id)).findFirst().orElse(-1L) / MultiProcessWriter.STRIDE;
      }
      if (lastWriter >= 0 && writer != lastWriter) {
        switches++;
      }
      lastWriter = writer;
      previous = now;
    }
    // Writers that ran one after the other would switch impls.size() times at most.
    assertThat(switches).as("commits of different writers interleaved").isGreaterThan(impls.size());
  }

  private static Set<Long> intersection(Set<Long> a, Set<Long> b) {
    Set<Long> out = new TreeSet<>(a);
    out.retainAll(b);
    return out;
  }

  private static List<Long> ids(Dataset ds) throws IOException {
    List<Long> out = new ArrayList<>();
    try (ArrowReader r = ds.newScan().columns("id").build()) {
      collect(r, out);
    }
    return out;
  }

  private static void collect(ArrowReader r, List<Long> out) throws IOException {
    while (r.loadNextBatch()) {
      BigIntVector id = (BigIntVector) r.getVectorSchemaRoot().getVector("id");
      for (int i = 0; i < id.getValueCount(); i++) {
        out.add(id.get(i));
      }
    }
  }
}
