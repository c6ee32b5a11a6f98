package dev.javelin.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.Dataset;
import dev.javelin.core.VersionInfo;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark SQL on Javelin datasets in local[2]: the data source's save modes and path queries, the
 * catalog's DDL, time travel and DML, each result compared with Javelin's own scan.
 */
class JavelinSqlTest {
  @TempDir
  static Path lake;
  private static SparkSession spark;

  @TempDir
  Path dir;
  @TestAllocator private BufferAllocator allocator;

  @BeforeAll
  static void startSpark() {
    spark = SparkSession.builder().master("local[2]").appName("javelin-sql-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.catalog.lake", JavelinCatalog.class.getName())
        .config("spark.sql.catalog.lake.root", lake.toString())
        .config("spark.sql.extensions", JavelinSparkExtensions.class.getName())
        .getOrCreate();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  private static org.apache.spark.sql.Dataset<Row> sql(String text) {
    return spark.sql(text);
  }

  /** Javelin's own scan of the newest version, rows as "a|b|c" strings, sorted. */
  private List<String> javelinRows(Path p, String... columns) {
    Dataset ds = Dataset.open(p, allocator);
    List<String> out = new ArrayList<>();
    try (ArrowReader r = ds.newScan().columns(columns).build()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot root = r.getVectorSchemaRoot();
        for (int i = 0; i < root.getRowCount(); i++) {
          List<String> vs = new ArrayList<>();
          for (int c = 0; c < columns.length; c++) {
            vs.add(String.valueOf(root.getVector(c).getObject(i)));
          }
          out.add(String.join("|", vs));
        }
      }
    } catch (IOException e) {
      throw new RuntimeException(e);
    }
    out.sort(null);
    return out;
  }

  private static List<String> sparkRows(org.apache.spark.sql.Dataset<Row> df) {
    List<String> out = new ArrayList<>();
    for (Row r : df.collectAsList()) {
      List<String> vs = new ArrayList<>();
      for (int c = 0; c < r.length(); c++) {
        vs.add(String.valueOf(r.get(c)));
      }
      out.add(String.join("|", vs));
    }
    out.sort(null);
    return out;
  }

  private static org.apache.spark.sql.Dataset<Row> people(long from, long to) {
    return spark.range(from, to, 1, 2).selectExpr("id", "concat('n', id) AS name", "id * 0.5 AS score");
  }

  private Path table(String... parts) {
    Path p = lake;
    for (int i = 0; i < parts.length - 1; i++) {
      p = p.resolve(parts[i]);
    }
    return p.resolve(parts[parts.length - 1] + ".lance");
  }

  private List<String> operations(Path p) {
    return Dataset.open(p, allocator).versions().stream().map(VersionInfo::operation).toList();
  }

  // ---- the data source: save modes and path queries

  @Test
  void everySaveModeAndTheDefaultOne() {
    Path p = dir.resolve("modes");
    var first = people(0, 100);
    first.write().format("javelin").save(p.toString());
    assertThat(javelinRows(p, "id", "name", "score")).isEqualTo(sparkRows(first));
    assertThat(operations(p)).containsExactly("Overwrite");

    assertThatThrownBy(() -> people(0, 10).write().format("javelin").save(p.toString()))
        .isInstanceOf(AnalysisException.class)
        .hasMessageContaining("[TABLE_OR_VIEW_ALREADY_EXISTS]").hasMessageContaining(p.toString());
    people(500, 510).write().format("javelin").mode("ignore").save(p.toString());
    assertThat(Dataset.open(p, allocator).version()).isEqualTo(1);

    var more = people(100, 150);
    more.write().format("javelin").mode("append").save(p.toString());
    assertThat(javelinRows(p, "id", "name", "score")).isEqualTo(sparkRows(first.union(more)));

    var other = spark.range(0, 5, 1, 1).selectExpr("id * 3 AS x");
    other.write().format("javelin").mode("overwrite").save(p.toString());
    assertThat(javelinRows(p, "x")).isEqualTo(sparkRows(other));
    assertThat(sparkRows(spark.read().format("javelin").load(p.toString()))).isEqualTo(sparkRows(other));
    assertThat(operations(p)).containsExactly("Overwrite", "Append", "Overwrite");

    Path fresh = dir.resolve("ignored-new");
    people(0, 7).write().format("javelin").mode("ignore").save(fresh.toString());
    assertThat(javelinRows(fresh, "id")).hasSize(7);
  }

