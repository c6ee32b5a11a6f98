package dev.javelin.s3;

import dev.javelin.io.ObjectStore;
import dev.javelin.io.ObjectStores;
import dev.javelin.io.StorageOptions;
import dev.javelin.testing.ObjectStoreContract;
import dev.javelin.testing.S3MockServer;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;

/** The store contract against S3Mock, each test in a fresh prefix of one bucket, opened by URI. */
class S3ObjectStoreContractTest extends ObjectStoreContract {
  private static String bucket;

  @BeforeAll
  static void createBucket() {
    bucket = S3MockServer.shared().newBucket();
  }

  @Override
  protected ObjectStore newStore() {
    return ObjectStores.open("s3://" + bucket + "/contract-" + UUID.randomUUID(),
        StorageOptions.of(S3MockServer.shared().storageOptions()));
  }
}
