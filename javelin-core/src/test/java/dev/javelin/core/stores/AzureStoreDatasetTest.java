package dev.javelin.core.stores;

import dev.javelin.testing.AzuriteServer;
import java.util.Map;
import java.util.UUID;

/** The dataset API on Azure Blob Storage (Azurite), by {@code az://} URI and Lance's storage options. */
class AzureStoreDatasetTest extends StoreDatasetContract {
  private static final String CONTAINER = "c" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);

  static {
    AzuriteServer.shared().createContainer(CONTAINER);
  }

  private final String prefix = "t-" + UUID.randomUUID();

  @Override
  protected String uri(String name) {
    return "az://" + CONTAINER + "/" + prefix + "/" + name;
  }

  @Override
  protected Map<String, String> options() {
    return AzuriteServer.shared().storageOptions();
  }
}
