package dev.javelin.core.stores;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.DeleteResult;
import dev.javelin.core.IndexInfo;
import dev.javelin.core.QueryAnalysis;
import dev.javelin.core.ScanBuilder;
import dev.javelin.core.ScanPlan;
import dev.javelin.core.Session;
import dev.javelin.core.UpdateMode;
import dev.javelin.core.VectorSearchPlan;
import dev.javelin.core.VersionInfo;
import dev.javelin.core.WriteParams;
import dev.javelin.core.cluster.ClusterResult;
import dev.javelin.core.compaction.CompactionMode;
import dev.javelin.core.compaction.CompactionSummary;
import dev.javelin.index.DistanceType;
import dev.javelin.index.IndexType;
import dev.javelin.index.IvfPqParams;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.RequestCounters.Kind;
import dev.javelin.io.RequestCounts;
import dev.javelin.table.CleanupPolicy;
import dev.javelin.table.CleanupResult;
import dev.javelin.testing.MixedBatches;
import dev.javelin.testing.Readers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The whole dataset API on one kind of store, by URI and storage options, as a user would drive
 * it: every operation's data read back. Each store's test extends this with a fresh location.
 */
public abstract class StoreDatasetContract {
  private Session session;

  /** The URI of a new, empty dataset location named {@code name}. */
  protected abstract String uri(String name);

  /** The storage options the store needs. */
  protected abstract Map<String, String> options();

  @BeforeEach
  void openSession() {
    session = Session.builder().build();
  }

  @AfterEach
  void closeSession() {
    session.close();
  }

  private BufferAllocator allocator() {
    return session.allocator();
  }

  private WriteParams params(long rowsPerFile) {
    return WriteParams.builder().maxRowsPerFile(rowsPerFile).storageOptions(options()).build();
  }

  private Dataset create(String uri, long start, int rows, long rowsPerFile) throws Exception {
    try (VectorSchemaRoot batch = MixedBatches.batch(allocator(), start, rows);
        ArrowReader r = Readers.readerOf(allocator(), batch)) {
      return Dataset.create(uri, r, params(rowsPerFile), session);
    }
  }

  private Dataset open(String uri) {
    return Dataset.builder(uri).storageOptions(options()).session(session).load();
  }

  /** The ids of the rows {@code filter} selects (every row if null), in scan order. */
  public static List<Long> ids(Dataset ds, String filter) throws Exception {
    List<Long> out = new ArrayList<>();
    ScanBuilder scan = ds.newScan().columns("id");
    try (ArrowReader r = (filter == null ? scan : scan.filter(filter)).build()) {
      while (r.loadNextBatch()) {
        BigIntVector v = (BigIntVector) r.getVectorSchemaRoot().getVector("id");
        for (int i = 0; i < v.getValueCount(); i++) {
          out.add(v.get(i));
        }
      }
    }
    return out;
  }

  private List<List<Object>> rows(Dataset ds) throws Exception {
    List<List<Object>> out = new ArrayList<>();
    try (ArrowReader r = ds.newScan().columns("id", "x", "s", "l", "st").build()) {
      while (r.loadNextBatch()) {
        out.addAll(MixedBatches.rows(r.getVectorSchemaRoot()));
      }
    }
    return out;
  }

  @Test
  void writesReadsAndChangesData() throws Exception {
    String uri = uri("people");
    Dataset ds = create(uri, 0, 3000, 1000);
    try (VectorSchemaRoot want = MixedBatches.batch(allocator(), 0, 3000)) {
      MixedBatches.assertSameRows(rows(open(uri)), MixedBatches.rows(want));
    }
    try (VectorSchemaRoot more = MixedBatches.batch(allocator(), 3000, 1000)) {
      ds = ds.append(List.of(more), params(1000));
    }
    assertThat(open(uri).countRows()).isEqualTo(4000);
    assertThat(ids(ds, "id >= 2998 AND id < 3002")).containsExactly(2998L, 2999L, 3000L, 3001L);
    try (VectorSchemaRoot taken = ds.take(new long[] {3999, 0, 1500}, List.of("id"))) {
      assertThat(((BigIntVector) taken.getVector("id")).get(0)).isEqualTo(3999);
      assertThat(((BigIntVector) taken.getVector("id")).get(2)).isEqualTo(1500);
    }
    DeleteResult deleted = ds.delete().where("id < 100").commit();
    assertThat(deleted.rowsDeleted()).isEqualTo(100);
    ds = deleted.dataset();
    ds = ds.update().where("id >= 3990").set("s", "'moved'").commit().dataset();
    ds = ds.update().where("id < 200").set("x", "1.5").mode(UpdateMode.REWRITE_COLUMNS).commit().dataset();
    ds = ds.addColumns(Map.of("d", "id * 2"));
    ds = ds.dropColumns("l");
    Dataset reopened = open(uri);
    assertThat(reopened.version()).isEqualTo(ds.version());
    assertThat(reopened.countRows()).isEqualTo(3900);
    assertThat(ids(reopened, "s = 'moved'")).hasSize(10);
    assertThat(ids(reopened, "x = 1.5")).hasSize(100);
    assertThat(ids(reopened, "d = 1000")).containsExactly(500L);
    assertThat(reopened.schema().toArrow().getFields()).extracting(Field::getName)
        .containsExactly("id", "x", "s", "st", "d");
    List<VersionInfo> versions = Dataset.versions(uri, options());
    assertThat(versions).hasSize((int) reopened.version());
    assertThat(Dataset.builder(uri).storageOptions(options()).version(1).session(session).load().countRows())
        .isEqualTo(3000);
  }