  @Test
  void selectsFromAPathAndTravelsInTime() {
    Path p = dir.resolve("by-path");
    people(0, 40).write().format("javelin").save(p.toString());
    people(40, 60).write().format("javelin").mode("append").save(p.toString());
    Dataset.open(p, allocator).tags().create("first", 1);
    String t = "javelin.`" + p + "`";
    assertThat(sparkRows(sql("SELECT id, name FROM " + t + " WHERE id >= 30"))).isEqualTo(
        sparkRows(people(30, 60).select("id", "name")));
    assertThat(sql("SELECT count(*) FROM " + t + " VERSION AS OF 1").first().getLong(0)).isEqualTo(40);
    assertThat(sql("SELECT count(*) FROM " + t + " VERSION AS OF 'first'").first().getLong(0)).isEqualTo(40);
    assertThat(spark.read().format("javelin").option("tag", "first").load(p.toString()).count()).isEqualTo(40);
    assertThat(spark.read().format("javelin").option("version", "2").load(p.toString()).count()).isEqualTo(60);
  }

  // ---- the catalog

  @Test
  void namespacesTablesAndTheirDdl() throws IOException {
    sql("CREATE NAMESPACE lake.db");
    sql("CREATE NAMESPACE lake.db.inner");
    assertThat(sparkRows(sql("SHOW NAMESPACES IN lake"))).contains("db");
    assertThat(sparkRows(sql("SHOW NAMESPACES IN lake.db"))).containsExactly("db.inner");

    sql("CREATE TABLE lake.db.people (id BIGINT NOT NULL, name STRING, score DOUBLE)");
    Path p = table("db", "people");
    assertThat(Dataset.open(p, allocator).countRows()).isZero();
    sql("INSERT INTO lake.db.people VALUES (1, 'a', 0.5), (2, 'b', 1.0), (3, NULL, 1.5)");
    assertThat(javelinRows(p, "id", "name", "score")).containsExactly("1|a|0.5", "2|b|1.0", "3|null|1.5");
    assertThat(sparkRows(sql("SELECT * FROM lake.db.people"))).isEqualTo(javelinRows(p, "id", "name", "score"));
    assertThat(sparkRows(sql("SHOW TABLES IN lake.db"))).containsExactly("db|people|false");
    List<String> described = sparkRows(sql("DESCRIBE TABLE lake.db.people").select("col_name", "data_type"));
    assertThat(described).contains("id|bigint", "name|string", "score|double");

    sql("CREATE TABLE lake.db.inner.copy AS SELECT id, name FROM lake.db.people WHERE id > 1");
    Path copy = table("db", "inner", "copy");
    assertThat(javelinRows(copy, "id", "name")).containsExactly("2|b", "3|null");
    assertThat(operations(copy)).containsExactly("Overwrite");

    sql("ALTER TABLE lake.db.people ADD COLUMNS (tag STRING, level INT)");
    assertThat(javelinRows(p, "id", "tag", "level")).containsExactly("1|null|null", "2|null|null", "3|null|null");
    sql("INSERT INTO lake.db.people VALUES (4, 'd', 2.0, 'x', 7)");
    sql("ALTER TABLE lake.db.people RENAME COLUMN tag TO label");
    sql("ALTER TABLE lake.db.people DROP COLUMN score");
    sql("ALTER TABLE lake.db.people ALTER COLUMN id DROP NOT NULL");
    assertThat(Dataset.open(p, allocator).schema().toArrow().findField("id").isNullable()).isTrue();
    assertThat(sparkRows(sql("SELECT * FROM lake.db.people"))).containsExactly("1|a|null|null", "2|b|null|null",
        "3|null|null|null", "4|d|x|7");
    assertThat(javelinRows(p, "id", "name", "label", "level")).isEqualTo(
        sparkRows(sql("SELECT * FROM lake.db.people")));

    assertThatThrownBy(() -> sql("CREATE TABLE lake.db.people (x INT)")).isInstanceOf(AnalysisException.class)
        .hasMessageContaining("[TABLE_OR_VIEW_ALREADY_EXISTS]");
    assertThatThrownBy(() -> sql("DROP NAMESPACE lake.db")).isInstanceOf(AnalysisException.class)
        .hasMessageContaining("[SCHEMA_NOT_EMPTY]");
    sql("DROP TABLE lake.db.inner.copy");
    assertThat(copy).doesNotExist();
    try (Stream<Path> s = Files.list(lake.resolve("db").resolve("inner"))) {
      assertThat(s.map(x -> x.getFileName().toString())).containsExactly(JavelinCatalog.NAMESPACE_MARKER);
    }
    sql("DROP NAMESPACE lake.db.inner");
    assertThat(sparkRows(sql("SHOW NAMESPACES IN lake.db"))).isEmpty();
    sql("DROP NAMESPACE lake.db CASCADE");
    assertThat(lake.resolve("db")).doesNotExist();
  }

