package dev.javelin.core.stores;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.Dataset;
import dev.javelin.core.Session;
import dev.javelin.core.WriteParams;
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
}
