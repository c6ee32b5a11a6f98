package dev.javelin.compat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Runs {@link ReadChecks#lance} on files Javelin wrote, in child JVMs. A file lance-core has never
 * seen may make it panic, and a panic in native code aborts the whole JVM: in-process, one bad file
 * would end the test run with no report. Here it fails one case, with the panic message, and the
 * remaining cases go on in a fresh child.
 *
 * <p>The child regenerates each case's expected rows from its seed and profile ({@link Sample} is
 * deterministic), so only paths and seeds cross the process boundary.
 */
final class IsolatedLanceChecks {
  private static final String MARK = "@@lance-check ";
  private static final long TIMEOUT_SECONDS = 300;

  /** A file to check against the rows {@code Sample.generate(seed, profile)} gives. */
  static final class Case {
    final Path file;
    final long seed;
    final RandomData.Profile profile;
    final String context;

    Case(Path file, long seed, RandomData.Profile profile, String context) {
      this.file = file;
      this.seed = seed;
      this.profile = profile;
      this.context = context;
    }
  }

  private IsolatedLanceChecks() {}

  /** Checks every case; returns one message per failed case (empty when all pass). */
  static List<String> run(List<Case> cases) {
    List<String> failures = new ArrayList<>();
    int next = 0;
    while (next < cases.size()) {
      next = runChild(cases, next, failures);
    }
    return failures;
  }

  // Runs cases from index 'from' in one child; returns the index of the first case it did not
  // finish (the one it crashed or hung on is recorded as failed and skipped).
  private static int runChild(List<Case> cases, int from, List<String> failures) {
    Path list = writeCaseList(cases, from);
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(IsolatedLanceChecks.class.getName());
    cmd.add(list.toString());
    int done = from;
    Deque<String> tail = new java.util.ArrayDeque<>();
    Process p = null;
    java.util.concurrent.ScheduledExecutorService watchdog = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
    int exit;
    try {
      p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      Process child = p;
      // A hung child would block the reads below forever; kill it after the timeout.
      watchdog.schedule(() -> child.destroyForcibly(), TIMEOUT_SECONDS, TimeUnit.SECONDS);
      try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = out.readLine()) != null) {
          if (line.startsWith(MARK)) {
            String[] parts = line.substring(MARK.length()).split(" ", 3);
            int index = Integer.parseInt(parts[0]);
            if (parts[1].equals("FAIL")) {
              failures.add(parts[2].replace("\\n", "\n"));
            }
            done = index + 1;
            tail.clear();
          } else {
            tail.addLast(line);
            if (tail.size() > 40) {
              tail.removeFirst();
            }
          }
        }
      }
      exit = p.waitFor();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not run lance-core in a child JVM", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } finally {
      watchdog.shutdownNow();
      if (p != null && p.isAlive()) {
        p.destroyForcibly();
      }
      try {
        Files.deleteIfExists(list);
      } catch (IOException e) {
        // A temporary file; the JVM's temp directory cleanup will see to it.
      }
    }
    if (done < cases.size()) {
      Case c = cases.get(done);
      String how = exit == 134 ? "crashed (abort)" : exit == 137 ? "was killed after " + TIMEOUT_SECONDS + " s" : "exited with " + exit;
      failures.add("lance-core " + how + " reading " + c.file + ": " + panic(tail)
          + "\n  [" + c.context + "]");
      return done + 1;
    }
    return done;
  }

  // The panic message lance-core printed, if any, else the last lines of output.
  private static String panic(Deque<String> tail) {
    List<String> lines = new ArrayList<>(tail);
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains("panicked at")) {
        StringBuilder b = new StringBuilder(lines.get(i).trim());
        for (int k = i + 1; k < Math.min(lines.size(), i + 4) && !lines.get(k).startsWith("stack backtrace"); k++) {
          b.append(" ").append(lines.get(k).trim());
        }
        return b.toString();
      }
    }
    return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
  }

  private static Path writeCaseList(List<Case> cases, int from) {
    try {
      Path list = Files.createTempFile("lance-checks", ".txt");
      StringBuilder b = new StringBuilder();
      for (int i = from; i < cases.size(); i++) {
        Case c = cases.get(i);
        b.append(i).append('\t').append(c.file).append('\t').append(c.seed).append('\t').append(c.profile)
            .append('\t').append(c.context.replace('\t', ' ').replace('\n', ' ')).append('\n');
      }
      Files.writeString(list, b.toString());
      return list;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The child: checks each case listed in the file named by {@code args[0]}. */
  public static void main(String[] args) throws IOException {
    for (String line : Files.readAllLines(Path.of(args[0]))) {
      String[] f = line.split("\t", 5);
      int index = Integer.parseInt(f[0]);
      Path file = Path.of(f[1]);
      long seed = Long.parseLong(f[2]);
      RandomData.Profile profile = RandomData.profile(f[3]);
      String context = f[4];
      LanceOracle.currentCase(context);
      String result;
      try (BufferAllocator allocator = new RootAllocator();
          Sample sample = Sample.generate(seed, profile, allocator)) {
        ReadChecks.lance(file, sample.expected, new Random(seed * 31 + 7), allocator, context);
        result = "OK";
      } catch (Throwable t) {
        String m = String.valueOf(t.getMessage());
        result = "FAIL " + (m.length() > 4000 ? m.substring(0, 4000) + "..." : m).replace("\n", "\\n");
      }
      System.out.println(MARK + index + " " + result);
      System.out.flush();
    }
    System.exit(0);
  }
}
