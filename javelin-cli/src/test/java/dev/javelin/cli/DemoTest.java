package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** The tour runs end to end as one readable stream on standard output. Needs the 2.0 and 2.1 encoders. */
class DemoTest extends CliTestBase {
  @Test
  void tourIsOneStreamInOrder() throws Exception {
    Result r = run("demo", "--dir", dir.toString());
    assertThat(r.code).as(r.toString()).isEqualTo(0);
    assertThat(r.err).as("everything goes to standard output").isEmpty();
    assertThat(dir.resolve("sample.arrow")).exists();
    assertThat(dir.resolve("sample-2.1.lance")).exists();
    assertThat(dir.resolve("sample-2.0.lance")).exists();
    String out = r.out;
    String v21 = dir.resolve("sample-2.1.lance").toString();
    String v20 = dir.resolve("sample-2.0.lance").toString();
    String ds = dir.resolve("people").toString();

    // Narration, each command and what it printed, in the order they happened.
    List<String> inOrder = new ArrayList<>();
    inOrder.add("This tour goes\nthrough fifteen short steps");
    for (int step = 1; step <= 15; step++) {
      inOrder.add("\n" + step + ". ");
      switch (step) {
        case 1 -> inOrder.add("\n$ javelin file write " + v21 + " --input " + dir.resolve("sample.arrow")
            + " --version 2.1\nWrote 300 rows and 7 columns to " + v21 + " (Lance 2.1, ");
        case 2 -> inOrder.add("\n$ javelin file info " + v21 + "\nfile     " + v21 + "\nversion  2.1\nrows     300\n");
        case 3 -> inOrder.add("\n$ javelin file read " + v21 + " --rows 0:5\n" + RowWritersTest.SAMPLE_TABLE
            + "(5 rows)\n");
        case 5 -> inOrder.add("Created " + ds + ": version 1, 300 rows in 3 fragments (Lance 2.1 files)\n");
        case 6 -> inOrder.add("$ javelin scan " + ds
            + " --filter \"rating IS NULL AND address.city IN ('Oslo', 'Lyon')\"");
        case 7 -> inOrder.add(" is now at version 2");
        case 8 -> inOrder.add("$ javelin add-columns " + ds + " --null 'note:utf8?'\n");
        case 9 -> inOrder.add("\n$ javelin count " + ds + " --as-of 1\n300\n");
        case 10 -> inOrder.add("Restored version 1: " + ds + " is now at version 5 (300 rows)\n");
        case 14 -> inOrder.add("$ javelin cluster " + ds + " --by score --target-rows-per-fragment 100\n"
            + "Clustered fragments [0, 1, 2] by score into [3, 4, 5] (300 rows moved): version 11 "
            + "(10 reserved the new fragment ids)\n"
            + "Zone maps on the keys: score_zonemap: version 12\n"
            + "Answering through row maps: id_idx ('javelin index settle' remaps them)\n");
        case 15 -> inOrder.add("$ javelin scan " + ds + " --filter 'id BETWEEN 40 AND 44' --columns id,name,score "
            + "--explain\nfilter: id BETWEEN 40 AND 44\nindex: id_idx (btree on id) answers id BETWEEN 40 AND 44\n"
            + "  through row maps for fragments: [3, 4, 5]\nfragments from index: 3 [3, 4, 5], rows from index: 5\n"
            + "fragments scanned: 0 []\n");
        default -> { }
      }
    }
    inOrder.add("$ javelin index settle " + ds + "\n"
        + "Settled indices: remapped id_idx; dropped 1 transition, no row map left: version 13\n");
    inOrder.add("\nThe files are in " + dir + ". Try:\n");
    int at = 0;
    for (String part : inOrder) {
      int found = out.indexOf(part, at);
      assertThat(found).as("after offset %d:\n%s\n--- in ---\n%s", at, part, out).isGreaterThanOrEqualTo(0);
      at = found + part.length();
    }
    assertThat(out).endsWith("The files are in " + dir + ". Try:\n"
        + "  javelin file read " + v21 + " --rows 10:13 --format jsonl\n"
        + "  javelin scan " + ds + " --tag trimmed --columns id,name,note --format csv\n"
        + "  javelin take " + ds + " --rows 0,299,150 --columns id,name,tags\n");

    try (VectorSchemaRoot all = SampleData.create(allocator, 300);
        VectorSchemaRoot picked = pick(all, new int[] {299, 0, 150}, List.of("id", "name", "vector", "tags", "address"))) {
      assertThat(out).contains("$ javelin file read " + v20 + " --take 299,0,150 --columns id,name,vector,tags,address\n"
          + RowWritersTest.render(OutputFormat.TABLE, picked) + "(3 rows)\n");
    }

    // The narration fits a terminal, and step 2 shows a few lines of internals, not the whole dump.
    for (String line : out.split("\n")) {
      if (line.matches("\\d+\\. .*") || line.matches(" {3,4}\\S.*") && !line.contains("|")) {
        assertThat(DisplayWidth.of(line)).as(line).isLessThanOrEqualTo(80);
      }
    }
    String step2 = out.substring(out.indexOf("\n2. "), out.indexOf("\n3. "));
    assertThat(step2.split("\n")).hasSizeLessThanOrEqualTo(16);
    assertThat(step2).contains("columns (column, field, pages, size; buffer sizes in bytes):\n  0  id  ")
        .containsPattern("\\.\\.\\. \\(\\d+ more lines\\)\n");
    for (String line : step2.split("\n")) {
      assertThat(DisplayWidth.of(line)).as(line).isLessThanOrEqualTo(80);
    }

    // After clustering by score, scans return the rows by score: the first ones shown have lower
    // scores than the last ones, and fragment by fragment every score is at most the next one's.
    List<Double> first = scores(section(out, "--columns id,name,score --limit 4\n"));
    List<Double> last = scores(section(out, "--columns id,name,score --offset 296\n"));
    assertThat(first).hasSize(4);
    assertThat(last).hasSize(4);
    assertThat(first.stream().mapToDouble(d -> d).max().getAsDouble())
        .isLessThan(last.stream().mapToDouble(d -> d).min().getAsDouble());
    Result scan = run("scan", ds, "--columns", "score", "--format", "csv");
    List<Double> all = new ArrayList<>();
    scan.out.lines().skip(1).forEach(l -> all.add(Double.parseDouble(l)));
    assertThat(all).hasSize(300);
    for (int f = 0; f + 1 < 3; f++) {
      double max = all.subList(f * 100, f * 100 + 100).stream().mapToDouble(d -> d).max().getAsDouble();
      double min = all.subList(f * 100 + 100, f * 100 + 200).stream().mapToDouble(d -> d).min().getAsDouble();
      assertThat(max).as("fragment %d before fragment %d", f + 3, f + 4).isLessThanOrEqualTo(min);
    }

    // Run again into the same directory: the files are replaced, not refused; everything printed
    // before the versions (which carry commit times) is the same.
    Result again = run("demo", "--dir", dir.toString());
    assertThat(again.code).as(again.toString()).isEqualTo(0);
    assertThat(again.out).startsWith(out.substring(0, out.indexOf("version  timestamp")));
    assertThat(Files.size(dir.resolve("sample-2.1.lance"))).isPositive();
  }

