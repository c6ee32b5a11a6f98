package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** The tour runs end to end. Needs the 2.0 and 2.1 encoders. */
class DemoTest extends CliTestBase {
  @Test
  void tourWritesBothVersionsAndShowsThem() throws Exception {
    Result r = run("demo", "--dir", dir.toString());
    assertThat(r.code).as(r.toString()).isEqualTo(0);
    assertThat(dir.resolve("sample.arrow")).exists();
    assertThat(dir.resolve("sample-2.1.lance")).exists();
    assertThat(dir.resolve("sample-2.0.lance")).exists();

    String v21 = dir.resolve("sample-2.1.lance").toString();
    String v20 = dir.resolve("sample-2.0.lance").toString();
    assertThat(r.err).contains("$ javelin file write " + v21 + " --input " + dir.resolve("sample.arrow")
        + " --version 2.1\nWrote 300 rows and 7 columns to " + v21 + " (Lance 2.1, ");
    assertThat(r.err).contains("$ javelin file info " + v21 + "\n");
    assertThat(r.err).contains("$ javelin file info " + v20 + "\n");
    assertThat(r.err).contains("$ javelin file read " + v21 + " --rows 0:5\n(5 rows)\n");
    assertThat(r.err).contains("(3 rows)\n");
    String ds = dir.resolve("people").toString();
    assertThat(r.err).endsWith("The files are in " + dir + ". Try:\n"
        + "  javelin file read " + v21 + " --rows 10:13 --format jsonl\n"
        + "  javelin scan " + ds + " --tag trimmed --columns id,name,note --format csv\n"
        + "  javelin take " + ds + " --rows 0,299,150 --columns id,name,tags\n");
    assertThat(r.err).contains("Created " + ds + ": version 1, 300 rows in 3 fragments (Lance 2.1 files)\n");
    assertThat(r.err).containsPattern("Deleted \\d+ rows: " + java.util.regex.Pattern.quote(ds) + " is now at version 2");
    assertThat(r.err).contains("Restored version 1: " + ds + " is now at version 5 (300 rows)\n");
    assertThat(r.out).contains("300\n");
    assertThat(r.err).contains("$ javelin scan " + ds + " --filter \"rating IS NULL AND address.city IN ('Oslo', 'Lyon')\"");
    assertThat(r.err).contains("$ javelin add-columns " + ds + " --null 'note:utf8?'\n");

    assertThat(r.out).contains("file     " + v21 + "\nversion  2.1\nrows     300\n");
    assertThat(r.out).contains("file     " + v20 + "\nversion  2.0\nrows     300\n");
    assertThat(r.out).contains(RowWritersTest.SAMPLE_TABLE);
    try (VectorSchemaRoot all = SampleData.create(allocator, 300);
        VectorSchemaRoot picked = pick(all, new int[] {299, 0, 150}, List.of("id", "name", "vector", "tags", "address"))) {
      assertThat(r.out).contains(RowWritersTest.render(OutputFormat.TABLE, picked));
    }

    // Step 14: clustering moves the rows; the index finds them through the row map, then settles.
    String explain = "$ javelin scan " + ds + " --filter 'id BETWEEN 40 AND 44' --columns id,name,score --explain\n"
        + "filter: id BETWEEN 40 AND 44\n"
        + "index: id_idx (btree on id) answers id BETWEEN 40 AND 44\n";
    assertThat(r.err).contains("$ javelin cluster " + ds + " --by score --target-rows-per-fragment 100\n"
        + "Clustered fragments [0, 1, 2] by score into [3, 4, 5] (300 rows moved): version 11\n"
        + "Answering through row maps: id_idx ('javelin index settle' remaps them)\n\n"
        + explain
        + "  through row maps for fragments: [3, 4, 5]\n"
        + "fragments from index: 3 [3, 4, 5], rows from index: 5\n"
        + "fragments scanned: 0 []\n(5 rows)\n\n"
        + "$ javelin index settle " + ds + "\n"
        + "Settled indices: remapped id_idx; dropped 1 transition, no row map left: version 12\n\n"
        + explain
        + "fragments from index: 3 [3, 4, 5], rows from index: 5\n"
        + "fragments scanned: 0 []\n(5 rows)\n\n");
    // Run again into the same directory: the files are replaced, not refused.
    Result again = run("demo", "--dir", dir.toString());
    assertThat(again.code).as(again.toString()).isEqualTo(0);
    // Versions carry commit times; everything printed before them is the same.
    String stable = r.out.substring(0, r.out.indexOf("version  timestamp"));
    assertThat(again.out).startsWith(stable);
    assertThat(Files.size(dir.resolve("sample-2.1.lance"))).isPositive();
  }

  private VectorSchemaRoot pick(VectorSchemaRoot from, int[] rows, List<String> columns) {
    List<Field> fields = new java.util.ArrayList<>();
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
