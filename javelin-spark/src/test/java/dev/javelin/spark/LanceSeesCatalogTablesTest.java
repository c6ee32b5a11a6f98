package dev.javelin.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.ipc.ScanOptions;
import org.lance.namespace.DirectoryNamespace;
import org.lance.namespace.model.DescribeTableRequest;
import org.lance.namespace.model.ListTablesRequest;

/**
 * The catalog's root as Lance's own directory namespace (lance-core 7.0.0, JNI) sees it: a table
 * Spark creates through the catalog is listed and read by lance-core, and a dataset lance-core
 * writes at the root is a table of the catalog.
 */
class LanceSeesCatalogTablesTest {
  @TempDir
  static Path lake;
  private static SparkSession spark;

  @BeforeAll
  static void startSpark() {
    spark = SparkSession.builder().master("local[2]").appName("javelin-lance-namespace-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.catalog.lake", JavelinCatalog.class.getName())
        .config("spark.sql.catalog.lake.root", lake.toString())
        .getOrCreate();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  private static List<String> sparkRows(org.apache.spark.sql.Dataset<Row> df) {
    List<String> out = new ArrayList<>();
    for (Row r : df.collectAsList()) {
      out.add(r.get(0) + "|" + r.get(1));
    }
    out.sort(null);
    return out;
  }

  private static List<String> lanceRows(org.lance.Dataset ds) throws Exception {
    List<String> out = new ArrayList<>();
    try (var scanner = ds.newScan(new ScanOptions.Builder().columns(List.of("id", "name")).build());
        ArrowReader r = scanner.scanBatches()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot root = r.getVectorSchemaRoot();
        for (int i = 0; i < root.getRowCount(); i++) {
          out.add(root.getVector(0).getObject(i) + "|" + root.getVector(1).getObject(i));
        }
      }
    }
    out.sort(null);
    return out;
  }

  @Test
  void lanceListsAndReadsWhatSparkCreatedAndTheOtherWayRound() throws Exception {
    spark.sql("CREATE TABLE lake.shared AS SELECT id, concat('n', id) AS name FROM range(0, 50)");
    spark.sql("DELETE FROM lake.shared WHERE id < 5");
    List<String> want = sparkRows(spark.sql("SELECT id, name FROM lake.shared"));
    assertThat(want).hasSize(45);

    try (BufferAllocator allocator = new RootAllocator();
        DirectoryNamespace ns = new DirectoryNamespace()) {
      ns.initialize(Map.of("root", lake.toString()), allocator);
      assertThat(ns.listTables(new ListTablesRequest().id(List.of())).getTables()).contains("shared");
      String location = ns.describeTable(new DescribeTableRequest().id(List.of("shared"))).getLocation();
      assertThat(location).endsWith("shared.lance");
      try (org.lance.Dataset ds = org.lance.Dataset.open(location, allocator)) {
        assertThat(ds.countRows()).isEqualTo(45);
        assertThat(lanceRows(ds)).isEqualTo(want);
      }

      // lance-core writes a dataset at the root, as its directory namespace places tables.
      byte[] ipc;
      try (BigIntVector id = new BigIntVector("id", allocator);
          VarCharVector name = new VarCharVector("name", allocator)) {
        for (int i = 0; i < 3; i++) {
          id.setSafe(i, 100 + i);
          name.setSafe(i, ("l" + i).getBytes(StandardCharsets.UTF_8));
        }
        try (VectorSchemaRoot root = VectorSchemaRoot.of(id, name)) {
          root.setRowCount(3);
          ByteArrayOutputStream bytes = new ByteArrayOutputStream();
          try (ArrowStreamWriter w = new ArrowStreamWriter(root, null, bytes)) {
            w.start();
            w.writeBatch();
            w.end();
          }
          ipc = bytes.toByteArray();
        }
      }
      try (ArrowReader reader = new ArrowStreamReader(new ByteArrayInputStream(ipc), allocator);
          org.lance.Dataset made = org.lance.Dataset.write().allocator(allocator).reader(reader)
              .uri(lake.resolve("from_lance.lance").toString()).execute()) {
        assertThat(made.countRows()).isEqualTo(3);
      }
    }
    assertThat(sparkRows(spark.sql("SHOW TABLES IN lake").select("namespace", "tableName")))
        .contains("|from_lance", "|shared");
    assertThat(sparkRows(spark.sql("SELECT id, name FROM lake.from_lance")))
        .containsExactly("100|l0", "101|l1", "102|l2");
  }
}