  @Test
  void rootTablesAreWhereLancesDirectoryNamespaceListsThem() {
    sql("CREATE TABLE lake.events AS SELECT id, id % 3 AS kind FROM range(0, 30)");
    Path p = lake.resolve("events.lance");
    assertThat(p.resolve("_versions")).isDirectory();
    assertThat(sparkRows(sql("SHOW TABLES IN lake"))).contains("|events|false");
    assertThat(javelinRows(p, "id", "kind")).isEqualTo(sparkRows(sql("SELECT id, kind FROM lake.events")));
    sql("DROP TABLE lake.events");
    assertThat(p).doesNotExist();
  }

  @Test
  void timeTravelByVersionTagAndTimestamp() throws InterruptedException {
    sql("CREATE TABLE lake.travel (id BIGINT, v STRING)");
    sql("INSERT INTO lake.travel VALUES (1, 'a'), (2, 'b')");
    Path p = table("travel");
    Dataset.open(p, allocator).tags().create("gold", 2);
    Thread.sleep(20);
    String between = sql("SELECT current_timestamp()").first().get(0).toString();
    Thread.sleep(20);
    sql("INSERT INTO lake.travel VALUES (3, 'c')");
    assertThat(sql("SELECT count(*) FROM lake.travel").first().getLong(0)).isEqualTo(3);
    assertThat(sparkRows(sql("SELECT * FROM lake.travel VERSION AS OF 2"))).containsExactly("1|a", "2|b");
    assertThat(sparkRows(sql("SELECT * FROM lake.travel VERSION AS OF 'gold'"))).containsExactly("1|a", "2|b");
    assertThat(sparkRows(sql("SELECT * FROM lake.travel TIMESTAMP AS OF '" + between + "'")))
        .containsExactly("1|a", "2|b");
    assertThat(sql("SELECT count(*) FROM lake.travel VERSION AS OF 1").first().getLong(0)).isZero();
  }

  @Test
  void fileVersionAndStableRowIdsSetHowTheDatasetIsWritten() {
    sql("CREATE TABLE lake.v20 (id BIGINT) TBLPROPERTIES ('file_version' = '2.0')");
    assertThat(Dataset.open(table("v20"), allocator).fileVersion().toString()).isEqualTo("2.0");
    sql("CREATE TABLE lake.stable TBLPROPERTIES ('enable_stable_row_ids' = 'true') AS SELECT id FROM range(0, 5)");
    assertThat(Dataset.open(table("stable"), allocator).hasStableRowIds()).isTrue();
    assertThat(javelinRows(table("stable"), "id")).containsExactly("0", "1", "2", "3", "4");
    assertThat(Dataset.open(table("v20"), allocator).config()).isEmpty();
    assertThatThrownBy(() -> sql("CREATE TABLE lake.parted (id BIGINT, d INT) PARTITIONED BY (d)"))
        .hasMessage("Javelin tables are not partitioned; drop PARTITIONED BY from the definition of parted");
  }