  @Test
  void indexesCompactsClustersAndCleansUp() throws Exception {
    String uri = uri("events");
    Dataset ds = create(uri, 0, 4000, 500).delete("id % 10 = 3");
    ds = ds.createIndex("id").btree().commit().dataset();
    assertThat(ds.explain("id = 777").usesIndex()).isTrue();
    assertThat(ids(ds, "id = 777")).containsExactly(777L);
    assertThat(ids(ds, "id = 773")).isEmpty();
    ds = ds.addColumns(Map.of("d", "id + 1"));
    CompactionSummary compacted = ds.compact().targetRowsPerFragment(2000).maxDataFilesPerFragment(1).commit();
    ds = compacted.dataset();
    assertThat(compacted.fragmentsRemoved()).isEqualTo(8);
    assertThat(ds.manifest().fragments()).hasSize(2);
    assertThat(ds.countRows()).isEqualTo(3600);
    assertThat(ids(ds, "id = 777")).containsExactly(777L);
    assertThat(ids(ds, "d = 778")).containsExactly(777L);
    ClusterResult clustered = ds.cluster().by("x").commit();
    ds = clustered.dataset();
    assertThat(ds.countRows()).isEqualTo(3600);
    ds = ds.settleIndices().dataset();
    assertThat(ids(ds, "id = 1234")).containsExactly(1234L);
    // The clustering built a zone map on its key.
    assertThat(ds.indices()).extracting(IndexInfo::type).containsExactlyInAnyOrder(IndexType.BTREE, IndexType.ZONEMAP);
    assertThat(ds.explain("x < 3").indices()).extracting(ScanPlan.IndexUse::type).containsExactly(IndexType.ZONEMAP);

    ds.tags().create("clustered", ds.version());
    Dataset branch = ds.createBranch("exp").delete("id < 1000");
    assertThat(branch.countRows()).isEqualTo(2700);
    assertThat(open(uri).countRows()).isEqualTo(3600);
    assertThat(Dataset.builder(uri).storageOptions(options()).tag("clustered").session(session).load().version())
        .isEqualTo(ds.version());

    CleanupResult cleaned = ds.cleanup(CleanupPolicy.builder().retainVersions(1)
        .gracePeriod(java.time.Duration.ZERO).build());
    assertThat(cleaned.manifestsRemoved()).isPositive();
    Dataset after = open(uri);
    assertThat(after.countRows()).isEqualTo(3600);
    assertThat(ids(after, "id >= 3990")).containsExactlyInAnyOrder(3990L, 3991L, 3992L, 3994L, 3995L, 3996L,
        3997L, 3998L, 3999L);
  }

  /** Whether the store counts its requests ({@link ObjectStore#requests()}): the remote stores do. */
  protected boolean countsRequests() {
    return true;
  }

