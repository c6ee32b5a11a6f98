package dev.javelin.azure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.io.ObjectStore;
import dev.javelin.io.ObjectStores;
import dev.javelin.io.StorageOptions;
import dev.javelin.testing.AzuriteServer;
import dev.javelin.testing.ObjectStoreContract;
import java.util.UUID;

/** The store contract on Azurite, each test under a fresh prefix of one container, opened by URI. */
class AzureObjectStoreContractTest extends ObjectStoreContract {
  static final String CONTAINER = "contract";

  @Override
  protected ObjectStore newStore() {
    AzuriteServer azurite = AzuriteServer.shared();
    azurite.createContainer(CONTAINER);
    ObjectStore store = ObjectStores.open("az://" + CONTAINER + "/t-" + UUID.randomUUID(),
        StorageOptions.of(azurite.storageOptions()));
    assertThat(store).isInstanceOf(AzureObjectStore.class);
    return store;
  }
}
