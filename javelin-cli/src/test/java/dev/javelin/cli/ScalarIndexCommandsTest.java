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

  @Test
  void clusteringBuildsAZoneMapOnItsKeySoScansSkipZones() throws Exception {
    StringBuilder csv = new StringBuilder("t,c\n");
    for (int i = 0; i < 400; i++) {
      csv.append(i * 37 % 400).append(",c").append(i % 4).append('\n');
    }
    text("rows.csv", csv.toString());
    String ds = path("ds");
    assertThat(run("create", ds, "--input", path("rows.csv"), "--max-rows-per-file", "100").code).isZero();
    Result before = run("scan", ds, "--filter", "t < 20", "--format", "csv", "--explain");
    assertThat(before.err).contains("index: none (no scalar index on a column of the filter)\n");

    Result c = run("cluster", ds, "--by", "t", "--target-rows-per-fragment", "100", "--rows-per-zone", "10");
    assertThat(c.code).as(c.toString()).isZero();
    assertThat(c.err).endsWith("Zone maps on the keys: t_zonemap: version 4\n");
    assertThat(run("index", "list", ds).out).startsWith("name       type     columns  fragments\n"
        + "t_zonemap  ZONEMAP  t        4 of 4\n");
    Result after = run("scan", ds, "--filter", "t < 20", "--columns", "t", "--format", "csv", "--explain");
    assertThat(after.out.lines().skip(1).map(Integer::parseInt).sorted().toList())
        .isEqualTo(java.util.stream.IntStream.range(0, 20).boxed().toList());
    // Each new fragment holds its rows in their old order: the zones of the three fragments above
    // t = 99 are skipped.
    assertThat(after.err).contains("index: t_zonemap (zonemap on t) answers t < 20\n", "  zones skipped: 30 of 40\n",
        "rows skipped: 300, bytes skipped: about ");

    // Clustering again refreshes the same zone map; --no-zone-maps leaves it as it is.
    Result again = run("cluster", ds, "--by", "t", "--target-rows-per-fragment", "200", "--rows-per-zone", "10");
    assertThat(again.err).endsWith("Zone maps on the keys: t_zonemap: version 7\n");
    Result none = run("cluster", ds, "--by", "t", "--no-zone-maps");
    assertThat(none.err).doesNotContain("Zone maps");
    Result both = run("cluster", ds, "--by", "t", "--no-zone-maps", "--rows-per-zone", "5");
    assertThat(both.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(both.err).isEqualTo("javelin: --rows-per-zone and --no-zone-maps exclude each other\n");
  }
}
