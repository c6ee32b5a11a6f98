package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DatasetCommandsTest extends CliTestBase {
  private static final String PEOPLE = "id,name,score\n1,ann,1.5\n2,bob,\n3,cy,3.25\n";

  private String create() throws Exception {
    text("people.csv", PEOPLE);
    Result r = run("create", path("ds"), "--input", path("people.csv"));
    assertThat(r.code).as(r.toString()).isZero();
    return path("ds");
  }

  @Test
  void createThenScanAsJsonLines() throws Exception {
    String ds = create();
    Result r = run("scan", ds, "--format", "jsonl");
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(r.out).isEqualTo("{\"id\":1,\"name\":\"ann\",\"score\":1.5}\n"
        + "{\"id\":2,\"name\":\"bob\",\"score\":null}\n"
        + "{\"id\":3,\"name\":\"cy\",\"score\":3.25}\n");
    assertThat(r.err).isEqualTo("(3 rows)\n");
  }

  @Test
  void createReportsVersionAndFragments() throws Exception {
    text("people.csv", PEOPLE);
    Result r = run("create", path("ds"), "--input", path("people.csv"), "--max-rows-per-file", "2",
        "--version", "2.0");
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(r.err).isEqualTo("Created " + path("ds") + ": version 1, 3 rows in 2 fragments (Lance 2.0 files)\n");
  }

  @Test
  void maxPageBytesWritesSmallerPages() throws Exception {
    StringBuilder csv = new StringBuilder("id,name\n");
    for (int i = 0; i < 20_000; i++) {
      csv.append(i).append(",name-").append(i).append('\n');
    }
    text("many.csv", csv.toString());
    for (String pageBytes : new String[] {null, "4K"}) {
      String ds = path(pageBytes == null ? "default-pages" : "small-pages");
      Result r = pageBytes == null ? run("create", ds, "--input", path("many.csv"))
          : run("create", ds, "--input", path("many.csv"), "--max-page-bytes", pageBytes);
      assertThat(r.code).as(r.toString()).isZero();
      Path data;
      try (var files = Files.list(Path.of(ds, "data"))) {
        data = files.findFirst().orElseThrow();
      }
      Result info = run("file", "info", data.toString());
      assertThat(info.code).as(info.toString()).isZero();
      if (pageBytes == null) {
        assertThat(info.out).contains(" 1 page ");
      } else {
        assertThat(info.out).doesNotContain(" 1 page ").contains(" pages");
      }
      assertThat(run("count", ds).out.trim()).isEqualTo("20000");
    }
    assertThat(run("create", path("bad"), "--input", path("many.csv"), "--max-page-bytes", "512").err)
        .isEqualTo("javelin: --max-page-bytes must be at least 1K (1024 bytes), got 512\n");
  }

  @Test
  void appendParsesCsvWithTheDatasetsTypes() throws Exception {
    String ds = create();
    // "4.0" would infer float64 for score in a CSV on its own; "" would infer utf8 for id.
    text("more.csv", "name,id,score\ndee,4,4\n");
    Result r = run("append", ds, "--input", path("more.csv"));
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(r.err).contains("version 2, 4 rows in 2 fragments");
    Result scan = run("scan", ds, "--columns", "id,score", "--format", "csv");
    assertThat(scan.out).isEqualTo("id,score\n1,1.5\n2,\n3,3.25\n4,4.0\n");
  }

  @Test
  void takeCountVersionsAndAsOf() throws Exception {
    String ds = create();
    text("more.csv", "id,name,score\n4,dee,4\n");
    assertThat(run("append", ds, "--input", path("more.csv")).code).isZero();

    Result take = run("take", ds, "--rows", "3,0,3", "--columns", "name", "--format", "csv");
    assertThat(take.out).isEqualTo("name\ndee\nann\ndee\n");
    assertThat(run("count", ds).out).isEqualTo("4\n");
    assertThat(run("count", ds, "--as-of", "1").out).isEqualTo("3\n");

    Result versions = run("versions", ds);
    assertThat(versions.code).as(versions.toString()).isZero();
    String[] lines = versions.out.split("\n");
    assertThat(lines).hasSize(3);
    assertThat(lines[0]).startsWith("version  timestamp");
    assertThat(lines[1]).matches("\\s*1  \\S+\\s+Overwrite\\s+3");
    assertThat(lines[2]).matches("\\s*2  \\S+\\s+Append\\s+4");
  }

  @Test
  void describeShowsSchemaAndFragments() throws Exception {
    String ds = create();
    Result r = run("describe", ds);
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(r.out).contains("version   1 (")
        .contains("files     Lance 2.1\n")
        .contains("rows      3 live in 1 fragment\n")
        .contains("schema (field id, name, type):\n  0  id     int64\n  1  name   string\n  2  score  double\n")
        .contains("fragments (id, rows, data files):\n  0  3 rows\n       data/")
        .contains("indices (name, type, columns, live fragments answered):\n  (none)\n");
  }

  @Test
  void overwriteReplacesRowsAndKeepsOldVersions() throws Exception {
    String ds = create();
    text("other.csv", "k\nx\ny\n");
    assertThat(run("overwrite", ds, "--input", path("other.csv")).code).isZero();
    assertThat(run("scan", ds, "--format", "csv").out).isEqualTo("k\nx\ny\n");
    assertThat(run("scan", ds, "--as-of", "1", "--columns", "name", "--format", "csv").out)
        .isEqualTo("name\nann\nbob\ncy\n");
  }

  @Test
  void errorsNameWhatIsWrong() throws Exception {
    String ds = create();
    Result none = run("scan", path("nothing"));
    assertThat(none.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(none.err).isEqualTo("javelin: No such dataset (the directory does not exist): " + path("nothing") + "\n");

    Files.createDirectories(dir.resolve("empty"));
    Result empty = run("count", path("empty"));
    assertThat(empty.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(empty.err).isEqualTo("javelin: No dataset (no manifest in _versions/): " + path("empty") + "\n");

    Result col = run("scan", ds, "--columns", "id,nmae");
    assertThat(col.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(col.err)
        .isEqualTo("javelin: No column 'nmae' in " + ds + " (its columns: id, name, score, _rowid, _rowaddr)\n");

    Result take = run("take", ds, "--rows", "3");
    assertThat(take.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(take.err).isEqualTo("javelin: Row 3 is out of range: " + ds + " (version 1) has 3 rows\n");

    Result version = run("count", ds, "--as-of", "7");
    assertThat(version.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(version.err).isEqualTo("javelin: Dataset has no version 7: " + ds + "\n");

    Result exists = run("create", ds, "--input", path("people.csv"));
    assertThat(exists.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(exists.err).isEqualTo("javelin: A dataset already exists: " + ds + "\n");

    text("bad.csv", "id,other\n1,2\n");
    Result mismatch = run("append", ds, "--input", path("bad.csv"));
    assertThat(mismatch.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(mismatch.err).startsWith("javelin: ");
    assertThat(run("count", ds).out).isEqualTo("3\n");
  }

  @Test
  void scanAndCountWithAFilter() throws Exception {
    String ds = create();
    Result r = run("scan", ds, "--filter", "score > 1 OR name LIKE 'b%'", "--columns", "name", "--format", "csv");
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(r.out).isEqualTo("name\nann\nbob\ncy\n");
    Result page = run("scan", ds, "--where", "id >= 2", "--offset", "1", "--limit", "5", "--format", "csv",
        "--columns", "id");
    assertThat(page.out).isEqualTo("id\n3\n");
    assertThat(run("count", ds, "--filter", "score IS NULL").out).isEqualTo("1\n");

    Result unknown = run("count", ds, "--filter", "x > 1");
    assertThat(unknown.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(unknown.err).isEqualTo("javelin: Filter 'x > 1' names column 'x' which the dataset does not have\n");
    Result syntax = run("scan", ds, "--filter", "id >");
    assertThat(syntax.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(syntax.err).isEqualTo("javelin: Cannot parse 'id >' at position 5: expected a value but found the end\n");
  }
}
