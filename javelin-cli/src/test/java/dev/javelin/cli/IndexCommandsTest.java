package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
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
    assertThat(list.out).isEqualTo("name    type   columns  fragments\nid_idx  BTREE  id       3 of 4\n");

    Result d = run("index", "describe", ds, "id_idx");
    assertThat(d.code).as(d.toString()).isZero();
    assertThat(d.out).contains("type       BTREE\n", "columns    id\n", "built at   version 1\n",
        "answers    3 of 4 live fragments\n", "direct     3 fragments [0, 1, 2]\n", "uncovered  1 fragment [3]\n",
        "/page_data.lance  ", "/page_lookup.lance  ").containsPattern("size       [0-9.]+ (B|KiB) \\([0-9,]+ bytes\\)\n");
    com.fasterxml.jackson.databind.JsonNode dj = dev.javelin.common.Json.tree(run("index", "describe", ds, "id_idx",
        "--json").out);
    assertThat(dj.get("type").asText()).isEqualTo("BTREE");
    assertThat(dj.get("columns").toString()).isEqualTo("[\"id\"]");
    assertThat(dj.get("fragments").toString())
        .isEqualTo("{\"live\":4,\"covered\":3,\"direct\":[0,1,2],\"through_row_maps\":[],\"unindexed\":[3]}");
    long total = 0;
    for (com.fasterxml.jackson.databind.JsonNode f : dj.get("files")) {
      assertThat(f.get("path").asText()).startsWith("_indices/" + dj.get("uuid").asText() + "/");
      total += f.get("size_bytes").asLong();
    }
    assertThat(dj.get("files")).hasSize(2);
    assertThat(dj.get("size_bytes").asLong()).isEqualTo(total).isPositive();

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
        .contains("index: none (no scalar index on a column of the filter)\n", "fragments scanned: 4 [0, 1, 2, 3]\n");
    assertThat(run("scan", ds, "--filter", "id >= 9", "--explain", "--format", "csv").err)
        .contains("fragments from index: 4 [0, 1, 2, 3], rows from index: 3\nfragments scanned: 0 []\n");

    Result drop = run("index", "drop", ds, "id_idx");
    assertThat(drop.err).isEqualTo("Dropped index id_idx: version 5\n");
    assertThat(run("index", "list", ds).out).isEqualTo("(no indices)\n");
  }

  @Test
  void errorsNameTheThingThatIsWrong() throws Exception {
    String ds = create();
    Result type = run("index", "create", ds, "--column", "id", "--type", "hash");
    assertThat(type.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(type.err).isEqualTo("javelin: Unsupported index type 'hash': use btree, bitmap, zonemap, bloomfilter, "
        + "labellist, ngram, ivf_pq, ivf_flat, ivf_sq or ivf_hnsw_sq\n");
    Result zone = run("index", "create", ds, "--column", "id", "--type", "bitmap", "--rows-per-zone", "8");
    assertThat(zone.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(zone.err).isEqualTo("javelin: --rows-per-zone applies to --type zonemap only\n");
    Result fpp = run("index", "create", ds, "--column", "id", "--type", "bloomfilter", "--probability", "1.5");
    assertThat(fpp.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(fpp.err).isEqualTo("javelin: --probability must be between 0 and 1: 1.5\n");
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

  /** Rows [start, start + n): id i, v = (i, i % 7, 0, 0); a new dataset when start is 0. */
  private void writeVectors(String ds, int start, int n) {
    Schema schema = new Schema(List.of(
        new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(4)), List.of(
            new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null)))));
    try (BufferAllocator a = new RootAllocator(); VectorSchemaRoot root = VectorSchemaRoot.create(schema, a)) {
      root.allocateNew();
      FixedSizeListVector v = (FixedSizeListVector) root.getVector("v");
      Float4Vector f = (Float4Vector) v.getDataVector();
      for (int i = 0; i < n; i++) {
        int id = start + i;
        ((BigIntVector) root.getVector("id")).setSafe(i, id);
        v.setNotNull(i);
        float[] x = {id, id % 7, 0, 0};
        for (int j = 0; j < 4; j++) {
          f.setSafe(i * 4 + j, x[j]);
        }
      }
      root.setRowCount(n);
      if (start == 0) {
        Dataset.create(Path.of(ds), List.of(root), WriteParams.defaults(), a);
      } else {
        Dataset.open(Path.of(ds), a).append(List.of(root), WriteParams.defaults());
      }
    }
  }

  @Test
  void optimizePrintsWhatItDidToEachIndex() {
    String ds = path("vec");
    writeVectors(ds, 0, 300);
    assertThat(run("index", "create", ds, "--column", "v", "--type", "ivf_pq", "--partitions", "2",
        "--sub-vectors", "2").code).isZero();
    assertThat(run("index", "create", ds, "--column", "id").code).isZero();
    writeVectors(ds, 300, 100);
    assertThat(run("index", "list", ds).out).contains("v_idx   IVF_PQ  v        1 of 2\n");

    Result opt = run("index", "optimize", ds);
    assertThat(opt.code).as(opt.toString()).isZero();
    assertThat(opt.out).isEqualTo(
        "name    type    fragments added  rows added  rows dropped  result\n"
        + "v_idx   IVF_PQ  1 [1]                   100             0  merged into existing partitions\n"
        + "id_idx  BTREE   1 [1]                   100             0  merged\n");
    assertThat(opt.err).isEqualTo("Optimized indices: version 5\n");
    assertThat(run("index", "list", ds).out).contains("v_idx   IVF_PQ  v        2 of 2\n",
        "id_idx  BTREE   id       2 of 2\n");
    // An appended row is found through the index, which now covers its fragment.
    Result r = run("search", ds, "--column", "v", "--vector", "350,0,0,0", "--k", "1", "--columns", "id",
        "--nprobes", "2", "--refine-factor", "50", "--format", "csv");
    assertThat(r.out).isEqualTo("id,_distance\n350,0.0\n");

    Result again = run("index", "optimize", ds);
    assertThat(again.out).isEqualTo(
        "name    type    fragments added  rows added  rows dropped  result\n"
        + "v_idx   IVF_PQ  0 []                      0             0  unchanged (covers every fragment)\n"
        + "id_idx  BTREE   0 []                      0             0  unchanged (covers every fragment)\n");
    assertThat(again.err).isEqualTo("Indices are up to date: version 5\n");
  }

  // An index entry over fragments 0, 1 and 2 of column name (field 1), as lance-core writes one.
  private static dev.javelin.table.IndexMetadata entry(String name, String uuid, String detailsType) {
    return dev.javelin.table.IndexMetadata.builder().uuid(uuid).name(name).fields(List.of(1)).datasetVersion(1)
        .fragmentBitmap(org.roaringbitmap.RoaringBitmap.bitmapOf(0, 1, 2)).details(detailsType).indexVersion(0)
        .build();
  }

  @Test
  void listNamesEveryKindLanceWritesAndShowsSystemEntriesApart() throws Exception {
    String ds = create();
    assertThat(run("index", "create", ds, "--column", "id").code).isZero();
    List<dev.javelin.table.IndexMetadata> entries = new java.util.ArrayList<>();
    String[][] scalar = {{"bitmap_idx", "/lance.table.BitmapIndexDetails"},
        {"labels_idx", "/lance.table.LabelListIndexDetails"}, {"ngram_idx", "/lance.table.NGramIndexDetails"},
        {"zone_idx", "/lance.table.ZoneMapIndexDetails"}, {"bloom_idx", "/lance.table.BloomFilterIndexDetails"},
        {"fts_idx", "/lance.table.InvertedIndexDetails"}};
    for (String[] k : scalar) {
      entries.add(entry(k[0], java.util.UUID.randomUUID().toString(), k[1]));
    }
    // Every vector kind has VectorIndexDetails; its index.idx's lance:index metadata names the kind.
    List<String> vectorKinds = List.of("IVF_FLAT", "IVF_SQ", "IVF_PQ", "IVF_RQ", "IVF_HNSW_SQ", "IVF_HNSW_PQ");
    for (String kind : vectorKinds) {
      String uuid = java.util.UUID.randomUUID().toString();
      java.nio.file.Path idx = dir.resolve("ds/_indices/" + uuid + "/index.idx");
      java.nio.file.Files.createDirectories(idx.getParent());
      Schema schema = new Schema(List.of(new Field("__flat_marker",
          FieldType.notNullable(new ArrowType.Int(64, false)), null)),
          java.util.Map.of("lance:index", "{\"type\":\"" + kind + "\",\"distance_type\":\"l2\"}"));
      dev.javelin.format.LanceFileWriter.create(idx, schema, dev.javelin.format.WriteOptions.defaults()).close();
      entries.add(entry(kind.toLowerCase(java.util.Locale.ROOT) + "_idx", uuid, "/lance.index.pb.VectorIndexDetails"));
    }
    entries.add(entry("__lance_frag_reuse", java.util.UUID.randomUUID().toString(),
        "/lance.table.FragmentReuseIndexDetails"));
    Dataset d = Dataset.open(Path.of(ds), allocator);
    dev.javelin.table.Table.at(d.store()).newCommit(dev.javelin.table.Transaction.createIndex(d.version(), entries,
        List.of())).commit();

    Result list = run("index", "list", ds);
    assertThat(list.code).as(list.toString()).isZero();
    assertThat(list.out).isEqualTo("name             type          columns  fragments\n"
        + "id_idx           BTREE         id       3 of 3\n"
        + "bitmap_idx       BITMAP        name     3 of 3\n"
        + "labels_idx       LABEL_LIST    name     3 of 3\n"
        + "ngram_idx        NGRAM         name     3 of 3\n"
        + "zone_idx         ZONEMAP       name     3 of 3\n"
        + "bloom_idx        BLOOM_FILTER  name     3 of 3\n"
        + "fts_idx          INVERTED      name     3 of 3\n"
        + "ivf_flat_idx     IVF_FLAT      name     3 of 3\n"
        + "ivf_sq_idx       IVF_SQ        name     3 of 3\n"
        + "ivf_pq_idx       IVF_PQ        name     3 of 3\n"
        + "ivf_rq_idx       IVF_RQ        name     3 of 3\n"
        + "ivf_hnsw_sq_idx  IVF_HNSW_SQ   name     3 of 3\n"
        + "ivf_hnsw_pq_idx  IVF_HNSW_PQ   name     3 of 3\n"
        + "\n"
        + "system entry        what it is\n"
        + "__lance_frag_reuse  fragment reuse (old-to-new row addresses of a compaction whose index remap was "
        + "deferred)\n");
    com.fasterxml.jackson.databind.JsonNode json = dev.javelin.common.Json.tree(run("index", "list", ds, "--json").out);
    assertThat(json).hasSize(14);
    assertThat(json.get(12).get("type").asText()).isEqualTo("IVF_HNSW_PQ");
    assertThat(json.get(13).get("type").asText()).isEqualTo("FRAGMENT_REUSE");
    assertThat(json.get(13).get("system").asBoolean()).isTrue();
    assertThat(run("describe", ds).out).contains("  ivf_hnsw_sq_idx  IVF_HNSW_SQ  name  3 of 3  direct [0, 1, 2]\n",
        "\nsystem entry __lance_frag_reuse: fragment reuse (");
  }
}
