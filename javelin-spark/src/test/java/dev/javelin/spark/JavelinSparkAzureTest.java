package dev.javelin.spark;

import dev.javelin.testing.AzuriteServer;
import java.util.Map;
import java.util.UUID;

/** The connector on Azure Blob Storage (Azurite), by {@code az://} URIs and Lance's storage options. */
class JavelinSparkAzureTest extends SparkStoreContract {
  private static final String CONTAINER = "spark" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);

  static {
    AzuriteServer.shared().createContainer(CONTAINER);
  }

  private final String prefix = "spark-" + UUID.randomUUID();

  @Override
  String uri(String name) {
    return "az://" + CONTAINER + "/" + prefix + "/" + name;
  }

  @Override
  Map<String, String> options() {
    return AzuriteServer.shared().storageOptions();
  }

  @Override
  String secretOption() {
    return "azure_storage_account_key";
  }
}
