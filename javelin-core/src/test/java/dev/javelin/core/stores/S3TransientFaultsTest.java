package dev.javelin.core.stores;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.Session;
import dev.javelin.core.UpdateMode;
import dev.javelin.core.WriteParams;
import dev.javelin.table.CleanupPolicy;
import dev.javelin.table.CleanupResult;
import dev.javelin.testing.FaultProxy.Fault;
import dev.javelin.testing.FaultProxy.Request;
import dev.javelin.testing.FaultProxy;
import dev.javelin.testing.MixedBatches;
import dev.javelin.testing.Readers;
import dev.javelin.testing.S3MockServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dataset API on S3 through a {@link FaultProxy} that answers scattered requests with 503s and
 * 500s, resets connections and cuts bodies short: every operation completes, and its data is the
 * same as the same operations give on a local dataset.
 */
class S3TransientFaultsTest {
  private static final String BUCKET = S3MockServer.shared().newBucket();
  private final String prefix = "faults-" + UUID.randomUUID();
  private FaultProxy proxy;
  private Session session;
  @TempDir
  Path dir;

  @BeforeEach
  void start() throws Exception {
    proxy = FaultProxy.start(S3MockServer.shared().endpoint()).serializeConditionalWrites();
    session = Session.builder().build();
  }

  @AfterEach
  void stop() {
    session.close();
    proxy.close();
  }

  private Map<String, String> options() {
    return S3MockServer.shared().storageOptions(proxy.endpoint());
  }

  private WriteParams params() {
    return WriteParams.builder().maxRowsPerFile(500).storageOptions(options()).build();
  }

  /** Every {@code n}th request {@code which} picks, from the {@code first}th on. */
  private static Predicate<Request> everyNth(int n, int first, Predicate<Request> which) {
    AtomicInteger seen = new AtomicInteger(n - first);
    return r -> which.test(r) && seen.incrementAndGet() % n == 0;
  }

  private static Predicate<Request> method(String m) {
    return r -> r.method().equals(m);
  }

  // A few faults of each kind, spread over the next requests of an operation.
  private void scatterFaults() {
    proxy.clear()
        .inject(Fault.STATUS_503, 2, everyNth(5, 1, r -> true))
        .inject(Fault.STATUS_500, 2, everyNth(7, 3, r -> true))
        .inject(Fault.RESET, 1, everyNth(4, 2, method("GET")))
        .inject(Fault.TRUNCATE, 1, everyNth(3, 2, method("GET")))
        .inject(Fault.RESET, 1, everyNth(3, 1, method("PUT")))
        .inject(Fault.TRUNCATE, 1, everyNth(2, 2, method("PUT")));
  }

  private Dataset create(String uri, Path local, WriteParams params, Dataset[] both) throws Exception {
    try (VectorSchemaRoot batch = MixedBatches.batch(session.allocator(), 0, 3000);
        ArrowReader r = Readers.readerOf(session.allocator(), batch)) {
      both[1] = Dataset.create(local, r, WriteParams.builder().maxRowsPerFile(500).build(), session);
    }
    try (VectorSchemaRoot batch = MixedBatches.batch(session.allocator(), 0, 3000);
        ArrowReader r = Readers.readerOf(session.allocator(), batch)) {
      both[0] = Dataset.create(uri, r, params, session);
    }
    return both[0];
  }

  private static List<List<Object>> sortedRows(Dataset ds, String... columns) throws Exception {
    List<List<Object>> out = new ArrayList<>();
    try (ArrowReader r = ds.newScan().columns(columns).build()) {
      while (r.loadNextBatch()) {
        out.addAll(MixedBatches.rows(r.getVectorSchemaRoot()));
      }
    }
    out.sort(Comparator.comparing(row -> Long.parseLong((String) row.get(0))));
    return out;
  }

  // Reads both (the S3 one under faults) and compares their rows.
  private void assertSame(Dataset s3, Dataset local, String... columns) throws Exception {
    scatterFaults();
    List<List<Object>> got = sortedRows(s3, columns);
    MixedBatches.assertSameRows(got, sortedRows(local, columns));
    assertThat(s3.version()).isEqualTo(local.version());
  }

