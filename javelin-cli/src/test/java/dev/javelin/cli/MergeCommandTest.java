package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class MergeCommandTest extends CliTestBase {
  private String create() throws Exception {
    text("people.csv", "id,name,score\n1,ann,1.5\n2,bob,2.0\n3,cy,3.25\n4,dee,4.0\n");
    Result r = run("create", path("ds"), "--input", path("people.csv"));
    assertThat(r.code).as(r.toString()).isZero();
    return path("ds");
  }

  private static String scan(String ds) {
    return run("scan", ds, "--format", "csv", "--where", "id > 0 OR id IS NULL").out;
  }

  private List<Path> files() throws Exception {
    try (Stream<Path> s = Files.walk(dir.resolve("ds"))) {
      return s.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
    }
  }

  @Test
  void upsertFromCsvByDefault() throws Exception {
    String ds = create();
    text("changes.csv", "id,name,score\n2,bea,20.0\n5,eve,5.5\n");
    Result r = run("merge", ds, "--input", path("changes.csv"), "--on", "id");
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(r.err).isEqualTo("Merged " + path("changes.csv") + ": 1 row inserted, 1 row updated, 0 rows deleted "
        + "(1 attempt): " + ds + " is now at version 2 (5 rows)\n");
    assertThat(run("scan", ds, "--format", "csv", "--where", "id >= 2 AND id <= 5").out.lines().sorted()
        .collect(Collectors.toList()))
        .containsExactly("2,bea,20.0", "3,cy,3.25", "4,dee,4.0", "5,eve,5.5", "id,name,score");
  }

  @Test
  void everyClauseFromJsonLinesAndParquet() throws Exception {
    String ds = create();
    text("c.jsonl", "{\"id\": 1, \"name\": \"x\", \"score\": 0.5}\n{\"id\": 9, \"name\": \"new\", \"score\": 9.0}\n");
    Result del = run("merge", ds, "--input", path("c.jsonl"), "--on", "id", "--when-matched", "delete",
        "--when-not-matched", "nothing");
    assertThat(del.code).as(del.toString()).isZero();
    assertThat(del.err).startsWith("Merged " + path("c.jsonl") + ": 0 rows inserted, 0 rows updated, 1 row deleted");
    assertThat(run("count", ds).out).isEqualTo("3\n");

    // A Parquet source, written by scan: keep only its keys, update if the score grew.
    text("src.csv", "id,name,score\n2,up,1.0\n3,up,30.0\n");
    assertThat(run("create", path("src"), "--input", path("src.csv")).code).isZero();
    assertThat(run("scan", path("src"), "--format", "parquet", "-o", path("src.parquet")).code).isZero();
    Result upd = run("merge", ds, "--input", path("src.parquet"), "--on", "id",
        "--update-if", "source.score > target.score", "--when-not-matched-by-source", "delete");
    assertThat(upd.code).as(upd.toString()).isZero();
    assertThat(upd.err).startsWith("Merged " + path("src.parquet") + ": 0 rows inserted, 1 row updated, 1 row deleted");
    assertThat(run("scan", ds, "--format", "csv").out.lines().sorted().collect(Collectors.toList()))
        .containsExactly("2,bob,2.0", "3,up,30.0", "id,name,score");

    Result nothing = run("merge", ds, "--input", path("src.parquet"), "--on", "id", "--when-matched", "nothing");
    assertThat(nothing.err).isEqualTo("Merged " + path("src.parquet") + ": 0 rows inserted, 0 rows updated, 0 rows "
        + "deleted (1 attempt); nothing committed, " + ds + " stays at version 3\n");
  }

  @Test
  void explainSaysWhetherABTreeFindsTheMatches() throws Exception {
    String ds = create();
    text("c.csv", "id,name,score\n2,b,1.0\n");
    Result before = run("merge", ds, "--input", path("c.csv"), "--on", "id", "--explain");
    assertThat(before.code).as(before.toString()).isZero();
    assertThat(before.out).contains("key lookup: full scan of the key columns (no BTree or bitmap index on id)");
    assertThat(run("index", "create", ds, "--column", "id", "--type", "btree").code).isZero();
    Result after = run("merge", ds, "--input", path("c.csv"), "--on", "id", "--explain");
    assertThat(after.out).isEqualTo("merge insert on: id\nwhen matched: update all\nwhen not matched: insert all\n"
        + "when not matched by source: keep\nkey lookup: btree index id_idx on id for fragments [0]\n"
        + "fragments scanned: 0 []\n");
    assertThat(after.err).contains("nothing committed");
    assertThat(run("count", ds).out).isEqualTo("4\n");
  }

  @Test
  void badInputFailsWithOneLineAndLeavesNothing() throws Exception {
    String ds = create();
    List<Path> before = files();
    String versions = run("versions", ds).out;
    text("dup.csv", "id,name,score\n2,a,1.0\n2,b,2.0\n");
    Result dup = run("merge", ds, "--input", path("dup.csv"), "--on", "id");
    assertThat(dup.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(dup.err).isEqualTo("javelin: The source has two rows with key id=2 (rows 0 and 1); each key may "
        + "appear once in a merge insert's source: " + ds + "\n");

    text("ok.csv", "id,name,score\n2,a,1.0\n");
    Result fail = run("merge", ds, "--input", path("ok.csv"), "--on", "id", "--when-matched", "fail");
    assertThat(fail.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(fail.err).startsWith("javelin: Source row with key id=2 matched a row of the dataset");

    Result key = run("merge", ds, "--input", path("ok.csv"), "--on", "nope");
    assertThat(key.err).isEqualTo("javelin: Key column 'nope' does not exist in the dataset: " + ds + "\n");
    Result action = run("merge", ds, "--input", path("ok.csv"), "--on", "id", "--when-matched", "upsert");
    assertThat(action.err).isEqualTo("javelin: --when-matched must be update, delete, nothing or fail, not 'upsert'\n");
    Result cond = run("merge", ds, "--input", path("ok.csv"), "--on", "id", "--update-if", "target.nope > 1");
    assertThat(cond.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(cond.err).startsWith("javelin: ").contains("target.nope");
    Result missing = run("merge", ds, "--input", path("none.csv"), "--on", "id");
    assertThat(missing.err).isEqualTo("javelin: Input file not found: " + path("none.csv") + "\n");
    assertThat(files()).isEqualTo(before);
    assertThat(run("versions", ds).out).isEqualTo(versions);
  }
}
