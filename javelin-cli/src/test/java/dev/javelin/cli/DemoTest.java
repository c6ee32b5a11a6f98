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
    assertThat(r.err).endsWith("The files are in " + dir + ". Try:\n"
        + "  javelin file read " + v21 + " --rows 10:13 --format jsonl\n"
        + "  javelin file read " + v20 + " --columns id,score,rating --format csv\n"
        + "  javelin file info " + v21 + " --json\n");

    assertThat(r.out).contains("file     " + v21 + "\nversion  2.1\nrows     300\n");
    assertThat(r.out).contains("file     " + v20 + "\nversion  2.0\nrows     300\n");
    assertThat(r.out).contains(RowWritersTest.SAMPLE_TABLE);
    try (VectorSchemaRoot all = SampleData.create(allocator, 300);
        VectorSchemaRoot picked = pick(all, new int[] {299, 0, 150}, List.of("id", "name", "vector", "tags", "address"))) {
      assertThat(r.out).endsWith(RowWritersTest.render(OutputFormat.TABLE, picked));
    }

    // Run again into the same directory: the files are replaced, not refused.
    Result again = run("demo", "--dir", dir.toString());
    assertThat(again.code).as(again.toString()).isEqualTo(0);
    assertThat(again.out).isEqualTo(r.out);
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