  @Test
  void otherTablePropertiesAreLanceConfig() {
    sql("CREATE TABLE lake.props (id BIGINT) TBLPROPERTIES ('file_version' = '2.0', 'color' = 'red',"
        + " 'lance.compaction.max_data_files_per_fragment' = '2')");
    Path p = table("props");
    Dataset created = Dataset.open(p, allocator);
    assertThat(created.fileVersion().toString()).isEqualTo("2.0");
    assertThat(created.config()).containsExactlyInAnyOrderEntriesOf(Map.of("color", "red",
        "lance.compaction.max_data_files_per_fragment", "2"));
    assertThat(operations(p)).containsExactly("Overwrite", "UpdateConfig");

    sql("ALTER TABLE lake.props SET TBLPROPERTIES ('color' = 'blue', 'owner_team' = 'ml')");
    assertThat(Dataset.open(p, allocator).config()).containsExactlyInAnyOrderEntriesOf(Map.of("color", "blue",
        "owner_team", "ml", "lance.compaction.max_data_files_per_fragment", "2"));
    sql("ALTER TABLE lake.props UNSET TBLPROPERTIES ('color', 'lance.compaction.max_data_files_per_fragment')");
    assertThat(Dataset.open(p, allocator).config()).containsExactlyEntriesOf(Map.of("owner_team", "ml"));
    assertThat(operations(p)).containsExactly("Overwrite", "UpdateConfig", "UpdateConfig", "UpdateConfig");

    assertThat(sparkRows(sql("SHOW TBLPROPERTIES lake.props"))).contains("owner_team|ml")
        .noneMatch(r -> r.startsWith("color|"));
    assertThat(sparkRows(sql("SHOW TBLPROPERTIES lake.props (owner_team)"))).containsExactly("owner_team|ml");
    assertThat(sparkRows(sql("DESCRIBE TABLE EXTENDED lake.props").where("col_name = 'Table Properties'")
        .select("data_type"))).singleElement().asString().contains("owner_team=ml");

    // CREATE TABLE ... AS SELECT: the rows, then the config.
    sql("CREATE TABLE lake.props_copy TBLPROPERTIES ('color' = 'green') AS SELECT id FROM range(0, 3)");
    Path copy = table("props_copy");
    assertThat(Dataset.open(copy, allocator).config()).containsExactlyEntriesOf(Map.of("color", "green"));
    assertThat(javelinRows(copy, "id")).containsExactly("0", "1", "2");
    assertThat(operations(copy)).containsExactly("Overwrite", "UpdateConfig");
  }

  @Test
  void badTablePropertiesAreRefusedAndChangeNothing() {
    assertThatThrownBy(() -> sql("CREATE TABLE lake.badprops (id BIGINT) TBLPROPERTIES"
        + " ('lance.compaction.max_data_files_per_fragment' = 'many')"))
        .hasMessage("Table config lance.compaction.max_data_files_per_fragment is not a positive integer: 'many'");
    assertThat(table("badprops")).doesNotExist();
    sql("CREATE TABLE lake.altered (id BIGINT)");
    Path p = table("altered");
    assertThatThrownBy(() -> sql("ALTER TABLE lake.altered SET TBLPROPERTIES ('file_version' = '2.1')"))
        .hasMessage("Table property 'file_version' is set when a table is created; ALTER TABLE cannot change it");
    assertThatThrownBy(() -> sql("ALTER TABLE lake.altered SET TBLPROPERTIES"
        + " ('lance.compaction.column_groups' = 'id')"))
        .hasMessage("Table config lance.compaction.column_groups is not a JSON array of arrays of column names:"
            + " 'id'");
    assertThat(operations(p)).containsExactly("Overwrite");
    assertThat(Dataset.open(p, allocator).config()).isEmpty();
  }