  // The table printed right after the command line ending in {@code commandTail}.
  private static String section(String out, String commandTail) {
    int start = out.indexOf(commandTail);
    assertThat(start).as(commandTail).isPositive();
    start += commandTail.length();
    return out.substring(start, out.indexOf("\n(", start));
  }

  // The score column (the last) of a table's rows.
  private static List<Double> scores(String table) {
    List<Double> out = new ArrayList<>();
    Matcher m = Pattern.compile("\\| *([0-9.]+)\n?$", Pattern.MULTILINE).matcher(table);
    while (m.find()) {
      out.add(Double.parseDouble(m.group(1)));
    }
    return out;
  }

  private VectorSchemaRoot pick(VectorSchemaRoot from, int[] rows, List<String> columns) {
    List<Field> fields = new ArrayList<>();
    for (String c : columns) {
      fields.add(from.getSchema().findField(c));
    }
    VectorSchemaRoot out = VectorSchemaRoot.create(new Schema(fields), allocator);
    out.allocateNew();
    for (String c : columns) {
      FieldVector src = from.getVector(c);
      FieldVector dst = out.getVector(c);
      for (int i = 0; i < rows.length; i++) {
        dst.copyFromSafe(rows[i], i, src);
      }
    }
    out.setRowCount(rows.length);
    return out;
  }
}
