package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Inputs of create, append and update: format detection, CSV encodings, delimiters and
 * inference, --dry-run, and errors that name the data that does not fit the dataset.
 */
class InputCommandsTest extends CliTestBase {
  private static final String READS = "; Javelin reads Parquet, JSON Lines, Arrow IPC and CSV";

  private void assertRefused(Result r, String message) {
    assertThat(r.code).as(r.toString()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(r.err).isEqualTo("javelin: " + message + "\n");
    assertThat(Files.exists(dir.resolve("ds"))).isFalse();
  }

  @Test
  void otherFormatsAreNamedAndRefused() throws Exception {
    bytes("data.csv.gz", new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0});
    assertRefused(run("create", path("ds"), "--input", path("data.csv.gz")),
        path("data.csv.gz") + " looks like a gzip-compressed file" + READS + " (--input-format forces one)");
    bytes("book.xlsx", new byte[] {'P', 'K', 3, 4, 20, 0});
    assertRefused(run("create", path("ds"), "--input", path("book.xlsx")),
        path("book.xlsx") + " looks like a zip archive (or an Excel or other Office file)" + READS
            + " (--input-format forces one)");
    bytes("blob.bin", new byte[] {7, 0, 1, 2, 3});
    assertRefused(run("create", path("ds"), "--input", path("blob.bin")),
        path("blob.bin") + " looks like binary data (first bytes 07 00 01 02)" + READS + " (--input-format forces one)");
    text("rows.json", "[{\"a\": 1}]\n");
    assertRefused(run("create", path("ds"), "--input", path("rows.json")),
        path("rows.json") + " looks like a JSON array" + READS + " (JSON Lines: one object per line)");
    text("t.parquet", "a,b\n1,2\n");
    assertRefused(run("file", "write", path("ds"), "--input", path("t.parquet")),
        path("t.parquet") + " is named like Parquet but does not start like it (first bytes 61 2C 62 0A)" + READS);

    // --input-format forces a reading: this JSON-looking line is one CSV header cell.
    text("brace.csv", "{x}\n1\n");
    Result forced = run("create", path("ds"), "--input", path("brace.csv"), "--input-format", "csv");
    assertThat(forced.code).as(forced.toString()).isZero();
    assertThat(run("scan", path("ds"), "--format", "csv").out).isEqualTo("{x}\n1\n");
  }