  @Test
  void analyzeSaysWhatAQueryAskedOfTheStore() throws Exception {
    String uri = uri("analyzed");
    create(uri, 0, 2000, 500).createIndex("id").btree().commit();
    Dataset ds = open(uri);

    QueryAnalysis<ScanPlan> lookup = ds.newScan().columns("id").filter("id = 1234").analyze();
    assertThat(lookup.rows()).isEqualTo(1);
    assertThat(lookup.plan().usesIndex()).isTrue();
    QueryAnalysis<ScanPlan> full = ds.newScan().analyze();
    assertThat(full.rows()).isEqualTo(2000);
    assertThat(full.plan().scannedFragments()).hasSize(4);
    assertThat(full.describe()).contains("rows: 2000 in ", "requests: ");
    for (RequestCounts r : List.of(lookup.requests(), full.requests())) {
      // A read sends no writes, whatever the store.
      for (Kind k : List.of(Kind.PUT, Kind.DELETE, Kind.MULTIPART)) {
        assertThat(r.count(k)).as(k.name()).isZero();
      }
    }
    if (!countsRequests()) {
      assertThat(full.requests()).isEqualTo(RequestCounts.ZERO);
      return;
    }
    assertThat(lookup.requests().count(Kind.GET)).isPositive();
    assertThat(full.requests().count(Kind.GET)).isPositive();
    // Every column of every row was read: at least the 2000 ids' 16,000 bytes came over the wire.
    assertThat(full.requests().bytes(Kind.GET)).isGreaterThanOrEqualTo(2000 * 8);
    assertThat(full.describe()).contains("requests: GET " + full.requests().count(Kind.GET) + " (");
    // The same lookup again: the index and the files' metadata are cached by the session, so it
    // asks for no listing or size, and for no more than the first lookup did.
    QueryAnalysis<ScanPlan> again = ds.newScan().columns("id").filter("id = 1234").analyze();
    assertThat(again.rows()).isEqualTo(1);
    assertThat(again.requests().total()).isLessThanOrEqualTo(lookup.requests().total());
    assertThat(again.requests().count(Kind.LIST) + again.requests().count(Kind.HEAD)).isZero();
  }

  @Test
  void commitsOnTheVersionReadWithoutListingOrAskingForSizes() throws Exception {
    String uri = uri("committed");
    create(uri, 0, 2000, 500);
    Dataset ds = open(uri);
    Dataset other = open(uri);
    RequestCounts before = ds.store().requests().snapshot();
    try (VectorSchemaRoot more = MixedBatches.batch(allocator(), 2000, 500)) {
      ds = ds.append(List.of(more), params(500));
    }
    RequestCounts append = ds.store().requests().snapshot().minus(before);
    CompactionSummary compacted = ds.compact().targetRowsPerFragment(10_000).commit();
    RequestCounts compact = ds.store().requests().snapshot().minus(before).minus(append);
    assertThat(compacted.dataset().manifest().fragments()).hasSize(1);
    assertThat(compacted.dataset().countRows()).isEqualTo(2500);
    if (countsRequests()) {
      // An append on the version just read: its data file, its transaction and its manifest; the
      // new version is simply created, nothing is listed, no object's size is asked for.
      assertThat(append.count(Kind.LIST)).isZero();
      assertThat(append.count(Kind.HEAD)).isZero();
      assertThat(append.count(Kind.GET)).isZero();
      // A compaction reads its sources with the sizes the manifest records and commits twice (the
      // fragment ids, then the rewrite) with no listing either.
      assertThat(compact.count(Kind.LIST)).isZero();
      assertThat(compact.count(Kind.HEAD)).isZero();
    }
    // A writer still on the first version finds its version taken, lists, and commits after both.
    try (VectorSchemaRoot more = MixedBatches.batch(allocator(), 2500, 100)) {
      other = other.append(List.of(more), params(500));
    }
    assertThat(other.version()).isEqualTo(compacted.dataset().version() + 1);
    Dataset reopened = open(uri);
    assertThat(reopened.version()).isEqualTo(other.version());
    List<Long> ids = ids(reopened, null);
    assertThat(ids).hasSize(2600).doesNotHaveDuplicates();
    assertThat(ids(reopened, "id >= 1999 AND id <= 2000 OR id >= 2599")).containsExactlyInAnyOrder(1999L, 2000L,
        2599L);
  }

  @Test
  void scansOfManyFragmentsReadAheadAndCloseCleanly() throws Exception {
    String uri = uri("many");
    Dataset ds = create(uri, 0, 6000, 500).delete("id % 7 = 0");
    List<Long> want = new ArrayList<>();
    for (long i = 0; i < 6000; i++) {
      if (i % 7 != 0) {
        want.add(i);
      }
    }
    Dataset opened = open(uri);
    // Closed after one batch, while later fragments are opened and fetched ahead.
    try (ArrowReader r = opened.newScan().columns("id", "s").batchSize(100).parallelism(2).build()) {
      assertThat(r.loadNextBatch()).isTrue();
    }
    assertThat(ids(opened, null)).isEqualTo(want);
    assertThat(ids(opened, "id >= 5000 AND id < 5010")).containsExactly(5000L, 5001L, 5002L, 5003L, 5004L,
        5006L, 5007L, 5008L, 5009L); // 5005 = 7 * 715 is deleted
    assertThat(ds.countRows()).isEqualTo(want.size());
  }

