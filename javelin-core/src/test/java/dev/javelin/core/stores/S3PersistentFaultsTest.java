package dev.javelin.core.stores;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.javelin.core.Dataset;
import dev.javelin.core.Session;
import dev.javelin.core.UpdateMode;
import dev.javelin.core.WriteParams;
import dev.javelin.io.ObjectInfo;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.ObjectStores;
import dev.javelin.io.StorageOptions;
import dev.javelin.table.CleanupPolicy;
import dev.javelin.table.exceptions.CommitStateUnknownException;
import dev.javelin.testing.FaultProxy.Fault;
import dev.javelin.testing.FaultProxy.Request;
import dev.javelin.testing.FaultProxy;
import dev.javelin.testing.MixedBatches;
import dev.javelin.testing.Readers;
import dev.javelin.testing.S3MockServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Dataset writes on S3 through a {@link FaultProxy} whose faults do not stop, with few retries and
 * short timeouts: each write fails with an exception naming the dataset, the dataset still opens
 * at its previous version with the same rows, and nothing the failed write stored is left (no
 * object, no unfinished multipart upload).
 */
class S3PersistentFaultsTest {
  private static final int PART = 5 << 20;
  private static final String BUCKET = S3MockServer.shared().newBucket();
  private static final Predicate<Request> ANY = r -> true;
  private static final Predicate<Request> PUT = r -> r.method().equals("PUT");
  private static final Predicate<Request> UPLOAD_PART = r -> PUT.test(r) && r.target().contains("partNumber=");
  private final String prefix = "persistent-" + UUID.randomUUID();
  private final String uri = "s3://" + BUCKET + "/" + prefix + "/ds";
  private FaultProxy proxy;
  private Session session;
  private ObjectStore direct;

  @BeforeEach
  void start() throws Exception {
    proxy = FaultProxy.start(S3MockServer.shared().endpoint()).serializeConditionalWrites();
    session = Session.builder().build();
    direct = ObjectStores.open(uri, StorageOptions.of(S3MockServer.shared().storageOptions()));
  }

  @AfterEach
  void stop() throws Exception {
    direct.close();
    session.close();
    proxy.close();
  }

  private Map<String, String> options() {
    Map<String, String> o = new HashMap<>(S3MockServer.shared().storageOptions(proxy.endpoint()));
    o.put("client_max_retries", "1");
    o.put("timeout", "2s");
    o.put("connect_timeout", "1s");
    o.put("javelin_s3_part_size", String.valueOf(PART));
    return o;
  }

  private WriteParams params() {
    return WriteParams.builder().maxRowsPerFile(500).storageOptions(options()).build();
  }

  private Dataset open() {
    return Dataset.builder(uri).storageOptions(options()).session(session).load();
  }

  private Dataset createDataset() throws Exception {
    try (VectorSchemaRoot batch = MixedBatches.batch(session.allocator(), 0, 2000);
        ArrowReader r = Readers.readerOf(session.allocator(), batch)) {
      Dataset ds = Dataset.create(uri, r, params(), session);
      return ds.createIndex("id").btree().commit().dataset();
    }
  }

  private Set<String> objects() throws Exception {
    Set<String> keys = new TreeSet<>();
    for (ObjectInfo o : direct.list("")) {
      keys.add(o.key());
    }
    return keys;
  }

