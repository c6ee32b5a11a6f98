package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Tables line up in a terminal whatever the text: CJK, emoji and combining marks included. */
class TableAlignmentTest extends CliTestBase {
  // The terminal column of each '|' in a line.
  private static List<Integer> bars(String line) {
    List<Integer> out = new ArrayList<>();
    for (int i = line.indexOf('|'); i >= 0; i = line.indexOf('|', i + 1)) {
      out.add(DisplayWidth.of(line.substring(0, i)));
    }
    return out;
  }

  @Test
  void scanTableAlignsWideAndCombiningText() throws Exception {
    text("people.csv", "id,name,city\n"
        + "1,plain,Oslo\n"
        + "2,日本語の名前,東京\n"
        + "3,🎉 party,Zürich\n"
        + "4,e\u0301cole,Kraków\n"
        + "5,👨\u200d👩\u200d👧 family,서울\n");
    String ds = path("ds");
    assertThat(run("create", ds, "--input", path("people.csv")).code).isZero();
    Result r = run("scan", ds);
    assertThat(r.code).as(r.toString()).isZero();
    List<String> lines = r.out.lines().toList();
    assertThat(lines).hasSize(7);
    List<Integer> header = bars(lines.get(0));
    assertThat(header).hasSize(2);
    for (String line : lines.subList(2, lines.size())) {
      assertThat(bars(line)).as(line).isEqualTo(header);
    }
    // The rule's '+' sit under the bars.
    assertThat(lines.get(1).indexOf('+')).isEqualTo(header.get(0));
    assertThat(lines.get(3)).isEqualTo("  2 | 日本語の名前 | 東京");
  }

  @Test
  void longScanKeepsItsColumnWidthsFromBatchToBatch() throws Exception {
    StringBuilder csv = new StringBuilder("id,word\n");
    for (int i = 0; i < 20_000; i++) {
      // Ids all of one width; the widest words come first, then narrower ones: batch after batch,
      // no column may shrink (nor grow: no later cell is wider).
      csv.append(10_000 + i).append(',').append(i < 100 ? "wide-word-number-" + i : "w" + (i % 7)).append('\n');
    }
    text("many.csv", csv.toString());
    String ds = path("many");
    assertThat(run("create", ds, "--input", path("many.csv")).code).isZero();
    Result r = run("scan", ds, "--batch-size", "1000");
    assertThat(r.code).as(r.toString()).isZero();
    List<String> lines = r.out.lines().toList();
    assertThat(lines).hasSize(20_002);
    List<Integer> header = bars(lines.get(0));
    for (String line : lines.subList(2, lines.size())) {
      assertThat(bars(line)).as(line).isEqualTo(header);
    }
  }

  @Test
  void versionsHeaderIsAsWideAsItsTimestamps() throws Exception {
    text("rows.csv", "id\n1\n2\n");
    String ds = path("ds");
    assertThat(run("create", ds, "--input", path("rows.csv")).code).isZero();
    assertThat(run("delete", ds, "--where", "id = 1").code).isZero();
    List<String> lines = run("versions", ds).out.lines().toList();
    assertThat(lines).hasSize(3);
    int operation = lines.get(0).indexOf("operation");
    int rows = lines.get(0).indexOf("rows") + "rows".length();
    for (String line : lines.subList(1, lines.size())) {
      assertThat(line.indexOf("Overwrite") >= 0 ? line.indexOf("Overwrite") : line.indexOf("Delete"))
          .as(line).isEqualTo(operation);
      assertThat(line.length()).as(line).isEqualTo(rows);
      assertThat(line).matches("      \\d  \\d{4}-\\d\\d-\\d\\dT\\S+Z  \\S+ +\\d");
    }
  }
}
