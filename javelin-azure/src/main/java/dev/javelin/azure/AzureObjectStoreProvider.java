package dev.javelin.azure;

import dev.javelin.io.ObjectStore;
import dev.javelin.io.ObjectStoreProvider;
import dev.javelin.io.StorageOptions;
import java.net.URI;
import java.util.Set;

/**
 * Opens {@code az://}, {@code azure://}, {@code abfs://} and {@code abfss://} URIs as
 * {@link AzureObjectStore}s, for {@link dev.javelin.io.ObjectStores#open} (registered with
 * {@link java.util.ServiceLoader}).
 *
 * <p>{@code az://container/prefix} takes its account from {@code azure_storage_account_name}
 * (or {@code AZURE_STORAGE_ACCOUNT_NAME}); {@code abfss://container@account.dfs.core.windows.net/prefix}
 * from its host, and is read through the account's blob endpoint. Options, with Lance's names
 * and aliases, each falling back to its {@code AZURE_*} environment variable:
 * {@code azure_storage_account_key} ({@code account_key}, {@code access_key}, ...),
 * {@code azure_storage_sas_token} ({@code sas_token}, {@code sas_key}),
 * {@code azure_storage_use_emulator} ({@code use_emulator}: Azurite's account, key and
 * {@code AZURITE_BLOB_STORAGE_URL} or {@code http://127.0.0.1:10000}),
 * {@code azure_storage_endpoint} ({@code azure_endpoint}, {@code endpoint}: the blob service URL),
 * {@code azure_skip_signature} (a public container), {@code client_max_retries} (10), and
 * Javelin's {@code azure_block_size} (4 MiB) and {@code azure_upload_concurrency} (4) for streamed
 * writes. Azure AD sign-in (client id and secret, managed identity) is not supported.
 */
public final class AzureObjectStoreProvider implements ObjectStoreProvider {
  @Override
  public Set<String> schemes() {
    return Set.of("az", "azure", "abfs", "abfss");
  }

  @Override
  public ObjectStore open(URI location, StorageOptions options) {
    return AzureObjectStore.open(AzureConfig.of(location, options));
  }
}
