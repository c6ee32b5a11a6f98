package dev.javelin.core.stores;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.Dataset;
import dev.javelin.core.Session;
import dev.javelin.core.WriteParams;
import dev.javelin.core.compaction.CompactionMode;
import dev.javelin.core.compaction.CompactionSummary;
import dev.javelin.io.RequestCounters.Kind;
import dev.javelin.io.RequestCounts;
import java.util.SplittableRandom;
import org.apache.arrow.vector.BigIntVector;
import dev.javelin.io.UnsupportedStoreException;
import dev.javelin.testing.MixedBatches;
import dev.javelin.testing.Readers;
import dev.javelin.testing.S3MockServer;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;

/** The dataset API on S3 (S3Mock, in a child JVM), by {@code s3://} URI and Lance's storage options. */
class S3StoreDatasetTest extends StoreDatasetContract {
  private static final String BUCKET = S3MockServer.shared().newBucket();
  private final String prefix = "t-" + UUID.randomUUID();

  @Override
  protected String uri(String name) {
    return "s3://" + BUCKET + "/" + prefix + "/" + name;
  }

  @Override
  protected Map<String, String> options() {
    return S3MockServer.shared().storageOptions();
  }

  @Test
  void aServerWithoutConditionalPutsIsNeverCommittedTo() throws Exception {
    Map<String, String> unsafe = new HashMap<>(options());
    unsafe.put("aws_conditional_put", "disabled");
    String uri = uri("unsafe");
    try (Session session = Session.builder().build();
        VectorSchemaRoot batch = MixedBatches.batch(session.allocator(), 0, 10);
        ArrowReader r = Readers.readerOf(session.allocator(), batch)) {
      assertThatThrownBy(() -> Dataset.create(uri, r, WriteParams.builder().storageOptions(unsafe).build(), session))
          .isInstanceOf(UnsupportedStoreException.class)
          .hasMessage("Cannot commit to " + uri + ": its store cannot create an object only if it is absent, so "
              + "concurrent writers could overwrite each other's versions; Javelin does not write to such a store");
      assertThat(session.store(uri, unsafe).list("")).isEmpty();
    }
  }

  @Test
  void aServerWithoutConditionalPutsGetsNoTagsEither() throws Exception {
    Map<String, String> unsafe = new HashMap<>(options());
    unsafe.put("aws_conditional_put", "disabled");
    String uri = uri("unsafe-tags");
    try (Session session = Session.builder().build();
        VectorSchemaRoot batch = MixedBatches.batch(session.allocator(), 0, 10);
        ArrowReader r = Readers.readerOf(session.allocator(), batch)) {
      Dataset.create(uri, r, WriteParams.builder().storageOptions(options()).build(), session);
      Dataset ds = Dataset.builder(uri).storageOptions(unsafe).session(session).load();
      assertThat(ds.countRows()).isEqualTo(10);
      assertThatThrownBy(() -> ds.tags().create("v1", 1))
          .isInstanceOf(UnsupportedStoreException.class)
          .hasMessage("Cannot create tag 'v1' in " + uri + ": its store cannot create an object only if it is "
              + "absent, so concurrent writers could overwrite each other's tags; Javelin does not write to such "
              + "a store");
      assertThatThrownBy(() -> ds.createBranch("b")).isInstanceOf(UnsupportedStoreException.class);
      assertThat(session.store(uri, options()).list("_refs/")).isEmpty();
      assertThat(ds.tags().list()).isEmpty();
    }
  }
  @Test
  void aBinaryCopyHasS3CopyThePagesInsteadOfDownloadingThem() throws Exception {
    String uri = uri("binary-copy");
    int rows = 1_500_000; // 12 MB of incompressible longs per fragment: more than two 5 MiB parts
    try (Session session = Session.builder().build()) {
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
      // S3 copied all but the first 5 MiB of each source's pages; the client moved the rest only.
      assertThat(copy.count(Kind.COPY)).isEqualTo(2);
      assertThat(copy.bytes(Kind.COPY)).isGreaterThan(2 * (12_000_000L - (5L << 20)) - (1 << 20));
      assertThat(copy.bytes(Kind.GET)).isLessThan(2 * (5L << 20) + (1 << 20));
      assertThat(copy.bytes(Kind.PUT)).isLessThan(2 * (5L << 20) + (1 << 20));
      assertThat(sum(Dataset.builder(uri).storageOptions(options()).session(session).load())).isEqualTo(sum);
    }
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
