package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class DatasetChangeCommandsTest extends CliTestBase {
  private String create() throws Exception {
    text("people.csv", "id,name,score\n1,ann,1.5\n2,bob,\n3,cy,3.25\n4,dee,4.0\n");
    Result r = run("create", path("ds"), "--input", path("people.csv"));
    assertThat(r.code).as(r.toString()).isZero();
    return path("ds");
  }

  @Test
  void deleteByFilter() throws Exception {
    String ds = create();
    Result r = run("delete", ds, "--where", "score IS NULL OR id = 4");
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(r.err).isEqualTo("Deleted 2 rows: " + ds + " is now at version 2 (2 rows)\n");
    assertThat(run("scan", ds, "--format", "csv", "--columns", "id").out).isEqualTo("id\n1\n3\n");
    Result none = run("delete", ds, "--where", "id > 100");
    assertThat(none.err).isEqualTo("Deleted 0 rows; nothing committed, " + ds + " stays at version 2\n");
    assertThat(run("describe", ds).out).contains("2 deleted").contains("_deletions/0-");
  }

  @Test
  void addDropAndAlterColumns() throws Exception {
    String ds = create();
    text("extra.csv", "rank\n10\n20\n30\n40\n");
    Result add = run("add-columns", ds, "--input", path("extra.csv"));
    assertThat(add.code).as(add.toString()).isZero();
    assertThat(add.err).isEqualTo("Added rank: " + ds + " is now at version 2 (4 rows)\n");
    assertThat(run("add-columns", ds, "--null", "note:utf8?").code).isZero();
    assertThat(run("drop-columns", ds, "score").code).isZero();
    Result alter = run("alter-columns", ds, "--rename", "name=full_name");
    assertThat(alter.code).as(alter.toString()).isZero();
    assertThat(run("scan", ds, "--format", "csv").out)
        .isEqualTo("id,full_name,rank,note\n1,ann,10,\n2,bob,20,\n3,cy,30,\n4,dee,40,\n");

    text("short.csv", "more\n1\n");
    Result mismatch = run("add-columns", ds, "--input", path("short.csv"));
    assertThat(mismatch.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(run("versions", ds).out.split("\n")).hasSize(6);
  }

  @Test
  void tagsRestoreAndCleanup() throws Exception {
    String ds = create();
    assertThat(run("tag", "create", ds, "first").code).isZero();
    assertThat(run("delete", ds, "--where", "id < 3").code).isZero();
    assertThat(run("tag", "list", ds).out).isEqualTo("first\t1\n");
    assertThat(run("count", ds, "--tag", "first").out).isEqualTo("4\n");

    Result restore = run("restore", ds, "--tag", "first");
    assertThat(restore.code).as(restore.toString()).isZero();
    assertThat(restore.err).isEqualTo("Restored version 1 (tag first): " + ds + " is now at version 3 (4 rows)\n");

    Result cleanup = run("cleanup", ds, "--retain", "1");
    assertThat(cleanup.code).as(cleanup.toString()).isZero();
    assertThat(cleanup.err).startsWith("Removed 1 version, ");
    // Version 1 is tagged, so it stays; version 2 went.
    assertThat(run("count", ds, "--as-of", "1").out).isEqualTo("4\n");
    assertThat(run("count", ds, "--as-of", "2").code).isEqualTo(ExitCodes.INVALID_INPUT);

    assertThat(run("tag", "delete", ds, "first").code).isZero();
    Result missing = run("count", ds, "--tag", "first");
    assertThat(missing.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(run("cleanup", ds).code).isEqualTo(ExitCodes.INVALID_INPUT);
  }

  @Test
  void updateAndAddColumnsFromExpressions() throws Exception {
    String ds = create();
    Result r = run("update", ds, "--where", "id >= 3", "--set", "score=score * 2", "--set", "name='x'");
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(r.err).isEqualTo("Updated 2 rows: " + ds + " is now at version 2 (4 rows)\n");
    Result cols = run("update", ds, "--set", "score=0", "--columns-mode", "--where", "id = 1");
    assertThat(cols.code).as(cols.toString()).isZero();
    Result add = run("add-columns", ds, "--expr", "twice=id * 2");
    assertThat(add.code).as(add.toString()).isZero();
    assertThat(run("scan", ds, "--format", "csv", "--columns", "id,name,score,twice").out)
        .isEqualTo("id,name,score,twice\n1,ann,0.0,2\n2,bob,,4\n3,x,6.5,6\n4,x,8.0,8\n");
    Result bad = run("update", ds, "--set", "nope=1");
    assertThat(bad.code).isEqualTo(ExitCodes.INVALID_INPUT);
  }

  @Test
  void updateRefusesNullInANotNullColumn() throws Exception {
    text("orders.csv", "order_id,customer\n1,ann\n2,bob\n1,cy\n");
    String ds = path("orders");
    assertThat(run("create", ds, "--input", path("orders.csv"), "--schema", "order_id:int64,customer:utf8").code)
        .isZero();
    List<Path> before = files(ds);
    Result r = run("update", ds, "--where", "order_id = 1", "--set", "customer=NULL");
    assertThat(r.code).as(r.toString()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(r.err).isEqualTo("javelin: Column 'customer' is not nullable but the update writes nulls into it: "
        + dir.resolve("orders").toAbsolutePath() + "\n");
    assertThat(files(ds)).isEqualTo(before);
    assertThat(run("count", ds, "--filter", "customer IS NULL").out).isEqualTo("0\n");
    assertThat(run("versions", ds).out.split("\n")).hasSize(2); // the header and version 1
  }

  private static List<Path> files(String ds) throws Exception {
    try (Stream<Path> s = Files.walk(Path.of(ds))) {
      return s.filter(Files::isRegularFile).sorted().toList();
    }
  }
}
