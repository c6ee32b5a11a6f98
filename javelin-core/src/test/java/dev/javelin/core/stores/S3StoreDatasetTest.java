package dev.javelin.core.stores;

import dev.javelin.testing.S3MockServer;
import java.util.Map;
import java.util.UUID;

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
}
