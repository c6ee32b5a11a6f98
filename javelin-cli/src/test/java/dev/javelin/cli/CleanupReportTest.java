package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** cleanup says what it freed, and when it freed less than asked, why. */
class CleanupReportTest extends CliTestBase {
  private static long dataFiles(String ds) throws Exception {
    try (Stream<Path> files = Files.list(Path.of(ds, "data"))) {
      return files.count();
    }
  }

  @Test
  void aTaggedOldVersionIsNamedAsWhatKeepsItsFiles() throws Exception {
    text("a.csv", "id\n1\n2\n");
    text("b.csv", "id\n3\n");
    String ds = path("ds");
    assertThat(run("create", ds, "--input", path("a.csv")).code).isZero();
    assertThat(run("tag", "create", ds, "before-import").code).isZero();
    assertThat(run("overwrite", ds, "--input", path("b.csv")).code).isZero();
    assertThat(run("overwrite", ds, "--input", path("a.csv")).code).isZero();
    assertThat(dataFiles(ds)).isEqualTo(3);

    // Version 2 goes; version 1 is tagged and stays with its file; version 2's files are newer than
    // the oldest kept version (its data file and transaction file), so they wait.
    Result r = run("cleanup", ds, "--retain", "1");
    assertThat(r.code).as(r.toString()).isZero();
    String[] lines = r.err.split("\n");
    assertThat(lines[0]).matches("Removed 1 version, 0 data files, 0 deletion files, 0 transaction files, 0 indices, "
        + "0 temporary files: freed \\d+(\\.\\d)? (B|KiB) from " + java.util.regex.Pattern.quote(ds));
    assertThat(lines[1]).isEqualTo("No data file was freed: the removed versions' data files are all used by versions "
        + "kept, among them tagged ones ('before-import' = version 1).");
    assertThat(lines[2]).isEqualTo("A tagged version keeps every file it uses; 'javelin tag delete " + ds
        + " NAME' lets a later cleanup remove it.");
    assertThat(lines[3]).startsWith("Kept 2 unreferenced files (").contains("grace period (7d)")
        .endsWith("or newer than the oldest kept version (1).");
    assertThat(lines[4]).startsWith("To remove them sooner: --grace-period AGE");
    assertThat(lines).hasSize(5);
    assertThat(dataFiles(ds)).isEqualTo(3);

    // Without the tag, the old files go, and the sizes say how much was freed.
    assertThat(run("tag", "delete", ds, "before-import").code).isZero();
    Result freed = run("cleanup", ds, "--retain", "1", "--grace-period", "0s");
    assertThat(freed.code).as(freed.toString()).isZero();
    assertThat(freed.err).matches("Removed 1 version, 2 data files, 0 deletion files, \\d transaction files?, 0 indices, "
        + "0 temporary files: freed \\d+\\.\\d KiB from " + java.util.regex.Pattern.quote(ds) + "\n");
    assertThat(dataFiles(ds)).isEqualTo(1);
    assertThat(run("count", ds).out).isEqualTo("2\n");
  }

  @Test
  void aTaggedVersionTheNewestIsTheOnlyOneLeftIsNotAReason() throws Exception {
    text("a.csv", "id\n1\n");
    String ds = path("ds");
    assertThat(run("create", ds, "--input", path("a.csv")).code).isZero();
    assertThat(run("tag", "create", ds, "only").code).isZero();
    Result r = run("cleanup", ds, "--retain", "1");
    assertThat(r.err).isEqualTo("Removed 0 versions, 0 data files, 0 deletion files, 0 transaction files, 0 indices, "
        + "0 temporary files: freed 0 B from " + ds + "\n"
        + "No version was removed: none older than the newest matched the policy.\n");
  }
}
