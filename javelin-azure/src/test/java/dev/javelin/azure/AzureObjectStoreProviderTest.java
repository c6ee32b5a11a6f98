package dev.javelin.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.io.ObjectStore;
import dev.javelin.io.ObjectStores;
import dev.javelin.io.StorageOptions;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ObjectStores.open finds the provider for each Azure scheme; opening sends no request. */
class AzureObjectStoreProviderTest {
  private static final StorageOptions KEY = StorageOptions.of(Map.of("account_name", "acct",
      "account_key", AzureConfig.EMULATOR_KEY));

  @Test
  void claimsLancesAzureSchemes() {
    assertThat(new AzureObjectStoreProvider().schemes()).containsExactlyInAnyOrder("az", "azure", "abfs", "abfss");
  }

  @Test
  void everySchemeOpensAnAzureStore() {
    for (String uri : new String[] {"az://c/p", "azure://c/p", "abfs://c@acct.dfs.core.windows.net/p",
        "abfss://c@acct.dfs.core.windows.net/p"}) {
      try (ObjectStore store = ObjectStores.open(uri, KEY)) {
        assertThat(store).as(uri).isInstanceOf(AzureObjectStore.class);
        assertThat(store.location()).isEqualTo(uri);
        assertThat(((AzureObjectStore) store).container()).isEqualTo("c");
        assertThat(((AzureObjectStore) store).prefix()).isEqualTo("p/");
      }
    }
  }

  @Test
  void badOptionsFailWhenOpening() {
    assertThatThrownBy(() -> ObjectStores.open("az://c/p", StorageOptions.of(Map.of("account_name", "a",
        "account_key", "%%%"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Storage option account_key is not valid base64");
  }
}