  @Test
  void everyOperationCompletesWithTheDataOfALocalDataset() throws Exception {
    String uri = "s3://" + BUCKET + "/" + prefix + "/ds";
    Dataset[] both = new Dataset[2];
    scatterFaults();
    create(uri, dir.resolve("ds"), params(), both);
    Dataset s3 = both[0];
    Dataset local = both[1];
    String[] all = {"id", "x", "s", "l", "st"};
    assertSame(s3, local, all);

    scatterFaults();
    try (VectorSchemaRoot more = MixedBatches.batch(session.allocator(), 3000, 1000)) {
      s3 = s3.append(List.of(more), params());
    }
    try (VectorSchemaRoot more = MixedBatches.batch(session.allocator(), 3000, 1000)) {
      local = local.append(List.of(more), WriteParams.builder().maxRowsPerFile(500).build());
    }
    assertSame(s3, local, all);

    scatterFaults();
    try (VectorSchemaRoot taken = s3.take(new long[] {3999, 0, 1500, 2750}, List.of("id", "s"));
        VectorSchemaRoot want = local.take(new long[] {3999, 0, 1500, 2750}, List.of("id", "s"))) {
      assertThat(MixedBatches.rows(taken)).isEqualTo(MixedBatches.rows(want));
      assertThat(((BigIntVector) taken.getVector("id")).get(0)).isEqualTo(3999);
    }

    scatterFaults();
    assertThat(s3.delete().where("id % 10 = 3 OR id < 100").commit().rowsDeleted()).isEqualTo(490);
    s3 = Dataset.builder(uri).storageOptions(options()).session(session).load();
    local = local.delete("id % 10 = 3 OR id < 100");
    assertSame(s3, local, all);

    scatterFaults();
    s3 = s3.update().where("id >= 3990").set("s", "'moved'").commit().dataset();
    local = local.update().where("id >= 3990").set("s", "'moved'").commit().dataset();
    scatterFaults();
    s3 = s3.update().where("id < 300").set("x", "1.5").mode(UpdateMode.REWRITE_COLUMNS).commit().dataset();
    local = local.update().where("id < 300").set("x", "1.5").mode(UpdateMode.REWRITE_COLUMNS).commit().dataset();
    assertSame(s3, local, all);

    scatterFaults();
    s3 = s3.addColumns(Map.of("d", "id * 2"));
    local = local.addColumns(Map.of("d", "id * 2"));
    String[] withD = {"id", "x", "s", "l", "st", "d"};
    assertSame(s3, local, withD);

    scatterFaults();
    s3 = s3.createIndex("id").btree().commit().dataset();
    local = local.createIndex("id").btree().commit().dataset();
    scatterFaults();
    assertThat(s3.explain("id = 777").usesIndex()).isTrue();
    assertThat(StoreDatasetContract.ids(s3, "id = 777")).containsExactly(777L);
    assertThat(StoreDatasetContract.ids(s3, "id = 773")).isEmpty();
    assertThat(StoreDatasetContract.ids(s3, "id >= 3000 AND id < 3020"))
        .containsExactlyInAnyOrderElementsOf(StoreDatasetContract.ids(local, "id >= 3000 AND id < 3020"));

    scatterFaults();
    s3 = s3.compact().targetRowsPerFragment(2000).maxDataFilesPerFragment(1).commit().dataset();
    local = local.compact().targetRowsPerFragment(2000).maxDataFilesPerFragment(1).commit().dataset();
    assertThat(s3.manifest().fragments()).hasSameSizeAs(local.manifest().fragments());
    assertSame(s3, local, withD);
    scatterFaults();
    assertThat(StoreDatasetContract.ids(s3, "id = 1234")).containsExactly(1234L);

    scatterFaults();
    CleanupPolicy policy = CleanupPolicy.builder().retainVersions(1).gracePeriod(Duration.ZERO).build();
    CleanupResult cleaned = s3.cleanup(policy);
    CleanupResult cleanedLocal = local.cleanup(policy);
    assertThat(cleaned.manifestsRemoved()).isEqualTo(cleanedLocal.manifestsRemoved()).isPositive();
    assertThat(cleaned.dataFilesRemoved()).isEqualTo(cleanedLocal.dataFilesRemoved());

    proxy.clear();
    Dataset reopened = Dataset.builder(uri).storageOptions(options()).session(session).load();
    assertThat(reopened.version()).isEqualTo(local.version());
    assertSame(reopened, local, withD);
    assertThat(proxy.faultsInjected()).isGreaterThan(40);
  }
}
