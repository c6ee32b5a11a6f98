package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;

/** JSON Lines in: inferred schemas, the CLI's own output read back equal, bad lines named. */
class JsonLinesCommandsTest extends CliTestBase {
  // As scan --format jsonl prints rows: keys in column order, every key on every line.
  static final String ROWS = "{\"id\":1,\"name\":\"ann\",\"score\":1.5,\"ok\":true,\"day\":\"2024-02-03\","
      + "\"at\":\"2024-02-03T10:00:00Z\",\"local\":\"2024-02-03T10:00:00.25\",\"tags\":[\"a\",\"b\"],"
      + "\"address\":{\"city\":\"Oslo\",\"zip\":150},\"matrix\":[[1,2],[3]]}\n"
      + "{\"id\":2,\"name\":null,\"score\":null,\"ok\":null,\"day\":null,\"at\":null,\"local\":null,\"tags\":null,"
      + "\"address\":null,\"matrix\":null}\n"
      + "{\"id\":3,\"name\":\"c\\\"q\\u2028\",\"score\":-2.0,\"ok\":false,\"day\":\"1999-12-31\","
      + "\"at\":\"2024-02-03T10:00:00.500Z\",\"local\":\"2024-02-03T23:59:59\",\"tags\":[],"
      + "\"address\":{\"city\":null,\"zip\":7},\"matrix\":[[],null]}\n";

  @Test
  void createInfersTypesAndScanPrintsTheSameLines() throws Exception {
    text("rows.jsonl", ROWS);
    Result create = run("create", path("ds"), "--input", path("rows.jsonl"));
    assertThat(create.code).as(create.toString()).isZero();
    assertThat(create.out).isEqualTo("Columns of " + path("rows.jsonl") + " (inferred; --schema sets them):\n"
        + "  id       int64\n"
        + "  name     utf8\n"
        + "  score    float64\n"
        + "  ok       bool\n"
        + "  day      date32\n"
        + "  at       timestamp[us,UTC]\n"
        + "  local    timestamp[us]\n"
        + "  tags     list<utf8>\n"
        + "  address  struct<city: utf8, zip: int64>\n"
        + "  matrix   list<list<int64>>\n");
    Result scan = run("scan", path("ds"), "--format", "jsonl");
    assertThat(scan.out).isEqualTo(ROWS);

    // The output of scan, appended, reads back as the same rows again.
    text("again.jsonl", scan.out);
    Result append = run("append", path("ds"), "--input", path("again.jsonl"));
    assertThat(append.code).as(append.toString()).isZero();
    assertThat(run("scan", path("ds"), "--format", "jsonl").out).isEqualTo(ROWS + ROWS);
  }

  @Test
  void appendParsesLinesAsTheDatasetsColumns() throws Exception {
    ParquetFiles.write(dir.resolve("people.parquet"), ParquetCommandsTest.SCHEMA, CompressionCodecName.SNAPPY,
        rows -> rows.add(rows.newRow().append("id", 9L)));
    assertThat(run("create", path("ds"), "--input", path("people.parquet")).code).isZero();
    // The CLI's own lines of a Parquet-made dataset: int16, decimals, binary, a local timestamp in
    // milliseconds, INT96 nanoseconds, all read as the dataset's types.
    text("rows.jsonl", ParquetCommandsTest.ROWS);
    Result append = run("append", path("ds"), "--input", path("rows.jsonl"));
    assertThat(append.code).as(append.toString()).isZero();
    String nine = "{\"id\":9,\"small\":null,\"name\":null,\"score\":null,\"ratio\":null,\"ok\":null,\"raw\":null,"
        + "\"day\":null,\"at\":null,\"local\":null,\"price\":null,\"big\":null,\"tags\":null,\"address\":null,"
        + "\"legacy\":null}\n";
    assertThat(run("scan", path("ds"), "--format", "jsonl").out).isEqualTo(nine + ParquetCommandsTest.ROWS);

    text("bad.jsonl", "{\"id\":10,\"price\":1.234}\n");
    Result bad = run("append", path("ds"), "--input", path("bad.jsonl"));
    assertThat(bad.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(bad.err).isEqualTo("javelin: Line 1 of " + path("bad.jsonl")
        + ": field 'price' holds 1.234, which has more than 2 digits after the point\n");
    text("null.jsonl", "{\"id\":null}\n");
    Result nullId = run("append", path("ds"), "--input", path("null.jsonl"));
    assertThat(nullId.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(nullId.err).isEqualTo("javelin: Line 1 of " + path("null.jsonl")
        + ": field 'id' is null, but the column is not nullable\n");
    assertThat(run("count", path("ds")).out).isEqualTo("4\n");
  }

  @Test
  void badLinesAreNamed() throws Exception {
    text("rows.jsonl", "{\"a\":1}\n\n{\"a\":2,\"b\":3}\n");
    Result extra = run("create", path("ds"), "--input", path("rows.jsonl"), "--schema", "a:int64");
    assertThat(extra.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(extra.err).isEqualTo("javelin: Line 3 of " + path("rows.jsonl")
        + " has field 'b', which is not a column (columns: a)\n");
    assertThat(Files.exists(dir.resolve("ds"))).isFalse();

    text("broken.jsonl", "{\"a\":1}\n{\"a\":\n");
    Result broken = run("create", path("ds"), "--input", path("broken.jsonl"));
    assertThat(broken.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(broken.err).startsWith("javelin: Line 2 of " + path("broken.jsonl") + " is not JSON: ");
    assertThat(broken.err.split("\n")).hasSize(1);

    text("kinds.jsonl", "{\"a\":1}\n{\"a\":\"x\"}\n");
    Result kinds = run("create", path("ds"), "--input", path("kinds.jsonl"), "--schema", "a:int64");
    assertThat(kinds.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(kinds.err).isEqualTo("javelin: Line 2 of " + path("kinds.jsonl")
        + ": field 'a' holds \"x\", which is not int64\n");
    assertThat(Files.exists(dir.resolve("ds"))).isFalse();

    // A field first seen after the lines the columns are inferred from.
    StringBuilder late = new StringBuilder();
    for (int i = 0; i < JsonLinesInput.SAMPLE_LINES; i++) {
      late.append("{\"a\":").append(i).append("}\n");
    }
    text("late.jsonl", late + "{\"a\":1,\"b\":2}\n");
    Result lateField = run("create", path("ds"), "--input", path("late.jsonl"));
    assertThat(lateField.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(lateField.err).isEqualTo("javelin: Line 10001 of " + path("late.jsonl") + " has field 'b', which is "
        + "not a column (columns: a, inferred from the first 10,000 lines; --schema gives them)\n");
    assertThat(Files.exists(dir.resolve("ds"))).isFalse();

    // Mixed kinds without --schema: text, each value as its JSON.
    Result mixed = run("create", path("ds"), "--input", path("kinds.jsonl"));
    assertThat(mixed.code).as(mixed.toString()).isZero();
    assertThat(run("scan", path("ds"), "--format", "csv").out).isEqualTo("a\n1\nx\n");
  }
}
