package dev.javelin.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.Dataset;
import dev.javelin.core.Session;
import dev.javelin.core.VersionInfo;
import dev.javelin.core.compaction.CompactionOptions;
import dev.javelin.core.compaction.CompactionScope;
import dev.javelin.core.compaction.CompactionSummary;
import dev.javelin.io.ObjectInfo;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The connector on one kind of object store, by URI and storage options: options as data source
 * options or Spark session config, reaching the executors through the partitions and tasks
 * (local[2,2]: two threads, a task may fail once and be retried). Each store's test extends this
 * with a fresh location.
 */
abstract class SparkStoreContract {
  static SparkSession spark;

  @TestAllocator BufferAllocator allocator;

  /** The URI of a new, empty dataset location named {@code name}. */
  abstract String uri(String name);

  /** The storage options the store needs. */
  abstract Map<String, String> options();

  /** An option holding a credential: a wrong value of it must not reach the store when the data source gives it. */
  abstract String secretOption();

  @BeforeAll
  static void startSpark() {
    spark = SparkSession.builder().master("local[2,2]").appName("javelin-spark-store-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.extensions", JavelinSparkExtensions.class.getName())
        .getOrCreate();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  @AfterEach
  void tearDown() {
    System.clearProperty(FailureInjection.PROPERTY);
    for (String k : options().keySet()) {
      spark.conf().unset(ConnectorOptions.SESSION_PREFIX + k);
    }
  }

  Dataset open(String uri) {
    return Dataset.builder(uri).storageOptions(options()).allocator(allocator).load();
  }

  static org.apache.spark.sql.Dataset<Row> rows(long from, long to, int partitions) {
    return spark.range(from, to, 1, partitions).selectExpr("id", "IF(id % 7 = 0, NULL, concat('n', id)) AS name",
        "id * 0.5 AS score");
  }

  static List<String> sparkRows(org.apache.spark.sql.Dataset<Row> df) {
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

  org.apache.spark.sql.Dataset<Row> read(String uri) {
    return spark.read().format("javelin").options(options()).load(uri);
  }

  /** Every object under data/ is referenced by some version, and no job journal is left. */
  void assertNoOrphans(String uri) throws IOException {
    Dataset ds = open(uri);
    Set<String> referenced = new HashSet<>();
    for (VersionInfo v : ds.versions()) {
      for (Fragment f : ds.checkout(v.version()).manifest().fragments()) {
        for (DataFile d : f.files()) {
          referenced.add("data/" + d.path());
        }
      }
    }
    ObjectStore store = Session.defaultSession().store(uri, options());
    Set<String> present = new HashSet<>();
    for (ObjectInfo o : store.list("data/")) {
      present.add(o.key());
    }
    assertThat(present).isEqualTo(referenced);
    assertThat(store.list(JobJournal.ROOT)).isEmpty();
  }

  @Test
  void writesReadsFiltersAndAppendsWithDataSourceOptions() throws IOException {
    String uri = uri("people");
    var df = rows(0, 1000, 2);
    df.write().format("javelin").options(options()).mode("append").save(uri);
    assertThat(open(uri).manifest().fragments()).hasSize(2);
    assertThat(sparkRows(read(uri))).isEqualTo(sparkRows(df));
    assertThat(read(uri).rdd().getNumPartitions()).isEqualTo(2);

    var filtered = read(uri).filter("id >= 100 AND id < 900 AND name IS NOT NULL").select("name", "id");
    assertThat(filtered.queryExecution().executedPlan().toString()).contains("`id` >= 100");
    assertThat(sparkRows(filtered)).isEqualTo(sparkRows(df.filter("id >= 100 AND id < 900 AND name IS NOT NULL")
        .select("name", "id")));

    var more = rows(1000, 1500, 2);
    more.write().format("javelin").options(options()).mode("append").save(uri);
    assertThat(open(uri).countRows()).isEqualTo(1500);
    assertThat(sparkRows(read(uri))).isEqualTo(sparkRows(df.union(more)));
    assertThat(spark.read().format("javelin").options(options()).option("version", "1").load(uri)
        .count()).isEqualTo(1000);
    assertNoOrphans(uri);
  }

  @Test
  void sessionConfigGivesStorageOptionsAndDataSourceOptionsWin() throws IOException {
    options().forEach((k, v) -> spark.conf().set(ConnectorOptions.SESSION_PREFIX + k, v));
    String uri = uri("by-config");
    var df = rows(0, 300, 3);
    df.write().format("javelin").mode("append").save(uri);
    assertThat(sparkRows(spark.read().format("javelin").load(uri))).isEqualTo(sparkRows(df));
    assertThat(spark.read().format("javelin").load(uri).filter("id < 10").count()).isEqualTo(10);

    // An option of the data source replaces the config's key of the same name.
    spark.conf().set(ConnectorOptions.SESSION_PREFIX + secretOption(), "d3Jvbmc=");
    assertThat(sparkRows(read(uri))).isEqualTo(sparkRows(df));
    assertNoOrphans(uri);
  }

  @Test
  void backfillsAndCompactsOnSparkWithRetriedTasks() throws IOException {
    String uri = uri("maintained");
    rows(0, 600, 6).write().format("javelin").options(options()).mode("append").save(uri);
    assertThat(open(uri).manifest().fragments()).hasSize(6);

    System.setProperty(FailureInjection.PROPERTY, "backfill");
    long v = SparkBackfill.addColumn(spark, uri, options(), "label", DataTypes.StringType,
        List.of("id", "name"), row -> row.isNullAt(1) ? null : row.getString(1) + ":" + (row.getLong(0) * 2));
    Dataset ds = open(uri);
    assertThat(ds.version()).isEqualTo(v);
    assertThat(ds.versions().get(ds.versions().size() - 1).operation()).isEqualTo("Merge");
    var want = rows(0, 600, 2).selectExpr("id", "name", "score",
        "IF(name IS NULL, NULL, concat(name, ':', id * 2)) AS label");
    assertThat(sparkRows(read(uri).select("id", "name", "score", "label"))).isEqualTo(sparkRows(want));
    assertNoOrphans(uri);

    System.setProperty(FailureInjection.PROPERTY, "compaction");
    CompactionSummary repack = SparkCompaction.compact(spark, uri, options(), CompactionOptions.builder()
        .scope(CompactionScope.REPACK_COLUMNS).maxDataFilesPerFragment(1).build(), allocator);
    assertThat(repack.fragmentsRepacked()).isEqualTo(6);
    for (Fragment f : open(uri).manifest().fragments()) {
      assertThat(f.files()).hasSize(1);
    }
    CompactionSummary m = SparkCompaction.compact(spark, uri, options(),
        CompactionOptions.builder().targetRowsPerFragment(300).build(), allocator);
    assertThat(m.fragmentsRemoved()).isEqualTo(6);
    assertThat(open(uri).manifest().fragments()).hasSize(2);
    assertThat(sparkRows(read(uri).select("id", "name", "score", "label"))).isEqualTo(sparkRows(want));
    assertNoOrphans(uri);
  }

  /** Javelin's own scan of the newest version of {@code uri}, rows as "a|b|c" strings, sorted. */
  List<String> javelinRows(String uri, String... columns) throws IOException {
    List<String> out = new ArrayList<>();
    try (ArrowReader r = open(uri).newScan().columns(columns).build()) {
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
    }
    out.sort(null);
    return out;
  }

  @Test
  void theDefaultSaveModeCreatesWithDataSourceOptions() throws IOException {
    String uri = uri("default-mode");
    var df = rows(0, 120, 2);
    df.write().format("javelin").options(options()).save(uri);
    assertThat(javelinRows(uri, "id", "name", "score")).isEqualTo(sparkRows(df));
    assertThatThrownBy(() -> rows(0, 5, 1).write().format("javelin").options(options()).save(uri))
        .isInstanceOf(AnalysisException.class).hasMessageContaining("[TABLE_OR_VIEW_ALREADY_EXISTS]");
    rows(0, 5, 1).write().format("javelin").options(options()).mode("ignore").save(uri);
    assertThat(open(uri).version()).isEqualTo(1);
    assertNoOrphans(uri);
  }

  @Test
  void sqlThroughACatalogRootedOnTheStore() throws IOException {
    String catalog = "lake_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    String root = uri("lake");
    spark.conf().set("spark.sql.catalog." + catalog, JavelinCatalog.class.getName());
    spark.conf().set("spark.sql.catalog." + catalog + ".root", root);
    options().forEach((k, v) -> spark.conf().set("spark.sql.catalog." + catalog + "." + k, v));
    String t = catalog + ".db.people";
    String uri = root + "/db/people.lance";

    spark.sql("CREATE NAMESPACE " + catalog + ".db");
    rows(0, 300, 2).createOrReplaceTempView("first_people");
    spark.sql("CREATE TABLE " + t + " AS SELECT * FROM first_people");
    rows(300, 400, 2).createOrReplaceTempView("more_people");
    spark.sql("INSERT INTO " + t + " SELECT * FROM more_people");
    spark.sql("DELETE FROM " + t + " WHERE id < 50 OR name IS NULL");
    spark.sql("UPDATE " + t + " SET name = 'u' WHERE id >= 350");
    rows(390, 420, 2).selectExpr("id", "concat('m', id) AS name", "id * 0.5 AS score")
        .createOrReplaceTempView("changed_people");
    spark.sql("MERGE INTO " + t + " t USING changed_people s ON t.id = s.id "
        + "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
    var want = rows(0, 390, 2).filter("id >= 50 AND name IS NOT NULL")
        .selectExpr("id", "IF(id >= 350, 'u', name) AS name", "score")
        .union(rows(390, 420, 2).selectExpr("id", "concat('m', id) AS name", "id * 0.5 AS score"));
    assertThat(javelinRows(uri, "id", "name", "score")).isEqualTo(sparkRows(want));
    assertThat(sparkRows(spark.sql("SELECT * FROM " + t))).isEqualTo(sparkRows(want));
    assertThat(open(uri).versions().stream().map(VersionInfo::operation).toList()).hasSize(5)
        .startsWith("Overwrite", "Append", "Delete", "Update");
    assertThat(spark.sql("SELECT count(*) FROM " + t + " VERSION AS OF 1").first().getLong(0)).isEqualTo(300);
    assertThat(sparkRows(spark.sql("SHOW TABLES IN " + catalog + ".db"))).containsExactly("db|people|false");
    assertNoOrphans(uri);

    spark.sql("DROP TABLE " + t);
    ObjectStore store = Session.defaultSession().store(root, options());
    assertThat(store.list("db/people.lance/")).isEmpty();
    spark.sql("DROP NAMESPACE " + catalog + ".db");
    assertThat(store.list("")).isEmpty();
  }

  @Test
  void compactionExecutorTakesTheSessionConfig() throws IOException {
    String uri = uri("executor");
    rows(0, 400, 4).write().format("javelin").options(options()).mode("append").save(uri);
    options().forEach((k, v) -> spark.conf().set(ConnectorOptions.SESSION_PREFIX + k, v));
    CompactionSummary m = SparkCompaction.compact(spark, uri,
        CompactionOptions.builder().targetRowsPerFragment(400).build());
    assertThat(m.fragmentsRemoved()).isEqualTo(4);
    assertThat(open(uri).manifest().fragments()).hasSize(1);
    assertThat(sparkRows(read(uri))).isEqualTo(sparkRows(rows(0, 400, 1)));
    assertNoOrphans(uri);
  }
}