  private static List<List<Object>> rows(Dataset ds) throws Exception {
    List<List<Object>> out = new ArrayList<>();
    try (ArrowReader r = ds.newScan().build()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot root = r.getVectorSchemaRoot();
        for (int i = 0; i < root.getRowCount(); i++) {
          List<Object> row = new ArrayList<>();
          for (FieldVector v : root.getFieldVectors()) {
            Object o = v.getObject(i);
            row.add(o instanceof byte[] b ? Arrays.toString(b) : o == null ? null : o.toString());
          }
          out.add(row);
        }
      }
    }
    out.sort(Comparator.comparing(row -> Long.parseLong((String) row.get(0))));
    return out;
  }

  /** A dataset operation that may throw. */
  interface Op {
    void run(Dataset ds) throws Exception;
  }

  // Runs op with `fault` on every request `which` picks; asserts what it threw, that the dataset
  // is as before and that the store holds the same objects and no upload.
  private Throwable failsCleanly(Fault fault, Predicate<Request> which, Op op) throws Exception {
    proxy.clear();
    Dataset before = open();
    long version = before.version();
    List<List<Object>> rows = rows(before);
    Set<String> objects = objects();
    proxy.always(fault, which);
    Throwable t = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> catchThrowable(() -> op.run(before)));
    proxy.clear();
    assertThat(t).as("what the operation threw").isNotNull();
    Dataset after = open();
    assertThat(after.version()).isEqualTo(version);
    MixedBatches.assertSameRows(rows(after), rows);
    assertThat(objects()).as("objects after the failed operation").isEqualTo(objects);
    assertThat(direct.listTemporary("")).as("unfinished uploads").isEmpty();
    return t;
  }

  private void append(Dataset ds, long start, int n) throws Exception {
    try (VectorSchemaRoot more = MixedBatches.batch(session.allocator(), start, n)) {
      ds.append(List.of(more), params());
    }
  }

  private String failed(String what) {
    return what + " failed: " + uri;
  }

  @Test
  void writesFailingOnEveryPutLeaveTheDatasetAsItWas() throws Exception {
    createDataset();
    assertThat(failsCleanly(Fault.STATUS_503, PUT, ds -> append(ds, 2000, 1200)))
        .isInstanceOf(UncheckedIOException.class).hasMessage(failed("Write"))
        .hasRootCauseInstanceOf(SdkException.class);
    assertThat(failsCleanly(Fault.STATUS_503, PUT, ds -> ds.delete("id < 700")))
        .isInstanceOf(UncheckedIOException.class).hasMessage(failed("Delete"));
    assertThat(failsCleanly(Fault.STATUS_500, PUT, ds -> ds.update().where("id < 700").set("s", "'changed'")
        .commit())).isInstanceOf(UncheckedIOException.class).hasMessage(failed("Update"));
    assertThat(failsCleanly(Fault.STATUS_503, PUT, ds -> ds.update().where("id < 700").set("x", "2.5")
        .mode(UpdateMode.REWRITE_COLUMNS).commit()))
        .isInstanceOf(UncheckedIOException.class).hasMessage(failed("Update"));
    assertThat(failsCleanly(Fault.STATUS_500, PUT, ds -> ds.addColumns(Map.of("d", "id * 2"))))
        .isInstanceOf(UncheckedIOException.class).hasMessage(failed("Adding columns"));
    assertThat(failsCleanly(Fault.STATUS_503, PUT, ds -> ds.createIndex("x").btree().name("x_idx").commit()))
        .isInstanceOf(UncheckedIOException.class).hasMessage(failed("Creating index 'x_idx'"));
    assertThat(failsCleanly(Fault.STATUS_503, PUT, ds -> ds.compact().targetRowsPerFragment(2000).commit()))
        .isInstanceOf(UncheckedIOException.class).hasMessage(failed("Compaction of fragments [0, 1, 2, 3]"));
    assertThat(failsCleanly(Fault.RESET, PUT, ds -> append(ds, 2000, 10)))
        .isInstanceOf(UncheckedIOException.class).hasMessage(failed("Write"));
  }

  @Test
  void writesFailingOnEveryRequestLeaveTheDatasetAsItWas() throws Exception {
    createDataset();
    Throwable t = failsCleanly(Fault.STATUS_500, ANY, ds -> append(ds, 2000, 10));
    assertThat(t).isInstanceOf(UncheckedIOException.class).hasMessageContaining(uri);
    t = failsCleanly(Fault.STATUS_503, ANY, ds -> ds.delete("id < 700"));
    assertThat(t).isInstanceOf(UncheckedIOException.class).hasMessageContaining(uri);
  }

  @Test
  void aCleanupThatCannotDeleteRemovesNothingVisible() throws Exception {
    createDataset();
    Predicate<Request> deletes = r -> r.method().equals("DELETE") || r.target().endsWith("?delete");
    Throwable t = failsCleanly(Fault.STATUS_500, deletes, ds -> ds.cleanup(CleanupPolicy.builder()
        .retainVersions(1).gracePeriod(Duration.ZERO).build()));
    assertThat(t).isInstanceOf(UncheckedIOException.class)
        .hasMessageStartingWith("Cleanup could not delete " + uri + "/_versions/");
  }

  @Test
  void aCommitWhoseTransactionCannotBeWrittenRemovesItsFiles() throws Exception {
    createDataset();
    Predicate<Request> transactions = r -> PUT.test(r) && r.target().contains("/_transactions/");
    assertThat(failsCleanly(Fault.STATUS_503, transactions, ds -> append(ds, 2000, 1200)))
        .isInstanceOf(UncheckedIOException.class).hasMessageStartingWith("Could not write transaction _transactions/")
        .hasMessageEndingWith(" of " + uri);
  }

  @Test
  void aManifestThatCannotBeCreatedLeavesTheCommitUnknownButTheDatasetReadable() throws Exception {
    Dataset ds = createDataset();
    List<List<Object>> rows = rows(ds);
    Set<String> objects = objects();
    proxy.always(Fault.STATUS_503, r -> PUT.test(r) && r.target().contains("/_versions/"));
    Throwable t = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> catchThrowable(() -> append(ds, 2000, 10)));
    proxy.clear();
    assertThat(t).isInstanceOf(CommitStateUnknownException.class)
        .hasMessageStartingWith("Store failed while creating manifest _versions/")
        .hasMessageEndingWith("; the commit may or may not have landed: " + uri)
        .hasCauseInstanceOf(IOException.class);
    Dataset after = open();
    assertThat(after.version()).isEqualTo(ds.version());
    MixedBatches.assertSameRows(rows(after), rows);
    // As documented, the files the commit may reference are kept: a data file and a transaction, no manifest.
    Set<String> added = objects();
    added.removeAll(objects);
    assertThat(added).hasSize(2).allMatch(k -> k.startsWith("data/") || k.startsWith("_transactions/"));
    assertThat(direct.listTemporary("")).isEmpty();
  }

  private static final Schema BLOBS = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      Field.nullable("blob", ArrowType.Binary.INSTANCE)));

  // Rows of 1 KiB of random bytes each, which no encoding shrinks.
  private VectorSchemaRoot blobs(long start, int n) {
    VectorSchemaRoot root = VectorSchemaRoot.create(BLOBS, session.allocator());
    root.allocateNew();
    Random random = new Random(start);
    byte[] b = new byte[1024];
    for (int i = 0; i < n; i++) {
      ((BigIntVector) root.getVector("id")).setSafe(i, start + i);
      random.nextBytes(b);
      ((VarBinaryVector) root.getVector("blob")).setSafe(i, b);
    }
    root.setRowCount(n);
    return root;
  }

  @Test
  void aLargeWriteWhosePartsFailAbortsItsUpload() throws Exception {
    try (VectorSchemaRoot small = blobs(0, 100); ArrowReader r = Readers.readerOf(session.allocator(), small)) {
      Dataset.create(uri, r, params(), session);
    }
    WriteParams oneFile = WriteParams.builder().maxRowsPerFile(1_000_000).storageOptions(options()).build();
    Predicate<Request> anyUploadRequest = r -> r.target().contains("uploadId=");
    int before = proxy.log().size();
    assertThat(failsCleanly(Fault.STATUS_500, UPLOAD_PART, ds -> {
      try (VectorSchemaRoot big = blobs(100, 7_000)) {
        ds.append(List.of(big), oneFile);
      }
    })).isInstanceOf(UncheckedIOException.class).hasMessage(failed("Write"));
    assertThat(proxy.log().subList(before, proxy.log().size())).anyMatch(l -> l.startsWith("POST ")
        && l.contains("?uploads")).anyMatch(l -> l.startsWith("DELETE ") && l.contains("uploadId="));
    // Completing the upload fails too: it is aborted all the same.
    assertThat(failsCleanly(Fault.STATUS_503, r -> r.method().equals("POST") && anyUploadRequest.test(r), ds -> {
      try (VectorSchemaRoot big = blobs(100, 7_000)) {
        ds.append(List.of(big), oneFile);
      }
    })).isInstanceOf(UncheckedIOException.class).hasMessage(failed("Write"));
  }

  @Test
  void aCreateThatCannotWriteLeavesNoDataset() throws Exception {
    Throwable t = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
      proxy.always(Fault.STATUS_503, PUT);
      return catchThrowable(() -> {
        try (VectorSchemaRoot batch = MixedBatches.batch(session.allocator(), 0, 2000);
            ArrowReader r = Readers.readerOf(session.allocator(), batch)) {
          Dataset.create(uri, r, params(), session);
        }
      });
    });
    proxy.clear();
    assertThat(t).isInstanceOf(UncheckedIOException.class).hasMessage(failed("Write"));
    assertThat(objects()).isEmpty();
    assertThat(direct.listTemporary("")).isEmpty();
  }
}
