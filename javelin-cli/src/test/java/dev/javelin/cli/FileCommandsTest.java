package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The data paths of {@code file write}, {@code file read} and {@code file info}, for both file
 * versions. These need the 2.0 and 2.1 encoders.
 */
class FileCommandsTest extends CliTestBase {
  private static final String CSV = "id,name,score,ok\n1,ada,0.5,true\n2,,1.25,false\n3,\"c, d\",,\n";

  private String write(String version, Path input, String... extra) {
    String out = path("out-" + version + ".lance");
    String[] args = new String[6 + extra.length];
    System.arraycopy(new String[] {"file", "write", out, "--input", input.toString(), "--version=" + version}, 0,
        args, 0, 6);
    System.arraycopy(extra, 0, args, 6, extra.length);
    Result r = run(args);
    assertThat(r.code).as(r.toString()).isEqualTo(0);
    assertThat(r.out).isEmpty();
    assertThat(r.err).matches("Wrote [0-9,]+ rows and \\d+ columns to " + Pattern.quote(out)
        + " \\(Lance " + Pattern.quote(version) + ", [0-9.,]+ (B|KiB|MiB)\\)\n");
    return out;
  }

  private static Result ok(String... args) {
    Result r = run(args);
    assertThat(r.code).as(r.toString()).isEqualTo(0);
    return r;
  }

