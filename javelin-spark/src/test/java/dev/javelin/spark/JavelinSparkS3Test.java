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
import dev.javelin.io.UnsupportedStoreException;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import dev.javelin.testing.S3MockServer;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The connector on S3 (S3Mock in a child JVM), by {@code s3a://} and {@code s3://} URIs: storage
 * options as data source options or Spark session config, reaching the executors through the
 * partitions and tasks (local[2,2]: two threads, a task may fail once and be retried).
 */
class JavelinSparkS3Test {
  private static final S3MockServer S3 = S3MockServer.shared();
  private static final String BUCKET = S3.newBucket();
  private static SparkSession spark;

  private final String prefix = "spark-" + UUID.randomUUID();
  @TestAllocator private BufferAllocator allocator;

  @BeforeAll
  static void startSpark() {
    spark = SparkSession.builder().master("local[2,2]").appName("javelin-spark-s3-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  @AfterEach
  void tearDown() {
    System.clearProperty(FailureInjection.PROPERTY);
    for (String k : S3.storageOptions().keySet()) {
      spark.conf().unset(ConnectorOptions.SESSION_PREFIX + k);
    }
  }

  private String uri(String scheme, String name) {
    return scheme + "://" + BUCKET + "/" + prefix + "/" + name;
  }

  private Dataset open(String uri) {
    return Dataset.builder(uri).storageOptions(S3.storageOptions()).allocator(allocator).load();
  }

  private static org.apache.spark.sql.Dataset<Row> rows(long from, long to, int partitions) {
    return spark.range(from, to, 1, partitions).selectExpr("id", "IF(id % 7 = 0, NULL, concat('n', id)) AS name",
        "id * 0.5 AS score");
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

  private org.apache.spark.sql.Dataset<Row> read(String uri) {
    return spark.read().format("javelin").options(S3.storageOptions()).load(uri);
  }

  /** Every object under data/ is referenced by some version, and no job journal is left. */
  private void assertNoOrphans(String uri) throws IOException {
    Dataset ds = open(uri);
    Set<String> referenced = new HashSet<>();
    for (VersionInfo v : ds.versions()) {
      for (Fragment f : ds.checkout(v.version()).manifest().fragments()) {
        for (DataFile d : f.files()) {
          referenced.add("data/" + d.path());
        }
      }
    }
    ObjectStore store = Session.defaultSession().store(uri, S3.storageOptions());
    Set<String> present = new HashSet<>();
    for (ObjectInfo o : store.list("data/")) {
      present.add(o.key());
    }
    assertThat(present).isEqualTo(referenced);
    assertThat(store.list(JobJournal.ROOT)).isEmpty();
  }

  @Test
  void writesReadsFiltersAndAppendsWithDataSourceOptions() throws IOException {
    String uri = uri("s3a", "people");
    var df = rows(0, 1000, 2);
    df.write().format("javelin").options(S3.storageOptions()).mode("append").save(uri);
    assertThat(open(uri).manifest().fragments()).hasSize(2);
    assertThat(sparkRows(read(uri))).isEqualTo(sparkRows(df));
    assertThat(read(uri).rdd().getNumPartitions()).isEqualTo(2);

    var filtered = read(uri).filter("id >= 100 AND id < 900 AND name IS NOT NULL").select("name", "id");
    assertThat(filtered.queryExecution().executedPlan().toString()).contains("`id` >= 100");
    assertThat(sparkRows(filtered)).isEqualTo(sparkRows(df.filter("id >= 100 AND id < 900 AND name IS NOT NULL")
        .select("name", "id")));

    // The same dataset by s3:// (one store for both schemes' keys), appended to on the executors.
    String same = uri("s3", "people");
    var more = rows(1000, 1500, 2);
    more.write().format("javelin").options(S3.storageOptions()).mode("append").save(same);
    assertThat(open(uri).countRows()).isEqualTo(1500);
    assertThat(sparkRows(read(same))).isEqualTo(sparkRows(df.union(more)));
    assertThat(spark.read().format("javelin").options(S3.storageOptions()).option("version", "1").load(uri)
        .count()).isEqualTo(1000);
    assertNoOrphans(uri);
  }

  @Test
  void sessionConfigGivesStorageOptionsAndDataSourceOptionsWin() throws IOException {
    S3.storageOptions().forEach((k, v) -> spark.conf().set(ConnectorOptions.SESSION_PREFIX + k, v));
    String uri = uri("s3a", "by-config");
    var df = rows(0, 300, 3);
    df.write().format("javelin").mode("append").save(uri);
    assertThat(sparkRows(spark.read().format("javelin").load(uri))).isEqualTo(sparkRows(df));
    assertThat(spark.read().format("javelin").load(uri).filter("id < 10").count()).isEqualTo(10);

    // An option of the data source replaces the config's key of the same name.
    spark.conf().set(ConnectorOptions.SESSION_PREFIX + "aws_secret_access_key", "wrong");
    spark.conf().set(ConnectorOptions.SESSION_PREFIX + "aws_access_key_id", "wrong");
    spark.conf().unset(ConnectorOptions.SESSION_PREFIX + "aws_endpoint");
    assertThat(sparkRows(read(uri))).isEqualTo(sparkRows(df));
    assertThat(ConnectorOptions.merge(Map.of("aws_region", "eu-west-1", "aws_endpoint", "http://a"),
        Map.of("path", uri, "version", "3", "AWS_Region", "us-east-1")))
        .isEqualTo(Map.of("aws_region", "us-east-1", "aws_endpoint", "http://a"));
    assertNoOrphans(uri);
  }

  @Test
  void backfillsAndCompactsOnSparkWithRetriedTasks() throws IOException {
    String uri = uri("s3a", "maintained");
    rows(0, 600, 6).write().format("javelin").options(S3.storageOptions()).mode("append").save(uri);
    assertThat(open(uri).manifest().fragments()).hasSize(6);

    System.setProperty(FailureInjection.PROPERTY, "backfill");
    long v = SparkBackfill.addColumn(spark, uri, S3.storageOptions(), "label", DataTypes.StringType,
        List.of("id", "name"), row -> row.isNullAt(1) ? null : row.getString(1) + ":" + (row.getLong(0) * 2));
    Dataset ds = open(uri);
    assertThat(ds.version()).isEqualTo(v);
    assertThat(ds.versions().get(ds.versions().size() - 1).operation()).isEqualTo("Merge");
    var want = rows(0, 600, 2).selectExpr("id", "name", "score",
        "IF(name IS NULL, NULL, concat(name, ':', id * 2)) AS label");
    assertThat(sparkRows(read(uri).select("id", "name", "score", "label"))).isEqualTo(sparkRows(want));
    assertNoOrphans(uri);

    System.setProperty(FailureInjection.PROPERTY, "compaction");
    CompactionSummary repack = SparkCompaction.compact(spark, uri, S3.storageOptions(), CompactionOptions.builder()
        .scope(CompactionScope.REPACK_COLUMNS).maxDataFilesPerFragment(1).build(), allocator);
    assertThat(repack.fragmentsRepacked()).isEqualTo(6);
    for (Fragment f : open(uri).manifest().fragments()) {
      assertThat(f.files()).hasSize(1);
    }
    CompactionSummary m = SparkCompaction.compact(spark, uri, S3.storageOptions(),
        CompactionOptions.builder().targetRowsPerFragment(300).build(), allocator);
    assertThat(m.fragmentsRemoved()).isEqualTo(6);
    assertThat(open(uri).manifest().fragments()).hasSize(2);
    assertThat(sparkRows(read(uri).select("id", "name", "score", "label"))).isEqualTo(sparkRows(want));
    assertNoOrphans(uri);
  }

  @Test
  void compactionExecutorTakesTheSessionConfig() throws IOException {
    String uri = uri("s3", "executor");
    rows(0, 400, 4).write().format("javelin").options(S3.storageOptions()).mode("append").save(uri);
    S3.storageOptions().forEach((k, v) -> spark.conf().set(ConnectorOptions.SESSION_PREFIX + k, v));
    CompactionSummary m = SparkCompaction.compact(spark, uri,
        CompactionOptions.builder().targetRowsPerFragment(400).build());
    assertThat(m.fragmentsRemoved()).isEqualTo(4);
    assertThat(open(uri).manifest().fragments()).hasSize(1);
    assertThat(sparkRows(read(uri))).isEqualTo(sparkRows(rows(0, 400, 1)));
    assertNoOrphans(uri);
  }

  @Test
  void anUnknownSchemeOrMissingCredentialsIsAClearError() {
    String unknown = "foo://" + BUCKET + "/x";
    String message = "Unknown storage scheme 'foo' in " + unknown + "; Javelin opens local paths, file:, s3, s3a URIs";
    assertThatThrownBy(() -> spark.read().format("javelin").load(unknown))
        .isInstanceOf(UnsupportedStoreException.class).hasMessage(message);
    assertThatThrownBy(() -> rows(0, 10, 1).write().format("javelin").mode("append").save(unknown))
        .isInstanceOf(UnsupportedStoreException.class).hasMessage(message);
    assertThatThrownBy(() -> SparkCompaction.compact(spark, unknown, CompactionOptions.builder().build()))
        .isInstanceOf(UnsupportedStoreException.class).hasMessage(message);

    Map<String, String> noSecret = new HashMap<>(S3.storageOptions());
    noSecret.remove("aws_secret_access_key");
    String uri = uri("s3a", "no-secret");
    String credentials = "Storage option aws_access_key_id is set but aws_secret_access_key is not: give both, "
        + "or neither to use the default AWS credentials chain";
    assertThatThrownBy(() -> spark.read().format("javelin").options(noSecret).load(uri))
        .isInstanceOf(IllegalArgumentException.class).hasMessage(credentials);
    assertThatThrownBy(() -> rows(0, 10, 1).write().format("javelin").options(noSecret).mode("append").save(uri))
        .isInstanceOf(IllegalArgumentException.class).hasMessage(credentials);
    assertThatThrownBy(() -> SparkBackfill.addColumn(spark, uri, noSecret, "x", DataTypes.LongType, List.of("id"),
        row -> 1L)).isInstanceOf(IllegalArgumentException.class).hasMessage(credentials);
  }
}
