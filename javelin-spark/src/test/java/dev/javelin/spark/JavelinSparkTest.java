package dev.javelin.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.Dataset;
import dev.javelin.core.VersionInfo;
import dev.javelin.core.WriteParams;
import dev.javelin.core.compaction.CompactionSummary;
import dev.javelin.core.compaction.CompactionOptions;
import dev.javelin.core.compaction.CompactionScope;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End to end on one local[2,2] session (two threads, a task may fail once and be retried). */
class JavelinSparkTest {
  private static SparkSession spark;

  @TempDir
  Path dir;
  @TestAllocator private BufferAllocator allocator;

  @BeforeAll
  static void startSpark() {
    spark = SparkSession.builder().master("local[2,2]").appName("javelin-spark-test")
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
  }

  // ---- helpers

  /** {@code fragments} fragments of {@code rowsPer} rows: id, name ("n" + id, null every 7th), score. */
  private Path create(String name, int fragments, int rowsPer) {
    Path p = dir.resolve(name);
    List<VectorSchemaRoot> batches = new ArrayList<>();
    try {
      for (int f = 0; f < fragments; f++) {
        batches.add(batch(f * rowsPer, rowsPer));
      }
      Dataset.create(p, batches, WriteParams.builder().maxRowsPerFile(rowsPer).build(), allocator);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
    return p;
  }

  private VectorSchemaRoot batch(long from, int n) {
    BigIntVector id = new BigIntVector("id", allocator);
    VarCharVector name = new VarCharVector("name", allocator);
    Float8Vector score = new Float8Vector("score", allocator);
    for (int i = 0; i < n; i++) {
      long v = from + i;
      id.setSafe(i, v);
      if (v % 7 == 0) {
        name.setNull(i);
      } else {
        name.setSafe(i, ("n" + v).getBytes(StandardCharsets.UTF_8));
      }
      score.setSafe(i, v * 0.5);
    }
    VectorSchemaRoot root = VectorSchemaRoot.of(id, name, score);
    root.setRowCount(n);
    return root;
  }

  /** Javelin's own scan, rows as strings in id order. */
  private List<String> javelinRows(Path p, String filter, String... columns) {
    Dataset ds = Dataset.open(p, allocator);
    var scan = ds.newScan().columns(columns);
    if (filter != null) {
      scan.filter(filter);
    }
    List<String> out = new ArrayList<>();
    try (ArrowReader r = scan.build()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot root = r.getVectorSchemaRoot();
        for (int i = 0; i < root.getRowCount(); i++) {
          List<String> vs = new ArrayList<>();
          for (int c = 0; c < columns.length; c++) {
            Object o = root.getVector(c).getObject(i);
            vs.add(String.valueOf(o));
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

  /** Every file under data/ is referenced by some version, and no job journal is left. */
  private void assertNoOrphans(Path p) throws IOException {
    Dataset ds = Dataset.open(p, allocator);
    Set<String> referenced = new HashSet<>();
    for (VersionInfo v : ds.versions()) {
      for (Fragment f : ds.checkout(v.version()).manifest().fragments()) {
        for (DataFile d : f.files()) {
          referenced.add(d.path());
        }
      }
    }
    Set<String> present = new HashSet<>();
    try (Stream<Path> s = Files.list(p.resolve("data"))) {
      s.forEach(x -> present.add(x.getFileName().toString()));
    }
    assertThat(present).isEqualTo(referenced);
    assertThat(p.resolve(JobJournal.ROOT)).doesNotExist();
  }

  // ---- read

  @Test
  void readsWithPruningFilterAndOnePartitionPerFragment() {
    Path p = create("read", 3, 400);
    var df = spark.read().format("javelin").load(p.toString());
    assertThat(df.rdd().getNumPartitions()).isEqualTo(3);
    assertThat(df.count()).isEqualTo(1200);
    var filtered = df.filter("id >= 100 AND id < 900 AND name IS NOT NULL").select("name", "id");
    assertThat(filtered.queryExecution().executedPlan().toString()).contains("`id` >= 100");
    assertThat(sparkRows(filtered)).isEqualTo(javelinRows(p, "id >= 100 AND id < 900 AND name IS NOT NULL",
        "name", "id"));
    assertThat(sparkRows(df)).isEqualTo(javelinRows(p, null, "id", "name", "score"));
    assertThat(sparkRows(df.filter("name IN ('n5', 'n6') OR score > 598.5").select("id")))
        .containsExactly("1198", "1199", "5", "6");
  }

  @Test
  void readsOlderVersionsAndTags() {
    Path p = create("travel", 2, 100);
    Dataset ds = Dataset.open(p, allocator);
    ds.tags().create("first", ds.version());
    try (VectorSchemaRoot more = batch(200, 50)) {
      ds.append(List.of(more), WriteParams.defaults());
    }
    assertThat(spark.read().format("javelin").load(p.toString()).count()).isEqualTo(250);
    assertThat(spark.read().format("javelin").option("version", "1").load(p.toString()).count()).isEqualTo(200);
    assertThat(spark.read().format("javelin").option("tag", "first").load(p.toString()).count()).isEqualTo(200);
  }

  // ---- compaction

  @Test
  void compactsOnSparkAndLeavesNoOrphans() throws IOException {
    Path p = create("compact", 6, 100);
    List<String> before = javelinRows(p, null, "id", "name", "score");
    CompactionSummary m = SparkCompaction.compact(spark, p.toString(),
        CompactionOptions.builder().targetRowsPerFragment(300).build(), allocator);
    assertThat(m.fragmentsRemoved()).isEqualTo(6);
    assertThat(Dataset.open(p, allocator).manifest().fragments()).hasSize(2);
    assertThat(javelinRows(p, null, "id", "name", "score")).isEqualTo(before);
    assertNoOrphans(p);
  }

  @Test
  void retriedCompactionTasksLeaveNoOrphans() throws IOException {
    Path p = create("compact-retry", 6, 100);
    List<String> before = javelinRows(p, null, "id", "name", "score");
    System.setProperty(FailureInjection.PROPERTY, "compaction");
    SparkCompaction.compact(spark, p.toString(), CompactionOptions.builder().targetRowsPerFragment(300).build(),
        allocator);
    assertThat(Dataset.open(p, allocator).manifest().fragments()).hasSize(2);
    assertThat(javelinRows(p, null, "id", "name", "score")).isEqualTo(before);
    assertNoOrphans(p);
  }

  // ---- write

  @Test
  void writesCreateAppendAndOverwrite() throws IOException {
    Path p = dir.resolve("written");
    var df = spark.range(0, 1000, 1, 2).selectExpr("id", "concat('n', id) AS name", "id * 0.5 AS score");
    df.write().format("javelin").mode("append").save(p.toString());
    assertThat(javelinRows(p, null, "id", "name", "score")).isEqualTo(sparkRows(df));
    assertThat(Dataset.open(p, allocator).manifest().fragments()).hasSize(2);

    df.write().format("javelin").mode("append").save(p.toString());
    assertThat(Dataset.open(p, allocator).countRows()).isEqualTo(2000);

    var other = spark.range(0, 10, 1, 2).selectExpr("id * 3 AS x");
    other.write().format("javelin").mode("overwrite").save(p.toString());
    assertThat(javelinRows(p, null, "x")).isEqualTo(sparkRows(other));
    assertThat(sparkRows(spark.read().format("javelin").load(p.toString()))).isEqualTo(sparkRows(other));
    assertNoOrphans(p);
  }

  @Test
  void appendRefusesNullsInANotNullColumn() throws IOException {
    Path p = dir.resolve("not-null");
    BigIntVector id = new BigIntVector(new org.apache.arrow.vector.types.pojo.Field("id",
        org.apache.arrow.vector.types.pojo.FieldType.notNullable(new org.apache.arrow.vector.types.pojo.ArrowType.Int(
            64, true)), null), allocator);
    for (int i = 0; i < 5; i++) {
      id.setSafe(i, i);
    }
    try (VectorSchemaRoot root = VectorSchemaRoot.of(id)) {
      root.setRowCount(5);
      Dataset.create(p, List.of(root), WriteParams.defaults(), allocator);
    }
    Set<String> before = new HashSet<>();
    try (Stream<Path> s = Files.walk(p)) {
      s.filter(Files::isRegularFile).forEach(x -> before.add(p.relativize(x).toString()));
    }
    var df = spark.range(0, 1000, 1, 2).selectExpr("IF(id = 700, NULL, id) AS id");
    assertThatThrownBy(() -> df.write().format("javelin").mode("append").save(p.toString()))
        .satisfies(e -> {
          Throwable t = e;
          while (t != null && !(t instanceof dev.javelin.table.exceptions.NullValueException)) {
            t = t.getCause();
          }
          assertThat(t).as("cause chain of %s", e).isNotNull();
          assertThat(t).hasMessage("Column 'id' is not nullable but the distributed write writes nulls into it: "
              + Dataset.open(p, allocator).location());
        });
    assertThat(Dataset.open(p, allocator).version()).isEqualTo(1);
    Set<String> after = new HashSet<>();
    try (Stream<Path> s = Files.walk(p)) {
      s.filter(Files::isRegularFile).forEach(x -> after.add(p.relativize(x).toString()));
    }
    assertThat(after).isEqualTo(before);
  }

  @Test
  void retriedWriteTasksLeaveNoOrphans() throws IOException {
    Path p = dir.resolve("written-retry");
    var df = spark.range(0, 1000, 1, 2).selectExpr("id", "concat('n', id) AS name");
    System.setProperty(FailureInjection.PROPERTY, "write");
    df.write().format("javelin").mode("append").save(p.toString());
    assertThat(javelinRows(p, null, "id", "name")).isEqualTo(sparkRows(df));
    assertNoOrphans(p);
  }

  // ---- backfill

  @Test
  void backfillsAColumnPerFragmentAsOneMerge() throws IOException {
    Path p = create("backfill", 3, 200);
    Dataset.open(p, allocator).delete("id % 10 = 3");
    System.setProperty(FailureInjection.PROPERTY, "backfill");
    long v = SparkBackfill.addColumn(spark, p.toString(), "label", DataTypes.StringType, List.of("id", "name"),
        row -> row.isNullAt(1) ? null : row.getString(1) + ":" + (row.getLong(0) * 2));
    Dataset ds = Dataset.open(p, allocator);
    assertThat(ds.version()).isEqualTo(v);
    assertThat(ds.versions().get(ds.versions().size() - 1).operation()).isEqualTo("Merge");
    List<String> want = new ArrayList<>();
    for (String r : javelinRows(p, null, "id", "name")) {
      String[] s = r.split("\\|");
      want.add(r + "|" + (s[1].equals("null") ? "null" : s[1] + ":" + Long.parseLong(s[0]) * 2));
    }
    want.sort(null);
    assertThat(javelinRows(p, null, "id", "name", "label")).isEqualTo(want);
    assertThat(sparkRows(spark.read().format("javelin").load(p.toString()).select("id", "name", "label")))
        .isEqualTo(want);
    assertNoOrphans(p);
    assertThatThrownBy(() -> SparkBackfill.addColumn(spark, p.toString(), "label", DataTypes.StringType,
        List.of("id"), row -> "x")).hasMessage("Column 'label' already exists in the dataset: " + p);

    // Then repack on Spark: each fragment's two files become one, values unchanged.
    System.clearProperty(FailureInjection.PROPERTY);
    CompactionSummary m = SparkCompaction.compact(spark, p.toString(), CompactionOptions.builder()
        .scope(CompactionScope.REPACK_COLUMNS).maxDataFilesPerFragment(1).build(), allocator);
    assertThat(m.fragmentsRepacked()).isEqualTo(3);
    for (Fragment f : Dataset.open(p, allocator).manifest().fragments()) {
      assertThat(f.files()).hasSize(1);
    }
    assertThat(javelinRows(p, null, "id", "name", "label")).isEqualTo(want);
    assertNoOrphans(p);
  }

  @Test
  void aFailedBackfillCommitsNothingAndLeavesNoFiles() throws IOException {
    Path p = create("backfill-fails", 3, 100);
    long before = Dataset.open(p, allocator).version();
    assertThatThrownBy(() -> SparkBackfill.addColumn(spark, p.toString(), "boom", DataTypes.LongType,
        List.of("id"), row -> {
          if (row.getLong(0) == 250) {
            throw new IllegalArgumentException("no value for 250");
          }
          return row.getLong(0);
        })).hasMessageContaining("no value for 250");
    assertThat(Dataset.open(p, allocator).version()).isEqualTo(before);
    assertNoOrphans(p);
  }

  @Test
  void indexedFiltersReadTheSameRows() {
    Path p = create("indexed", 4, 250);
    Dataset.open(p, allocator).createIndex("id", dev.javelin.index.IndexType.BTREE);
    var df = spark.read().format("javelin").load(p.toString());
    String[] filters = {"id = 321", "id IN (5, 600, 999)", "id >= 990 OR id < 3", "name = 'n42'"};
    for (String f : filters) {
      assertThat(sparkRows(df.filter(f).select("id", "name"))).as(f).isEqualTo(javelinRows(p, f, "id", "name"));
    }
  }
}
