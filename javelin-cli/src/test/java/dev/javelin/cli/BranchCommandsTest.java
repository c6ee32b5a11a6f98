package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class BranchCommandsTest extends CliTestBase {
  private String create() throws Exception {
    text("people.csv", "id,name,score\n1,ann,1.5\n2,bob,\n3,cy,3.25\n4,dee,4.0\n");
    Result r = run("create", path("ds"), "--input", path("people.csv"));
    assertThat(r.code).as(r.toString()).isZero();
    return path("ds");
  }

  @Test
  void branchesAreCreatedWrittenListedAndDeleted() throws Exception {
    String ds = create();
    assertThat(run("delete", ds, "--where", "id = 4").code).isZero();
    Result c = run("branch", "create", ds, "exp/one", "--as-of", "1");
    assertThat(c.code).as(c.toString()).isZero();
    assertThat(c.err).isEqualTo("Created branch exp/one of " + ds + " at version 1 (4 rows)\n");
    Result d = run("delete", ds, "--branch", "exp/one", "--where", "id = 1");
    assertThat(d.err).as(d.toString()).isEqualTo("Deleted 1 row: " + ds + " is now at version 2 (3 rows)\n");
    text("more.csv", "id,name,score\n9,zed,9.0\n");
    Result a = run("append", ds + "/tree/exp/one", "--input", path("more.csv"));
    assertThat(a.code).as(a.toString()).isZero();
    assertThat(run("scan", ds, "--branch", "exp/one", "--format", "csv", "--columns", "id").out)
        .isEqualTo("id\n2\n3\n4\n9\n");
    assertThat(run("count", ds, "--branch", "exp/one", "--as-of", "2").out).isEqualTo("3\n");
    assertThat(run("scan", ds, "--format", "csv", "--columns", "id").out).isEqualTo("id\n1\n2\n3\n");
    assertThat(run("tag", "create", ds + "/tree/exp/one", "exp-tag").code).isZero();
    assertThat(run("count", ds, "--tag", "exp-tag").out).isEqualTo("4\n");

    Result second = run("branch", "create", ds, "two", "--from", "exp/one");
    assertThat(second.err).as(second.toString()).isEqualTo("Created branch two of " + ds + " at version 3 (4 rows)\n");
    Result list = run("branch", "list", ds);
    assertThat(list.out).matches("exp/one\tmain\t1\t[0-9T:.-]+Z\ntwo\texp/one\t3\t[0-9T:.-]+Z\n");

    Result inUse = run("branch", "delete", ds, "exp/one");
    assertThat(inUse.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(inUse.err).contains("Branch 'exp/one' cannot be deleted: branches [two] were created from it");
    assertThat(run("branch", "delete", ds, "two").err).isEqualTo("Deleted branch two of " + ds + "\n");
    assertThat(run("branch", "delete", ds, "exp/one").code).isZero();
    assertThat(run("branch", "list", ds).out).isEmpty();
    try (var files = Files.walk(dir.resolve("ds/tree"))) {
      assertThat(files.filter(Files::isRegularFile)).isEmpty();
    }

    Result missing = run("scan", ds, "--branch", "nope");
    assertThat(missing.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(missing.err).contains("Dataset has no branch 'nope': ");
    Result bad = run("branch", "create", ds, "main");
    assertThat(bad.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(bad.err).contains("Invalid branch name 'main' ('main' is the main branch)");
  }

  @Test
  void shallowCloneReadsTheSourceAndWritesItsOwnFiles() throws Exception {
    String ds = create();
    assertThat(run("delete", ds, "--where", "id = 2").code).isZero();
    Result c = run("clone", "--shallow", ds, path("copy"), "--as-of", "1");
    assertThat(c.code).as(c.toString()).isZero();
    assertThat(c.err).isEqualTo("Cloned version 1 of " + ds + " to " + path("copy") + " (4 rows, no data copied)\n");
    assertThat(Files.exists(dir.resolve("copy/data"))).isFalse();
    assertThat(run("scan", path("copy"), "--format", "csv", "--columns", "id").out).isEqualTo("id\n1\n2\n3\n4\n");
    assertThat(run("delete", path("copy"), "--where", "id = 3").code).isZero();
    text("more.csv", "id,name,score\n7,sev,7.0\n");
    assertThat(run("append", path("copy"), "--input", path("more.csv")).code).isZero();
    assertThat(run("scan", path("copy"), "--format", "csv", "--columns", "id").out).isEqualTo("id\n1\n2\n4\n7\n");
    assertThat(run("scan", ds, "--format", "csv", "--columns", "id").out).isEqualTo("id\n1\n3\n4\n");
    assertThat(run("describe", path("copy")).out).contains("base paths (id, location; files marked [base N] are read "
        + "from there):\n  0  " + ds + "\n").contains("[base 0] data/");
    assertThat(run("describe", ds, "--branch", "b").code).isEqualTo(ExitCodes.INVALID_INPUT);

    Result again = run("clone", "--shallow", ds, path("copy"));
    assertThat(again.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(again.err).contains("A dataset already exists: " + path("copy"));
    Result deep = run("clone", ds, path("deep"));
    assertThat(deep.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(deep.err).contains("--shallow");
  }
}
