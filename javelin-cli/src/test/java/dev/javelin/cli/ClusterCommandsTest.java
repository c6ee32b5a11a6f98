package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClusterCommandsTest extends CliTestBase {
  /** 12 rows (name n0, n1, n2 in turn) in fragments of 4, with a BTree on id: version 2. */
  private String create() throws Exception {
    StringBuilder csv = new StringBuilder("id,name\n");
    for (int i = 0; i < 12; i++) {
      csv.append(i).append(",n").append(i % 3).append('\n');
    }
    text("rows.csv", csv.toString());
    Result r = run("create", path("ds"), "--input", path("rows.csv"), "--max-rows-per-file", "4");
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(run("index", "create", path("ds"), "--column", "id").code).isZero();
    return path("ds");
  }

  @Test
  void clusterDescribeExplainSettle() throws Exception {
    String ds = create();
    Result c = run("cluster", ds, "--by", "name", "--target-rows-per-fragment", "4", "--no-zone-maps");
    assertThat(c.code).as(c.toString()).isZero();
    assertThat(c.err).isEqualTo("Clustered fragments [0, 1, 2] by name into [3, 4, 5] (12 rows moved): version 4 "
        + "(3 reserved the new fragment ids)\n"
        + "Answering through row maps: id_idx ('javelin index settle' remaps them)\n");
    assertThat(run("scan", ds, "--format", "csv").out)
        .isEqualTo("id,name\n0,n0\n3,n0\n6,n0\n9,n0\n1,n1\n4,n1\n7,n1\n10,n1\n2,n2\n5,n2\n8,n2\n11,n2\n");

    Result d = run("describe", ds);
    assertThat(d.code).as(d.toString()).isZero();
    assertThat(d.out).containsPattern("\nindices \\(name, type, columns, live fragments answered\\):\n"
        + "  id_idx  BTREE  id  3 of 3 \\(3 through row maps\\)  direct \\[\\]  through row maps \\[3, 4, 5\\]\n"
        + "\nsystem entry __lance_stable_partition: stable partition transitions \\(1 reordered rewrite with row "
        + "maps; 'javelin index settle' drops them\\)\n"
        + "  read v2  \\[0, 1, 2\\] -> \\[3, 4, 5\\]  row map _indices/[0-9a-f-]{36}/row_map-[0-9a-f-]{36}\\.lance\n$");

    // Coverage as queries see it: all three live fragments, through the row map; the entry apart.
    assertThat(run("index", "list", ds).out).isEqualTo("name    type   columns  fragments\n"
        + "id_idx  BTREE  id       3 of 3 (3 through row maps)\n"
        + "\n"
        + "system entry              what it is\n"
        + "__lance_stable_partition  stable partition transitions (1 reordered rewrite with row maps; "
        + "'javelin index settle' drops them)\n");
    com.fasterxml.jackson.databind.JsonNode list = dev.javelin.common.Json.tree(run("index", "list", ds, "--json").out);
    assertThat(list).hasSize(2);
    assertThat(list.get(0).get("name").asText()).isEqualTo("id_idx");
    assertThat(list.get(0).get("type").asText()).isEqualTo("BTREE");
    assertThat(list.get(0).get("system").asBoolean()).isFalse();
    assertThat(list.get(0).get("fragments").toString())
        .isEqualTo("{\"live\":3,\"covered\":3,\"direct\":[],\"through_row_maps\":[3,4,5],\"unindexed\":[]}");
    assertThat(list.get(1).get("type").asText()).isEqualTo("STABLE_PARTITION");
    assertThat(list.get(1).get("system").asBoolean()).isTrue();
    assertThat(list.get(1).has("fragments")).isFalse();
    assertThat(list.get(1).get("transitions").get(0).get("sources").toString()).isEqualTo("[0,1,2]");
    assertThat(list.get(1).get("transitions").get(0).get("destinations").toString()).isEqualTo("[3,4,5]");
    assertThat(list.get(1).get("transitions").get(0).get("read_version").asLong()).isEqualTo(2);

    Result scan = run("scan", ds, "--filter", "id = 4 OR id = 11", "--format", "csv", "--explain");
    assertThat(scan.out).isEqualTo("id,name\n4,n1\n11,n2\n");
    assertThat(scan.err).isEqualTo("filter: id = 4 OR id = 11\n"
        + "index: id_idx (btree on id) answers id = 4 OR id = 11\n"
        + "  through row maps for fragments: [3, 4, 5]\n"
        + "fragments from index: 3 [3, 4, 5], rows from index: 2\n"
        + "fragments scanned: 0 []\n"
        + "(2 rows)\n");

    Result s = run("index", "settle", ds);
    assertThat(s.code).as(s.toString()).isZero();
    assertThat(s.err).isEqualTo("Settled indices: remapped id_idx; dropped 1 transition, no row map left: version 5\n");
    assertThat(run("describe", ds).out).endsWith("\nindices (name, type, columns, live fragments answered):\n"
        + "  id_idx  BTREE  id  3 of 3  direct [3, 4, 5]\n");
    assertThat(run("index", "list", ds).out).isEqualTo("name    type   columns  fragments\n"
        + "id_idx  BTREE  id       3 of 3\n");
    assertThat(run("scan", ds, "--filter", "id = 4 OR id = 11", "--format", "csv", "--explain").err)
        .contains("index: id_idx (btree on id) answers id = 4 OR id = 11\n"
            + "fragments from index: 3 [3, 4, 5], rows from index: 2\n");
    assertThat(run("index", "settle", ds).err).isEqualTo("Nothing to settle: version 5\n");
  }

  @Test
  void curvesAndSomeFragments() throws Exception {
    String ds = create();
    Result c = run("cluster", ds, "--by", "name,id", "--curve", "hilbert", "--fragments", "1,2", "--no-zone-maps");
    assertThat(c.code).as(c.toString()).isZero();
    assertThat(c.err).startsWith("Clustered fragments [1, 2] by name,id into [3] (8 rows moved): version 4 "
        + "(3 reserved the new fragment ids)\n");
    Result d = run("describe", ds);
    assertThat(d.out).contains("  id_idx  BTREE  id  2 of 2 (1 through row maps)  direct [0]  through row maps [3]\n");
    Result z = run("cluster", ds, "--by", "id", "--curve", "ZORDER", "--no-zone-maps", "--fragments", "0,3",
        "--target-rows-per-fragment", "6");
    assertThat(z.err).startsWith("Clustered fragments [0, 3] by id into [4, 5] (12 rows moved): version 6 "
        + "(5 reserved the new fragment ids)\n");
    assertThat(run("describe", ds).out).contains("(2 reordered rewrites with row maps; 'javelin index settle' drops "
        + "them)\n  read v2  [1, 2] -> [3]  row map ", "\n  read v4  [0, 3] -> [4, 5]  row map ",
        "  id_idx  BTREE  id  2 of 2 (2 through row maps)  direct []  through row maps [4, 5]\n");
    assertThat(run("count", ds, "--filter", "id >= 5").out).isEqualTo("7\n");
  }

  @Test
  void errorsNameTheThingThatIsWrong() throws Exception {
    String ds = create();
    Result curve = run("cluster", ds, "--by", "id", "--curve", "snake");
    assertThat(curve.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(curve.err).isEqualTo("javelin: --curve must be range, zorder or hilbert, got 'snake'\n");
    Result col = run("cluster", ds, "--by", "nope");
    assertThat(col.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(col.err).startsWith("javelin: No column 'nope' in ");
    Result rows = run("cluster", ds, "--by", "id", "--target-rows-per-fragment", "0");
    assertThat(rows.err).isEqualTo("javelin: --target-rows-per-fragment must be at least 1, got 0\n");
    Result frag = run("cluster", ds, "--by", "id", "--fragments", "7");
    assertThat(frag.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(frag.err).isEqualTo("javelin: Fragment 7 is not in version 2: " + ds + "\n");
    Result missing = run("cluster", ds);
    assertThat(missing.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(missing.err).startsWith("javelin: Missing required option: '--by=COL'");
    assertThat(run("versions", ds).out.trim().split("\n")).hasSize(3); // nothing committed
  }
}
