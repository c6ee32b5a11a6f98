package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The commands draw their library operation's progress: on a pipe only when asked
 * ({@code JAVELIN_PROGRESS=always}), never with {@code --quiet}. Each finished stage leaves one
 * line ending "in all" after the redraws ({@code \r}).
 */
class ProgressCommandsTest extends CliTestBase {
  @AfterEach
  void auto() {
    System.clearProperty(ProgressBar.MODE_PROPERTY);
  }

  private static String lastLine(String err, String prefix) {
    String found = null;
    for (String part : err.split("[\r\n]")) {
      if (part.startsWith(prefix)) {
        found = part.stripTrailing();
      }
    }
    return found;
  }

  @Test
  void createIndexClusterCleanupAndSettleDrawTheirStages() throws Exception {
    StringBuilder csv = new StringBuilder("id,score\n");
    for (int i = 0; i < 3000; i++) {
      csv.append(i).append(',').append((i * 7919) % 1000).append('\n');
    }
    text("rows.csv", csv.toString());
    String ds = path("ds");
    // Not a terminal, not asked: nothing but the command's own line.
    Result plain = run("create", ds, "--input", path("rows.csv"), "--max-rows-per-file", "1000");
    assertThat(plain.err).doesNotContain("\r").doesNotContain("write rows");

    System.setProperty(ProgressBar.MODE_PROPERTY, "always");
    Result append = run("append", ds, "--input", path("rows.csv"));
    assertThat(append.code).as(append.toString()).isZero();
    assertThat(lastLine(append.err, "append: write rows")).matches("append: write rows 3,000 rows, .* in all");

    Result index = run("index", "create", ds, "--column", "id", "--type", "btree");
    assertThat(index.code).as(index.toString()).isZero();
    assertThat(lastLine(index.err, "create index id_idx: read rows"))
        .startsWith("create index id_idx: read rows 100% 6,000 of 6,000 rows, "); // 80 columns: no bar

    Result cluster = run("cluster", ds, "--by", "score");
    assertThat(cluster.code).as(cluster.toString()).isZero();
    assertThat(lastLine(cluster.err, "cluster: pass 2 of 2")).contains("100% 6,000 of 6,000 rows");

    Result settle = run("index", "settle", ds);
    assertThat(settle.code).as(settle.toString()).isZero();
    assertThat(lastLine(settle.err, "settle indices: remap indices")).contains("100% 1 of 1 indices");

    Result cleanup = run("cleanup", ds, "--retain", "1", "--grace-period", "0s");
    assertThat(cleanup.code).as(cleanup.toString()).isZero();
    assertThat(lastLine(cleanup.err, "cleanup: delete files")).matches("cleanup: delete files [1-9][0-9,]* files, .*");

    Result quiet = run("append", ds, "--input", path("rows.csv"), "--quiet");
    assertThat(quiet.code).as(quiet.toString()).isZero();
    assertThat(quiet.err).doesNotContain("\r").doesNotContain("write rows");
  }
}
