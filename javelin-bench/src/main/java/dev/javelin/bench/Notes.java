package dev.javelin.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;

/**
 * What a benchmark's set-up found that a table row cannot show (a recall, a fallback from binary copy
 * to re-encoding): printed, and appended to {@code notes.txt} in the bench directory, which
 * {@code bench/report} adds under the tables.
 */
final class Notes {
  private Notes() {}

  static void add(String note) throws IOException {
    System.out.println("note: " + note);
    Files.writeString(BenchData.dir().resolve("notes.txt"), note + "\n", StandardCharsets.UTF_8,
        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }
}