  // ---- DML

  @Test
  void deleteIsOneDeleteCommit() {
    sql("CREATE TABLE lake.del AS SELECT id, concat('n', id) AS name FROM range(0, 100)");
    Path p = table("del");
    sql("DELETE FROM lake.del WHERE id % 10 = 3 OR name = 'n50'");
    assertThat(operations(p)).containsExactly("Overwrite", "Delete");
    sql("DELETE FROM lake.del WHERE id >= 90 AND name IS NOT NULL");
    assertThat(operations(p)).containsExactly("Overwrite", "Delete", "Delete");
    var want = spark.range(0, 90).selectExpr("id", "concat('n', id) AS name").filter("id % 10 != 3 AND id != 50");
    assertThat(javelinRows(p, "id", "name")).isEqualTo(sparkRows(want));
    assertThat(sparkRows(sql("SELECT * FROM lake.del"))).isEqualTo(sparkRows(want));

    // A predicate with no Javelin form is refused whole, never narrowed: nothing is deleted.
    assertThatThrownBy(() -> sql("DELETE FROM lake.del WHERE length(name) = 2 OR id = 1"))
        .isInstanceOf(AnalysisException.class)
        .hasMessage("Cannot delete from table lake.del where [(CHAR_LENGTH(name) = 2) OR (id = 1)].");
    assertThat(operations(p)).hasSize(3);
    sql("DELETE FROM lake.del");
    assertThat(Dataset.open(p, allocator).countRows()).isZero();
    assertThat(operations(p)).hasSize(4);
  }