  private String sampleLance(String version) throws Exception {
    Path arrow = dir.resolve("sample.arrow");
    if (!Files.exists(arrow)) {
      SampleData.writeArrow(arrow, allocator, 300);
    }
    return write(version, arrow);
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void csvRoundTripsInEveryFormat(String version) throws Exception {
    String lance = write(version, text("in.csv", CSV));
    Result table = ok("file", "read", lance);
    assertThat(table.out).isEqualTo(
        " id | name | score | ok\n"
            + "----+------+-------+-------\n"
            + "  1 | ada  |   0.5 | true\n"
            + "  2 | null |  1.25 | false\n"
            + "  3 | c, d |  null | null\n");
    assertThat(table.err).isEqualTo("(3 rows)\n");
    assertThat(ok("file", "read", lance, "--format", "jsonl").out).isEqualTo(
        "{\"id\":1,\"name\":\"ada\",\"score\":0.5,\"ok\":true}\n"
            + "{\"id\":2,\"name\":null,\"score\":1.25,\"ok\":false}\n"
            + "{\"id\":3,\"name\":\"c, d\",\"score\":null,\"ok\":null}\n");
    assertThat(ok("file", "read", lance, "--format", "csv").out).isEqualTo(CSV);
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void selectsColumnsRowsAndTakes(String version) throws Exception {
    String lance = write(version, text("in.csv", CSV));
    assertThat(ok("file", "read", lance, "--columns", "ok,id", "--rows", "1:", "--format", "csv").out)
        .isEqualTo("ok,id\nfalse,2\n,3\n");
    assertThat(ok("file", "read", lance, "--rows", ":1", "--format", "jsonl").out)
        .isEqualTo("{\"id\":1,\"name\":\"ada\",\"score\":0.5,\"ok\":true}\n");
    Result take = ok("file", "read", lance, "--take", "2,0,2", "-c", "name", "-f", "csv");
    assertThat(take.out).isEqualTo("name\n\"c, d\"\nada\n\"c, d\"\n");
    assertThat(take.err).isEqualTo("(3 rows)\n");
    // A range past the end stops there.
    Result past = ok("file", "read", lance, "--rows", "2:100", "--format", "csv");
    assertThat(past.out).isEqualTo("id,name,score,ok\n3,\"c, d\",,\n");
    Result none = ok("file", "read", lance, "--rows", "50:", "--columns", "id");
    assertThat(none.out).isEqualTo(" id\n----\n");
    assertThat(none.err).isEqualTo("(0 rows)\n");
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void readsNestedArrowDataBack(String version) throws Exception {
    String lance = sampleLance(version);
    assertThat(ok("file", "read", lance, "--rows", "0:5").out).isEqualTo(RowWritersTest.SAMPLE_TABLE);
    assertThat(ok("file", "read", lance, "--rows", "0:5", "--format", "jsonl").out)
        .isEqualTo(RowWritersTest.SAMPLE_JSONL);
    assertThat(ok("file", "read", lance, "--rows", "0:5", "--format", "csv").out).isEqualTo(RowWritersTest.SAMPLE_CSV);
    assertThat(ok("file", "read", lance, "--take", "299,0,150", "--format", "jsonl").out).isEqualTo(
        "{\"id\":299,\"name\":\"ken\",\"score\":25.7,\"vector\":[0.129,0.044,0.565,0.536],\"rating\":null,"
            + "\"tags\":[72,93,54],\"address\":{\"city\":\"Lyon\",\"zip\":21063}}\n"
            + "{\"id\":0,\"name\":\"ada\",\"score\":72.76,\"vector\":[0.683,0.048,0.309,0.942],\"rating\":1,"
            + "\"tags\":[],\"address\":{\"city\":\"Oslo\",\"zip\":10000}}\n"
            + "{\"id\":150,\"name\":\"frances\",\"score\":33.88,\"vector\":[0.718,0.213,0.028,0.133],\"rating\":2,"
            + "\"tags\":[79,94],\"address\":{\"city\":\"Porto\",\"zip\":15550}}\n");
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void readsAllRowsInSmallBatchesAndWritesArrow(String version) throws Exception {
    String lance = sampleLance(version);
    try (VectorSchemaRoot expected = SampleData.create(allocator, 300)) {
      Result jsonl = ok("file", "read", lance, "--format", "jsonl", "--batch-size", "7");
      assertThat(jsonl.out).isEqualTo(RowWritersTest.render(OutputFormat.JSONL, expected));
      assertThat(jsonl.err).isEqualTo("(300 rows)\n");

      Path arrow = dir.resolve("back.arrow");
      Result r = ok("file", "read", lance, "--format", "arrow", "--output", arrow.toString(), "--batch-size", "128");
      assertThat(r.out).isEmpty();
      assertThat(r.err).isEqualTo("Wrote 300 rows to " + arrow + "\n");
      try (ArrowFileReader back = new ArrowFileReader(FileChannel.open(arrow), allocator)) {
        assertThat(back.getVectorSchemaRoot().getSchema()).isEqualTo(SampleData.schema());
        StringBuilder all = new StringBuilder();
        while (back.loadNextBatch()) {
          all.append(RowWritersTest.render(OutputFormat.JSONL, back.getVectorSchemaRoot()));
        }
        assertThat(back.getRecordBlocks()).hasSize(3);
        assertThat(all.toString()).isEqualTo(jsonl.out);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void writesTextToAnOutputFile(String version) throws Exception {
    String lance = write(version, text("in.csv", CSV));
    Path out = dir.resolve("out.jsonl");
    Files.writeString(out, "old content that is replaced\n".repeat(10));
    Result r = ok("file", "read", lance, "--format", "jsonl", "--take", "0", "-o", out.toString());
    assertThat(r.out).isEmpty();
    assertThat(r.err).isEqualTo("Wrote 1 row to " + out + "\n");
    assertThat(Files.readString(out)).isEqualTo("{\"id\":1,\"name\":\"ada\",\"score\":0.5,\"ok\":true}\n");
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void readsArrowStreams(String version) throws Exception {
    Path stream = dir.resolve("sample.arrows");
    try (VectorSchemaRoot root = SampleData.create(allocator, 20);
        OutputStream os = Files.newOutputStream(stream);
        ArrowStreamWriter w = new ArrowStreamWriter(root, null, os)) {
      w.start();
      w.writeBatch();
      w.writeBatch();
      w.end();
    }
    assertThat(Inputs.detect(stream, null)).isEqualTo(Inputs.Format.ARROW_STREAM);
    String lance = write(version, stream);
    Result r = ok("file", "read", lance, "--format", "jsonl", "--take", "0,20");
    List<String> lines = r.out.lines().collect(Collectors.toList());
    assertThat(lines).hasSize(2);
    assertThat(lines.get(1)).isEqualTo(lines.get(0));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void streamsALargeCsvThroughSmallPages(String version) throws Exception {
    // 20,000 rows cross the CSV reader's batches of 8,192 and make many 1 KiB pages.
    String csv = "n,word,x\n" + IntStream.range(0, 20_000)
        .mapToObj(i -> i + "," + (i % 7 == 0 ? "" : "w" + (i % 100)) + "," + (i % 3 == 0 ? "" : i / 4.0) + "\n")
        .collect(Collectors.joining());
    String lance = write(version, text("big.csv", csv), "--max-page-bytes", "1K");
    assertThat(ok("file", "read", lance, "--format", "csv", "--batch-size", "5000").out).isEqualTo(csv);
    String info = ok("file", "info", lance, "--json").out;
    Matcher m = Pattern.compile("\"path\":\"n\",\"encoding\":\"Values\",\"buffer_sizes\":\\[\\],\"pages\":\\[(.*?)]}")
        .matcher(info);
    assertThat(m.find()).as(info).isTrue();
    assertThat(m.group(1).split("\\{\"rows\"").length - 1).as("pages of column n").isGreaterThan(10);
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void writesAHeaderOnlyCsvAsAnEmptyFile(String version) throws Exception {
    String lance = write(version, text("empty.csv", "a,b\n"));
    Result r = ok("file", "read", lance);
    assertThat(r.out).isEqualTo(" a | b\n---+---\n");
    assertThat(r.err).isEqualTo("(0 rows)\n");
    assertThat(ok("file", "info", lance).out).contains("rows     0\n");
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void forceReplacesTheOutput(String version) throws Exception {
    String lance = write(version, text("in.csv", CSV));
    Result r = run("file", "write", lance, "--input", text("one.csv", "x\n7\n").toString(), "--version", version,
        "--force");
    assertThat(r.code).as(r.toString()).isEqualTo(0);
    assertThat(ok("file", "read", lance, "-f", "csv").out).isEqualTo("x\n7\n");
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void unknownColumnListsTheColumns(String version) throws Exception {
    String lance = write(version, text("in.csv", CSV));
    for (String[] args : new String[][] {{"--columns", "id,nmae"}, {"--columns", "nmae", "--take", "1"}}) {
      String[] all = new String[3 + args.length];
      System.arraycopy(new String[] {"file", "read", lance}, 0, all, 0, 3);
      System.arraycopy(args, 0, all, 3, args.length);
      Result r = run(all);
      assertThat(r.code).isEqualTo(2);
      assertThat(r.out).isEmpty();
      assertThat(r.err).isEqualTo("javelin: Column 'nmae' is not in the file's schema: " + lance
          + " (its columns: id, name, score, ok)\n");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void takeOutOfRange(String version) throws Exception {
    String lance = write(version, text("in.csv", CSV));
    Result r = run("file", "read", lance, "--take", "0,3");
    assertThat(r.code).isEqualTo(2);
    assertThat(r.out).isEmpty();
    assertThat(r.err).isEqualTo("javelin: Row 3 is out of range: " + lance + " has 3 rows\n");
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void truncatedFile(String version) throws Exception {
    String lance = write(version, text("in.csv", CSV));
    byte[] whole = Files.readAllBytes(Path.of(lance));
    Path cut = bytes("cut.lance", java.util.Arrays.copyOf(whole, whole.length - 1));
    Result r = run("file", "read", cut.toString());
    assertThat(r.code).isEqualTo(2);
    assertThat(r.err).isEqualTo("javelin: Not a Lance file (no LANC magic at the end): " + cut + "\n");
    // The footer intact but the front gone: the offsets point past the end.
    byte[] tail = java.util.Arrays.copyOfRange(whole, whole.length / 2, whole.length);
    Path front = bytes("front.lance", tail);
    r = run("file", "info", front.toString());
    assertThat(r.code).isEqualTo(2);
    assertThat(r.err).startsWith("javelin: ").endsWith(": " + front + "\n");
    assertThat(r.err.lines()).hasSize(1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void infoShowsSchemaColumnsAndPages(String version) throws Exception {
    String lance = sampleLance(version);
    Result r = ok("file", "info", lance);
    assertThat(r.err).isEmpty();
    assertThat(r.out).startsWith("file     " + lance + "\nversion  " + version + "\nrows     300\nsize     "
        + Formats.size(Files.size(Path.of(lance))) + " (" + Formats.number(Files.size(Path.of(lance))) + " bytes)\n\n"
        + "schema (field id, name, type):\n"
        + "  0  id       int64 not null\n"
        + "  1  name     string not null\n"
        + "  2  score    double\n"
        + "  3  vector   fixed_size_list:float:4\n"
        + "  4  rating   int32\n"
        + "  5  tags     list\n"
        + "  6    item   int32\n"
        + "  7  address  struct\n"
        + "  8    city   string\n"
        + "  9    zip    int32\n"
        + "\ncolumns (column, field, pages, size; buffer sizes in bytes):\n");
    List<String> columnLines = r.out.lines().filter(l -> l.matches("  \\d+  \\S.*")).collect(Collectors.toList());
    List<String> pageLines = r.out.lines().filter(l -> l.matches(" +page \\d+  .*")).collect(Collectors.toList());
    List<String> expected = version.equals("2.0")
        ? List.of("id", "name", "score", "vector", "rating", "tags", "tags.item", "address", "address.city",
            "address.zip")
        : List.of("id", "name", "score", "vector", "rating", "tags.item", "address.city", "address.zip");
    // The pattern also matches the 7 top-level schema lines (nested fields are indented further).
    assertThat(columnLines).hasSize(expected.size() + 7);
    List<String> columns = columnLines.subList(7, columnLines.size());
    for (int i = 0; i < expected.size(); i++) {
      assertThat(columns.get(i)).matches("  " + (expected.size() > 10 && i < 10 ? " " : "") + i + "  "
          + Pattern.quote(expected.get(i)) + " +field \\d  \\d+ pages?  +\\d+(\\.\\d)? (B|KiB)");
    }
    assertThat(pageLines).isNotEmpty().allMatch(l -> l.matches(" +page \\d+  \\d+ rows?  buffers \\[[0-9, ]*]  \\S.*"));

    String json = ok("file", "info", lance, "--json").out;
    assertThat(json).startsWith("{\"version\":\"" + version + "\",\"rows\":300,\"schema\":["
        + "{\"id\":0,\"name\":\"id\",\"type\":\"int64\",\"nullable\":false},"
        + "{\"id\":1,\"name\":\"name\",\"type\":\"string\",\"nullable\":false},"
        + "{\"id\":2,\"name\":\"score\",\"type\":\"double\",\"nullable\":true},"
        + "{\"id\":3,\"name\":\"vector\",\"type\":\"fixed_size_list:float:4\",\"nullable\":true},"
        + "{\"id\":4,\"name\":\"rating\",\"type\":\"int32\",\"nullable\":true},"
        + "{\"id\":5,\"name\":\"tags\",\"type\":\"list\",\"nullable\":true,\"children\":["
        + "{\"id\":6,\"name\":\"item\",\"type\":\"int32\",\"nullable\":true}]},"
        + "{\"id\":7,\"name\":\"address\",\"type\":\"struct\",\"nullable\":true,\"children\":["
        + "{\"id\":8,\"name\":\"city\",\"type\":\"string\",\"nullable\":true},"
        + "{\"id\":9,\"name\":\"zip\",\"type\":\"int32\",\"nullable\":true}]}],\"columns\":[");
    assertThat(json).endsWith("]}\n");
    Matcher paths = Pattern.compile("\"path\":\"([^\"]*)\"").matcher(json);
    List<String> found = new java.util.ArrayList<>();
    while (paths.find()) {
      found.add(paths.group(1));
    }
    assertThat(found).isEqualTo(expected);
  }
}
