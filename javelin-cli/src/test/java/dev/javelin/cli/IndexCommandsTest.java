package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IndexCommandsTest extends CliTestBase {
  private String create() throws Exception {
    StringBuilder csv = new StringBuilder("id,name\n");
    for (int i = 0; i < 10; i++) {
      csv.append(i).append(",n").append(i % 3).append('\n');
    }
    text("rows.csv", csv.toString());
    Result r = run("create", path("ds"), "--input", path("rows.csv"), "--max-rows-per-file", "4");
    assertThat(r.code).as(r.toString()).isZero();
    return path("ds");
  }

  @Test
  void createListDescribeExplainOptimizeDrop() throws Exception {
    String ds = create();
    Result c = run("index", "create", ds, "--column", "id", "--type", "btree");
    assertThat(c.code).as(c.toString()).isZero();
    assertThat(c.err).isEqualTo("Created index id_idx (btree on id, 3 fragments): version 2\n");

    text("more.csv", "id,name\n10,n1\n11,n2\n");
    assertThat(run("append", ds, "--input", path("more.csv")).code).isZero();

    Result list = run("index", "list", ds);
    assertThat(list.out).isEqualTo("name    type   columns  fragments\nid_idx  btree  id       3 of 4\n");

    Result d = run("index", "describe", ds, "id_idx");
    assertThat(d.code).as(d.toString()).isZero();
    assertThat(d.out).contains("type       btree\n", "columns    id\n", "built at   version 1\n",
        "covered    3 fragments [0, 1, 2]\n", "uncovered  1 fragment [3]\n", "/page_data.lance  ",
        "/page_lookup.lance  ").containsPattern("size       [1-9][0-9]* bytes\n");

    Result scan = run("scan", ds, "--filter", "id = 5 OR id = 11", "--format", "csv", "--explain");
    assertThat(scan.code).as(scan.toString()).isZero();
    assertThat(scan.out).isEqualTo("id,name\n5,n2\n11,n2\n");
    assertThat(scan.err).isEqualTo("filter: id = 5 OR id = 11\n"
        + "index: id_idx (btree on id) answers id = 5 OR id = 11\n"
        + "fragments from index: 3 [0, 1, 2], rows from index: 1\n"
        + "fragments scanned: 1 [3]\n"
        + "(2 rows)\n");

    Result opt = run("index", "optimize", ds);
    assertThat(opt.err).isEqualTo("Optimized indices: version 4\n");
    assertThat(run("index", "optimize", ds).err).isEqualTo("Indices are up to date: version 4\n");
    assertThat(run("scan", ds, "--filter", "name = 'n1'", "--explain").err)
        .contains("index: none (no BTree index on a column of the filter)\n", "fragments scanned: 4 [0, 1, 2, 3]\n");
    assertThat(run("scan", ds, "--filter", "id >= 9", "--explain", "--format", "csv").err)
        .contains("fragments from index: 4 [0, 1, 2, 3], rows from index: 3\nfragments scanned: 0 []\n");

    Result drop = run("index", "drop", ds, "id_idx");
    assertThat(drop.err).isEqualTo("Dropped index id_idx: version 5\n");
    assertThat(run("index", "list", ds).out).isEqualTo("(no indices)\n");
  }

  @Test
  void errorsNameTheThingThatIsWrong() throws Exception {
    String ds = create();
    Result type = run("index", "create", ds, "--column", "id", "--type", "bitmap");
    assertThat(type.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(type.err).isEqualTo("javelin: Unsupported index type 'bitmap': use btree or ivf_pq\n");
    Result col = run("index", "create", ds, "--column", "nope");
    assertThat(col.err).startsWith("javelin: No column 'nope' in ");
    Result missing = run("index", "describe", ds, "x");
    assertThat(missing.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(missing.err).isEqualTo("javelin: No index named 'x' in " + ds + "\n");
    assertThat(run("index", "create", ds, "--column", "id").code).isZero();
    Result twice = run("index", "create", ds, "--column", "id");
    assertThat(twice.err).isEqualTo("javelin: Index 'id_idx' already exists: " + ds + "\n");
    assertThat(run("index", "create", ds, "--column", "id", "--replace").code).isZero();
  }
}
