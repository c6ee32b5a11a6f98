package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code index create --type bitmap|zonemap|bloomfilter}, {@code index list} and {@code scan --explain}. */
class ScalarIndexCommandsTest extends CliTestBase {
  // 400 rows in 4 fragments: t rises with the row, c cycles through 4 values.
  private String create() throws Exception {
    StringBuilder csv = new StringBuilder("t,c\n");
    for (int i = 0; i < 400; i++) {
      csv.append(i).append(",c").append(i % 4).append('\n');
    }
    text("rows.csv", csv.toString());
    Result r = run("create", path("ds"), "--input", path("rows.csv"), "--max-rows-per-file", "100");
    assertThat(r.code).as(r.toString()).isZero();
    return path("ds");
  }

  @Test
  void buildsListsAndScansWithEachKind() throws Exception {
    String ds = create();
    Result zone = run("index", "create", ds, "--column", "t", "--type", "zonemap", "--rows-per-zone", "10");
    assertThat(zone.code).as(zone.toString()).isZero();
    assertThat(zone.err).isEqualTo("Created index t_idx (zonemap on t, 4 fragments): version 2\n");
    Result bitmap = run("index", "create", ds, "--column", "c", "--type", "bitmap");
    assertThat(bitmap.err).isEqualTo("Created index c_idx (bitmap on c, 4 fragments): version 3\n");
    Result bloom = run("index", "create", ds, "--column", "c", "--type", "bloomfilter", "--items", "50",
        "--probability", "0.01", "--name", "c_bloom");
    assertThat(bloom.code).as(bloom.toString()).isZero();

    assertThat(run("index", "list", ds).out).isEqualTo("name     type          columns  fragments\n"
        + "t_idx    ZONEMAP       t        4 of 4\n"
        + "c_idx    BITMAP        c        4 of 4\n"
        + "c_bloom  BLOOM_FILTER  c        4 of 4\n");

    Result range = run("scan", ds, "--filter", "t BETWEEN 195 AND 204", "--format", "csv", "--explain");
    assertThat(range.code).as(range.toString()).isZero();
    assertThat(range.out.lines().count()).isEqualTo(11);
    assertThat(range.err).startsWith("filter: t BETWEEN 195 AND 204\n"
        + "index: t_idx (zonemap on t) answers t BETWEEN 195 AND 204\n"
        + "  zones skipped: 38 of 40\n"
        + "fragments from index: 4 [0, 1, 2, 3], rows from index: 20\n"
        + "rows skipped: 380, bytes skipped: about ").contains("fragments scanned: 0 []\n(10 rows)\n");

    Result eq = run("scan", ds, "--filter", "c = 'c2' AND t < 20", "--format", "csv", "--explain");
    assertThat(eq.out).isEqualTo("t,c\n2,c2\n6,c2\n10,c2\n14,c2\n18,c2\n");
    assertThat(eq.err).contains("index: c_idx (bitmap on c) answers c = 'c2'\n",
        "index: t_idx (zonemap on t) answers t < 20\n", "rows from index: 5\n");
  }
}
