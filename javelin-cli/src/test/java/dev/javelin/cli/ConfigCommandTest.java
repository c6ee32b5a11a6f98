package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConfigCommandTest extends CliTestBase {
  private String create() throws Exception {
    text("people.csv", "id,name\n1,ann\n2,bob\n");
    Result r = run("create", path("ds"), "--input", path("people.csv"));
    assertThat(r.code).as(r.toString()).isZero();
    return path("ds");
  }

  @Test
  void listsSetsAndUnsetsKeysOneCommitPerChange() throws Exception {
    String ds = create();
    Result empty = run("config", ds);
    assertThat(empty.code).as(empty.toString()).isZero();
    assertThat(empty.out).isEmpty();

    Result set = run("config", ds, "--set", "owner=ml", "--set", "url=a=b", "--set", "stale=x");
    assertThat(set.code).as(set.toString()).isZero();
    assertThat(set.err).isEqualTo("Set 3 keys: " + ds + " is now at version 2\n");
    assertThat(run("config", ds).out).isEqualTo("owner\tml\nstale\tx\nurl\ta=b\n");

    Result both = run("config", ds, "--set", "owner=data", "--unset", "stale");
    assertThat(both.code).as(both.toString()).isZero();
    assertThat(both.err).isEqualTo("Set 1 key, removed 1 key: " + ds + " is now at version 3\n");
    assertThat(run("config", ds).out).isEqualTo("owner\tdata\nurl\ta=b\n");
    assertThat(run("config", ds, "--as-of", "2").out).isEqualTo("owner\tml\nstale\tx\nurl\ta=b\n");

    Result unset = run("config", ds, "--unset", "url");
    assertThat(unset.err).isEqualTo("Removed 1 key: " + ds + " is now at version 4\n");
    assertThat(run("count", ds).out).isEqualTo("2\n");
  }

  @Test
  void badInputIsOneLineAndCommitsNothing() throws Exception {
    String ds = create();
    Result noEquals = run("config", ds, "--set", "owner");
    assertThat(noEquals.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(noEquals.err).isEqualTo("javelin: --set takes KEY=VALUE, not 'owner'\n");

    Result bad = run("config", ds, "--set", "lance.compaction.max_data_files_per_fragment=-1");
    assertThat(bad.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(bad.err).isEqualTo("javelin: Table config lance.compaction.max_data_files_per_fragment is not a"
        + " positive integer: '-1'\n");

    Result both = run("config", ds, "--set", "a=1", "--unset", "a");
    assertThat(both.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(both.err).isEqualTo("javelin: Config key 'a' is both set and removed: " + ds + "\n");

    Result old = run("config", ds, "--as-of", "1", "--set", "a=1");
    assertThat(old.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(old.err).isEqualTo("javelin: --set and --unset change the newest version: drop --as-of and --tag\n");

    assertThat(run("versions", ds).out.split("\n")).hasSize(2); // the header and version 1
  }
}