  static final int DIM = 8;
  static final Schema VECTORS = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(DIM)), List.of(
          new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null)))));

  @Test
  void searchesAVectorIndex() throws Exception {
    String uri = uri("vectors");
    int rows = 3000;
    Random random = new Random(11);
    float[][] data = new float[rows][DIM];
    Dataset ds;
    try (VectorSchemaRoot root = VectorSchemaRoot.create(VECTORS, allocator())) {
      root.allocateNew();
      FixedSizeListVector v = (FixedSizeListVector) root.getVector("v");
      Float4Vector f = (Float4Vector) v.getDataVector();
      for (int i = 0; i < rows; i++) {
        ((BigIntVector) root.getVector("id")).setSafe(i, i);
        v.setNotNull(i);
        for (int j = 0; j < DIM; j++) {
          data[i][j] = (i % 16) * 4 + random.nextFloat();
          f.setSafe(i * DIM + j, data[i][j]);
        }
      }
      root.setRowCount(rows);
      try (ArrowReader r = Readers.readerOf(allocator(), root)) {
        ds = Dataset.create(uri, r, params(1000), session);
      }
    }
    ds = ds.createIndex("v").ivfPq(IvfPqParams.of(4, 2, DistanceType.L2).withIterations(5, 5)).commit().dataset();
    try (VectorSchemaRoot hits = open(uri).nearest("v", data[42]).k(5).refineFactor(5).execute()) {
      BigIntVector id = (BigIntVector) hits.getVector("id");
      assertThat(hits.getRowCount()).isEqualTo(5);
      assertThat(id.get(0)).isEqualTo(42);
      for (int i = 0; i < 5; i++) {
        assertThat(id.get(i) % 16).isEqualTo(42 % 16);
      }
    }
    QueryAnalysis<VectorSearchPlan> searched = open(uri).nearest("v", data[42]).k(5).refineFactor(5).analyze();
    assertThat(searched.rows()).isEqualTo(5);
    assertThat(searched.plan().index()).isNotNull();
    assertThat(searched.describe()).contains("index: ", "rows: 5 in 1 batch", "requests: ");
    if (countsRequests()) {
      assertThat(searched.requests().count(Kind.GET)).isPositive();
    }
  }

  @Test
  void aBinaryCopyHasTheStoreCopyThePagesWhereItCan() throws Exception {
    String uri = uri("binary-copy");
    int rows = 1_500_000; // 12 MB of incompressible longs per fragment: more than two 5 MiB parts
    WriteParams params = WriteParams.builder().storageOptions(options()).maxRowsPerFile(rows).build();
    Dataset ds = null;
    for (int f = 0; f < 2; f++) {
      try (BigIntVector v = new BigIntVector("v", session.allocator())) {
        SplittableRandom random = new SplittableRandom(f);
        v.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
          v.set(i, random.nextLong());
        }
        v.setValueCount(rows);
        try (VectorSchemaRoot batch = VectorSchemaRoot.of(v);
            ArrowReader r = Readers.readerOf(session.allocator(), batch)) {
          ds = ds == null ? Dataset.create(uri, r, params, session) : ds.append(r, params);
        }
      }
    }
    long sum = sum(ds);
    RequestCounts before = ds.store().requests().snapshot();
    CompactionSummary compacted = ds.compact().mode(CompactionMode.FORCE_BINARY_COPY)
        .targetRowsPerFragment(2L * rows).commit();
    RequestCounts copy = ds.store().requests().snapshot().minus(before);

    Dataset after = compacted.dataset();
    assertThat(after.manifest().fragments()).hasSize(1);
    assertThat(after.countRows()).isEqualTo(2L * rows);
    assertThat(sum(after)).isEqualTo(sum);
    if (countsRequests() && ds.store().copiesServerSide()) {
      // The store copied each source's pages (S3: all but a first 5 MiB part); the client moved
      // little more than the files' metadata.
      assertThat(copy.count(Kind.COPY)).isEqualTo(2);
      assertThat(copy.bytes(Kind.COPY)).isGreaterThan(2 * (12_000_000L - (5L << 20)) - (1 << 20));
      assertThat(copy.bytes(Kind.GET)).isLessThan(2 * (5L << 20) + (1 << 20));
      assertThat(copy.bytes(Kind.PUT)).isLessThan(2 * (5L << 20) + (1 << 20));
    }
    assertThat(sum(open(uri))).isEqualTo(sum);
  }

  private static long sum(Dataset ds) throws Exception {
    long sum = 0;
    try (ArrowReader r = ds.newScan().columns("v").build()) {
      while (r.loadNextBatch()) {
        BigIntVector v = (BigIntVector) r.getVectorSchemaRoot().getVector("v");
        for (int i = 0; i < v.getValueCount(); i++) {
          sum = sum * 31 + v.get(i);
        }
      }
    }
    return sum;
  }
}