  @Test
  void updateIsOneUpdateCommit() {
    sql("CREATE TABLE lake.upd AS SELECT id, concat('n', id) AS name, id * 2 AS score FROM range(0, 50)");
    Path p = table("upd");
    sql("UPDATE lake.upd SET name = 'x', score = score + 1 WHERE id % 5 = 0 OR id > 45");
    assertThat(operations(p)).containsExactly("Overwrite", "Update");
    var want = spark.range(0, 50).selectExpr("id",
        "IF(id % 5 = 0 OR id > 45, 'x', concat('n', id)) AS name",
        "IF(id % 5 = 0 OR id > 45, id * 2 + 1, id * 2) AS score");
    assertThat(javelinRows(p, "id", "name", "score")).isEqualTo(sparkRows(want));
    assertThat(sparkRows(sql("SELECT * FROM lake.upd"))).isEqualTo(sparkRows(want));

    sql("UPDATE lake.upd SET score = 0");
    assertThat(operations(p)).containsExactly("Overwrite", "Update", "Update");
    assertThat(javelinRows(p, "score")).hasSize(50).containsOnly("0");

    assertThatThrownBy(() -> sql("UPDATE lake.upd SET name = upper(name) WHERE id = 1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("UPDATE lake.upd: the value upper(lake.upd.name) has no Javelin form (columns, literals, comparisons, "
            + "AND/OR/NOT, IN, IS NULL, integer + - * %)");
    assertThat(operations(p)).hasSize(3);
  }

  @Test
  void mergeIntoIsOneMergeInsertCommit() {
    sql("CREATE TABLE lake.tgt AS SELECT id, concat('old', id) AS name FROM range(0, 10)");
    Path p = table("tgt");
    spark.range(5, 15, 1, 2).selectExpr("id", "concat('new', id) AS name").createOrReplaceTempView("src");
    sql("MERGE INTO lake.tgt t USING src s ON t.id = s.id "
        + "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
    assertThat(operations(p)).hasSize(2);
    var want = spark.range(0, 15).selectExpr("id", "IF(id < 5, concat('old', id), concat('new', id)) AS name");
    assertThat(javelinRows(p, "id", "name")).isEqualTo(sparkRows(want));
    assertThat(sparkRows(sql("SELECT * FROM lake.tgt"))).isEqualTo(sparkRows(want));

    spark.range(0, 3).selectExpr("id", "'gone' AS name").createOrReplaceTempView("doomed");
    sql("MERGE INTO lake.tgt USING doomed ON lake.tgt.id = doomed.id WHEN MATCHED THEN DELETE");
    assertThat(operations(p)).hasSize(3);
    assertThat(javelinRows(p, "id", "name")).isEqualTo(sparkRows(want.filter("id >= 3")));

    spark.range(10, 20).selectExpr("id", "concat('last', id) AS name").createOrReplaceTempView("latest");
    sql("MERGE INTO lake.tgt t USING latest s ON t.id = s.id WHEN NOT MATCHED THEN INSERT * "
        + "WHEN NOT MATCHED BY SOURCE THEN DELETE");
    assertThat(operations(p)).hasSize(4);
    var last = spark.range(10, 20).selectExpr("id", "IF(id < 15, concat('new', id), concat('last', id)) AS name");
    assertThat(javelinRows(p, "id", "name")).isEqualTo(sparkRows(last));

    assertThatThrownBy(() -> sql("MERGE INTO lake.tgt t USING latest s ON t.id = s.id "
        + "WHEN MATCHED AND s.id > 12 THEN UPDATE SET *"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("MERGE INTO lake.tgt: " + RowLevelStrategy.MERGE_SHAPE + "; this statement has "
            + "WHEN MATCHED AND ");
    assertThat(operations(p)).hasSize(4);
  }

  @Test
  void aFailedMergeCommitsNothingAndLeavesNoFiles() throws IOException {
    sql("CREATE TABLE lake.twice AS SELECT id, concat('n', id) AS name FROM range(0, 10)");
    Path p = table("twice");
    List<String> before;
    try (Stream<Path> s = Files.walk(p)) {
      before = s.filter(Files::isRegularFile).map(x -> p.relativize(x).toString()).sorted().toList();
    }
    spark.range(0, 4).selectExpr("id % 2 AS id", "'dup' AS name").createOrReplaceTempView("dups");
    assertThatThrownBy(() -> sql("MERGE INTO lake.twice t USING dups s ON t.id = s.id "
        + "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *"))
        .satisfies(e -> {
          Throwable t = e;
          while (t != null && !(t instanceof dev.javelin.core.exceptions.MergeInsertException)) {
            t = t.getCause();
          }
          assertThat(t).as("cause chain of %s", e).isNotNull();
          assertThat(t.getMessage()).startsWith("The source has two rows with key id=");
        });
    assertThat(Dataset.open(p, allocator).version()).isEqualTo(1);
    assertThat(javelinRows(p, "id", "name")).isEqualTo(sparkRows(spark.range(0, 10)
        .selectExpr("id", "concat('n', id) AS name")));
    try (Stream<Path> s = Files.walk(p)) {
      assertThat(s.filter(Files::isRegularFile).map(x -> p.relativize(x).toString()).sorted().toList())
          .isEqualTo(before);
    }
  }

  @Test
  void insertIntoAndInsertOverwriteKeepTheTablesSchema() {
    sql("CREATE TABLE lake.ins (id INT, name STRING)");
    Path p = table("ins");
    sql("INSERT INTO lake.ins VALUES (1, 'a')");
    sql("INSERT INTO lake.ins SELECT CAST(id AS INT), concat('n', id) FROM range(2, 5)");
    assertThat(javelinRows(p, "id", "name")).containsExactly("1|a", "2|n2", "3|n3", "4|n4");
    sql("INSERT OVERWRITE lake.ins VALUES (9, 'z')");
    assertThat(javelinRows(p, "id", "name")).containsExactly("9|z");
    assertThat(Dataset.open(p, allocator).schema().toArrow().getFields().get(0).getType().toString())
        .isEqualTo("Int(32, true)");
    assertThat(operations(p)).containsExactly("Overwrite", "Append", "Append", "Overwrite");
  }
}