  @Test
  void aDamagedArrowFileIsBadInputAndNothingIsCreated() throws Exception {
    text("rows.csv", "id\n1\n2\n");
    assertThat(run("create", path("src"), "--input", path("rows.csv")).code).isZero();
    assertThat(run("scan", path("src"), "--format", "arrow", "--output", path("rows.arrow")).code).isZero();
    byte[] whole = Files.readAllBytes(dir.resolve("rows.arrow"));
    bytes("cut.arrow", java.util.Arrays.copyOf(whole, whole.length / 2));
    Result create = run("create", path("ds"), "--input", path("cut.arrow"));
    assertThat(create.code).as(create.toString()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(create.err).startsWith("javelin: Cannot read " + path("cut.arrow")
        + " as an Arrow IPC file: missing Magic number");
    assertThat(create.err.split("\n")).hasSize(1);
    assertThat(Files.exists(dir.resolve("ds"))).isFalse();
    Result append = run("append", path("src"), "--input", path("cut.arrow"));
    assertThat(append.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(append.err).isEqualTo(create.err);
    Result add = run("add-columns", path("src"), "--input", path("cut.arrow"));
    assertThat(add.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(add.err).startsWith("javelin: Cannot read " + path("cut.arrow") + " as an Arrow IPC file: ");
    assertThat(run("versions", path("src")).out.split("\n")).hasSize(2);
  }

  @Test
  void aCsvThatIsNotUtf8NamesTheByteAndReadsWithItsEncoding() throws Exception {
    bytes("latin1.csv", "name,city\nzoe,Bogot\u00e1\n".getBytes(StandardCharsets.ISO_8859_1));
    assertRefused(run("create", path("ds"), "--input", path("latin1.csv")),
        path("latin1.csv") + " is not UTF-8 text: line 2 has byte 0xE1 (at byte offset 19) that is not valid "
            + "UTF-8; name its encoding with --encoding (e.g. --encoding latin1)");
    Result r = run("create", path("ds"), "--input", path("latin1.csv"), "--encoding", "latin1");
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(run("scan", path("ds"), "--format", "jsonl").out).isEqualTo("{\"name\":\"zoe\",\"city\":\"Bogot\u00e1\"}\n");
    Result unknown = run("create", path("ds2"), "--input", path("latin1.csv"), "--encoding", "klingon");
    assertThat(unknown.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(unknown.err).isEqualTo("javelin: Unknown --encoding 'klingon' (e.g. utf-8, latin1, windows-1252, "
        + "utf-16)\n");
  }

  @Test
  void delimitersAreFoundOrGiven() throws Exception {
    text("semi.csv", "id;name;price\n1;ann;1,5\n2;bob;2\n");
    Result semi = run("create", path("semi"), "--input", path("semi.csv"));
    assertThat(semi.code).as(semi.toString()).isZero();
    assertThat(run("scan", path("semi"), "--format", "jsonl").out)
        .isEqualTo("{\"id\":1,\"name\":\"ann\",\"price\":\"1,5\"}\n{\"id\":2,\"name\":\"bob\",\"price\":\"2\"}\n");
    text("tabs.tsv", "id\tname\n1\tann, bob\n");
    assertThat(run("create", path("tabs"), "--input", path("tabs.tsv")).code).isZero();
    assertThat(run("scan", path("tabs"), "--format", "csv").out).isEqualTo("id,name\n1,\"ann, bob\"\n");
    text("pipes.txt", "id|name\n1|ann\n");
    assertThat(run("create", path("pipes"), "--input", path("pipes.txt"), "--delimiter", "|").code).isZero();
    assertThat(run("scan", path("pipes"), "--format", "csv").out).isEqualTo("id,name\n1,ann\n");
    text("tab.csv", "id\tname\n1\tann\n");
    assertThat(run("create", path("tab"), "--input", path("tab.csv"), "--delimiter", "tab").code).isZero();
    assertThat(run("scan", path("tab"), "--format", "csv").out).isEqualTo("id,name\n1,ann\n");
  }

  @Test
  void inferenceKeepsDatesTimestampsAndLeadingZeros() throws Exception {
    text("events.csv", "id,code,day,at,atz,amount\n"
        + "1,01234,2024-02-03,2024-02-03 10:00:00,2024-02-03T10:00:00+02:00,0.5\n"
        + "2,00042,2024-02-04,2024-02-03T11:30:00.25,2024-02-03T10:00:00Z,-0.25\n"
        + "3,7,,,,0\n");
    Result dry = run("create", path("ds"), "--input", path("events.csv"), "--dry-run");
    assertThat(dry.code).as(dry.toString()).isZero();
    String columns = "Columns of " + path("events.csv") + " (inferred; --schema sets them):\n"
        + "  id      int64\n"
        + "  code    utf8\n"
        + "  day     date32\n"
        + "  at      timestamp[us]\n"
        + "  atz     timestamp[us,UTC]\n"
        + "  amount  float64\n";
    assertThat(dry.out).isEqualTo(columns);
    assertThat(dry.err).isEqualTo("Dry run: nothing committed\n");
    assertThat(Files.exists(dir.resolve("ds"))).isFalse();

    Result create = run("create", path("ds"), "--input", path("events.csv"));
    assertThat(create.code).as(create.toString()).isZero();
    assertThat(create.out).isEqualTo(columns);
    assertThat(run("scan", path("ds"), "--format", "jsonl").out).isEqualTo(
        "{\"id\":1,\"code\":\"01234\",\"day\":\"2024-02-03\",\"at\":\"2024-02-03T10:00:00\","
            + "\"atz\":\"2024-02-03T08:00:00Z\",\"amount\":0.5}\n"
            + "{\"id\":2,\"code\":\"00042\",\"day\":\"2024-02-04\",\"at\":\"2024-02-03T11:30:00.25\","
            + "\"atz\":\"2024-02-03T10:00:00Z\",\"amount\":-0.25}\n"
            + "{\"id\":3,\"code\":\"7\",\"day\":null,\"at\":null,\"atz\":null,\"amount\":0.0}\n");
  }

  @Test
  void schemaTakesDecimalsAndTheNamesDescribePrints() throws Exception {
    text("prices.csv", "id,price,big,at\n1,12.5,123456789012345678901234567.891,2024-02-03T10:00:00Z\n2,,,\n");
    Result r = run("create", path("ds"), "--input", path("prices.csv"), "--schema",
        "id:int64,price:decimal(10,2)?,big:decimal:128:38:3?,at:timestamp:us:UTC?");
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(r.out).isEmpty();
    assertThat(run("scan", path("ds"), "--format", "csv").out)
        .isEqualTo("id,price,big,at\n1,12.50,123456789012345678901234567.891,2024-02-03T10:00:00Z\n2,,,\n");

    text("more.csv", "id,price,big,at\n3,1.234,,\n");
    Result tooPrecise = run("append", path("ds"), "--input", path("more.csv"));
    assertThat(tooPrecise.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(tooPrecise.err).isEqualTo("javelin: Cannot read '1.234' as decimal(10,2) at row 1, column 'price' of "
        + path("more.csv") + " (line 2), the type of the column in the dataset\n");
  }

  @Test
  void appendErrorsNameTheDataAgainstTheDatasetsColumns() throws Exception {
    text("orders.csv", "id,customer\n1,ann\n");
    assertThat(run("create", path("ds"), "--input", path("orders.csv"), "--schema", "id:int64,customer:utf8").code)
        .isZero();

    text("empty-cell.csv", "id,customer\n2,bob\n3,\n");
    Result empty = run("append", path("ds"), "--input", path("empty-cell.csv"));
    assertThat(empty.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(empty.err).isEqualTo("javelin: Empty cell at row 2, column 'customer' of " + path("empty-cell.csv")
        + " (line 3), but column 'customer' of the dataset is not nullable\n");

    text("not-a-number.csv", "id,customer\nx7,bob\n");
    Result number = run("append", path("ds"), "--input", path("not-a-number.csv"));
    assertThat(number.err).isEqualTo("javelin: Cannot read 'x7' as int64 at row 1, column 'id' of "
        + path("not-a-number.csv") + " (line 2), the type of the column in the dataset\n");

    text("extra.csv", "id,customer,email\n2,bob,b@x\n");
    Result extra = run("append", path("ds"), "--input", path("extra.csv"));
    assertThat(extra.err).isEqualTo("javelin: " + path("extra.csv") + " has column 'email', which the dataset "
        + "does not have (its columns: id, customer)\n");

    text("missing.csv", "id\n2\n");
    Result missing = run("append", path("ds"), "--input", path("missing.csv"));
    assertThat(missing.err).isEqualTo("javelin: The dataset has column 'customer', which " + path("missing.csv")
        + " does not have (its columns: id)\n");

    text("header-only.csv", "id,customer\n");
    Result headerOnly = run("append", path("ds"), "--input", path("header-only.csv"));
    assertThat(headerOnly.code).as(headerOnly.toString()).isZero();
    assertThat(headerOnly.err).isEqualTo(path("header-only.csv") + " has no rows: nothing to append, nothing "
        + "committed\n");
    assertThat(run("versions", path("ds")).out.split("\n")).hasSize(2);
    assertThat(run("count", path("ds")).out).isEqualTo("1\n");
  }

  @Test
  void updateSetsDateAndTimestampColumnsFromStrings() throws Exception {
    text("people.csv", "id,born,seen\n1,1815-12-10,2024-01-01T00:00:00Z\n2,1906-12-09,2024-01-02T00:00:00Z\n");
    assertThat(run("create", path("ds"), "--input", path("people.csv")).code).isZero();
    Result r = run("update", path("ds"), "--where", "born < date '1900-01-01'", "--set", "born='2024-02-03'",
        "--set", "seen='2024-02-03 10:00:00'");
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(run("scan", path("ds"), "--format", "csv").out)
        .isEqualTo("id,born,seen\n2,1906-12-09,2024-01-02T00:00:00Z\n1,2024-02-03,2024-02-03T10:00:00Z\n");
  }

  @ParameterizedTest
  @ValueSource(strings = {"create", "append", "overwrite", "add-columns", "update", "scan", "file write", "file read"})
  void helpFitsEightyColumnsWithoutFormatWarnings(String command) {
    PrintStream stderr = System.err;
    ByteArrayOutputStream warnings = new ByteArrayOutputStream();
    Result r;
    System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
    try {
      r = run((command + " --help").split(" "));
    } finally {
      System.setErr(stderr);
    }
    assertThat(r.code).isZero();
    assertThat(warnings.toString(StandardCharsets.UTF_8)).isEmpty();
    assertThat(r.out).doesNotContain("[picocli WARN]");
    for (String line : r.out.split("\n")) {
      assertThat(line.length()).as(line).isLessThanOrEqualTo(80);
    }
  }
}
