package dev.javelin.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.io.StorageOptions;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** URIs, Lance's option names and aliases, the environment fallback, and the errors of bad options. */
class AzureConfigTest {
  private static final String KEY = AzureConfig.EMULATOR_KEY;
  private static final Map<String, String> NO_ENV = Map.of();

  private static AzureConfig config(String uri, Map<String, String> options) {
    return AzureConfig.of(URI.create(uri), StorageOptions.of(options), NO_ENV);
  }

  private static AzureConfig config(String uri, Map<String, String> options, Map<String, String> env) {
    return AzureConfig.of(URI.create(uri), StorageOptions.of(options), env);
  }

  @Test
  void azUriNamesContainerAndPrefixWithTheAccountFromOptions() {
    AzureConfig c = config("az://data/tables/t1.lance", Map.of("azure_storage_account_name", "acct",
        "azure_storage_account_key", KEY));
    assertThat(c.container).isEqualTo("data");
    assertThat(c.prefix).isEqualTo("tables/t1.lance/");
    assertThat(c.account).isEqualTo("acct");
    assertThat(c.endpoint).isEqualTo("https://acct.blob.core.windows.net");
    assertThat(c.auth).isEqualTo(AzureConfig.Auth.SHARED_KEY);
    assertThat(c.accountKey).isEqualTo(KEY);
    assertThat(c.location).isEqualTo("az://data/tables/t1.lance");
    assertThat(c.maxRetries).isEqualTo(10);
    assertThat(c.blockSize).isEqualTo(4 << 20);
    assertThat(c.uploadConcurrency).isEqualTo(4);
  }

  @Test
  void aContainerAloneOrATrailingSlashIsTheSameRoot() {
    Map<String, String> o = Map.of("account_name", "acct", "account_key", KEY);
    assertThat(config("az://data", o).prefix).isEmpty();
    assertThat(config("azure://data/", o).prefix).isEmpty();
    assertThat(config("az://data/a/b/", o).prefix).isEqualTo("a/b/");
    assertThat(config("az://data/a/b/", o).location).isEqualTo("az://data/a/b");
  }

  @Test
  void abfssTakesTheAccountFromTheHostAndUsesTheBlobEndpoint() {
    AzureConfig c = config("abfss://data@myacct.dfs.core.windows.net/lake/t.lance",
        Map.of("account_name", "other", "access_key", KEY));
    assertThat(c.container).isEqualTo("data");
    assertThat(c.account).isEqualTo("myacct");
    assertThat(c.endpoint).isEqualTo("https://myacct.blob.core.windows.net");
    assertThat(c.prefix).isEqualTo("lake/t.lance/");
    assertThat(c.location).isEqualTo("abfss://data@myacct.dfs.core.windows.net/lake/t.lance");
    AzureConfig china = config("abfs://data@acct2.blob.core.chinacloudapi.cn/x", Map.of("access_key", KEY));
    assertThat(china.endpoint).isEqualTo("https://acct2.blob.core.chinacloudapi.cn");
    assertThat(china.account).isEqualTo("acct2");
  }

  @Test
  void badUrisNameWhatIsWrong() {
    Map<String, String> o = Map.of("account_name", "acct", "account_key", KEY);
    assertThatThrownBy(() -> config("az:///path", o)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Azure URI has no container: az:///path (expected az://container/path or"
            + " az://container@account.dfs.core.windows.net/path)");
    assertThatThrownBy(() -> config("abfss://data@example.com/p", o)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Azure URI host must be account.dfs.<domain> or account.blob.<domain>, not 'example.com':"
            + " abfss://data@example.com/p");
    assertThatThrownBy(() -> config("abfss://@acct.dfs.core.windows.net/p", o))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Azure URI has no container: abfss://@acct.dfs.core.windows.net/p");
  }

  @Test
  void keyAliasesAndCaseInsensitiveNames() {
    for (String name : new String[] {"azure_storage_account_key", "azure_storage_access_key", "account_key",
        "access_key", "AZURE_STORAGE_ACCOUNT_KEY", "Master_Key"}) {
      AzureConfig c = config("az://c", Map.of("ACCOUNT_NAME", "acct", name, KEY));
      assertThat(c.accountKey).as(name).isEqualTo(KEY);
      assertThat(c.account).isEqualTo("acct");
    }
  }

  @Test
  void sasTokenAliasesDropALeadingQuestionMark() {
    for (String name : new String[] {"azure_storage_sas_token", "azure_storage_sas_key", "sas_token", "sas_key"}) {
      AzureConfig c = config("az://c", Map.of("account_name", "acct", name, "?sv=2021&sig=abc"));
      assertThat(c.auth).as(name).isEqualTo(AzureConfig.Auth.SAS);
      assertThat(c.sasToken).isEqualTo("sv=2021&sig=abc");
    }
    assertThatThrownBy(() -> config("az://c", Map.of("account_name", "acct", "sas_token", "?")))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("Storage option sas_token is empty");
  }

  @Test
  void anAccountKeyWinsOverASasToken() {
    AzureConfig c = config("az://c", Map.of("account_name", "a", "sas_token", "sig=x", "account_key", KEY));
    assertThat(c.auth).isEqualTo(AzureConfig.Auth.SHARED_KEY);
  }

  @Test
  void theEmulatorBringsAzuritesAccountKeyAndUrl() {
    AzureConfig c = config("az://c/p", Map.of("use_emulator", "true"));
    assertThat(c.account).isEqualTo("devstoreaccount1");
    assertThat(c.accountKey).isEqualTo(KEY);
    assertThat(c.endpoint).isEqualTo("http://127.0.0.1:10000/devstoreaccount1");
    AzureConfig env = config("az://c/p", Map.of("azure_storage_use_emulator", "yes"),
        Map.of("AZURITE_BLOB_STORAGE_URL", "http://localhost:12345/"));
    assertThat(env.endpoint).isEqualTo("http://localhost:12345/devstoreaccount1");
    AzureConfig endpoint = config("az://c/p", Map.of("use_emulator", "1", "endpoint", "http://127.0.0.1:9999/devstoreaccount1/"));
    assertThat(endpoint.endpoint).isEqualTo("http://127.0.0.1:9999/devstoreaccount1");
    assertThatThrownBy(() -> config("az://c", Map.of("use_emulator", "maybe")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Storage option use_emulator must be true or false, not 'maybe'");
  }

  @Test
  void endpointAliases() {
    for (String name : new String[] {"azure_storage_endpoint", "azure_endpoint", "endpoint"}) {
      AzureConfig c = config("az://c", Map.of("account_name", "a", "account_key", KEY, name, " https://proxy.example/a/ "));
      assertThat(c.endpoint).as(name).isEqualTo("https://proxy.example/a");
    }
    assertThatThrownBy(() -> config("az://c", Map.of("account_name", "a", "account_key", KEY, "azure_endpoint", "ftp://x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Storage option azure_endpoint must be an http:// or https:// URL, not 'ftp://x'");
  }

  @Test
  void theEnvironmentFillsInWhatTheOptionsLeaveOut() {
    Map<String, String> env = Map.of("AZURE_STORAGE_ACCOUNT_NAME", "envacct", "AZURE_STORAGE_ACCOUNT_KEY", KEY,
        "AZURE_STORAGE_SAS_TOKEN", "sig=env");
    AzureConfig c = config("az://c", Map.of(), env);
    assertThat(c.account).isEqualTo("envacct");
    assertThat(c.auth).isEqualTo(AzureConfig.Auth.SHARED_KEY);
    AzureConfig options = config("az://c", Map.of("account_name", "optacct"), env);
    assertThat(options.account).isEqualTo("optacct");
    AzureConfig sas = config("az://c", Map.of(), Map.of("AZURE_STORAGE_ACCOUNT_NAME", "a", "AZURE_STORAGE_SAS_TOKEN", "sig=env"));
    assertThat(sas.sasToken).isEqualTo("sig=env");
    // only AZURE_* variables count: a generic ACCOUNT_NAME or ENDPOINT in the environment is not ours
    assertThatThrownBy(() -> config("az://c", Map.of(), Map.of("ACCOUNT_NAME", "x", "ACCOUNT_KEY", KEY)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("No Azure storage account for az://c:");
    AzureConfig emulator = config("az://c", Map.of(), Map.of("AZURE_STORAGE_USE_EMULATOR", "true"));
    assertThat(emulator.account).isEqualTo("devstoreaccount1");
    assertThatThrownBy(() -> config("az://c", Map.of(), Map.of("AZURE_STORAGE_USE_EMULATOR", "sure")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Storage option AZURE_STORAGE_USE_EMULATOR must be true or false, not 'sure'");
  }

  @Test
  void missingAccountOrCredentialsSayWhatToSet() {
    assertThatThrownBy(() -> config("az://c/p", Map.of("account_key", KEY)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("No Azure storage account for az://c/p: set azure_storage_account_name (or"
            + " AZURE_STORAGE_ACCOUNT_NAME), or name it in the URI (abfss://container@account.dfs.core.windows.net/path)");
    assertThatThrownBy(() -> config("az://c/p", Map.of("account_name", "acct")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("No Azure credentials for account acct: set azure_storage_account_key or azure_storage_sas_token"
            + " (or AZURE_STORAGE_ACCOUNT_KEY, AZURE_STORAGE_SAS_TOKEN), azure_storage_use_emulator for Azurite,"
            + " or azure_skip_signature for a public container");
    assertThat(config("az://c/p", Map.of("account_name", "acct", "skip_signature", "true")).auth)
        .isEqualTo(AzureConfig.Auth.ANONYMOUS);
  }

  @Test
  void badValuesNameTheirOption() {
    assertThatThrownBy(() -> config("az://c", Map.of("account_name", "a", "account_key", "not base64!")))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("Storage option account_key is not valid base64");
    assertThatThrownBy(() -> config("az://c", Map.of("account_name", "a", "client_id", "id", "client_secret", "s",
        "tenant_id", "t")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Storage option client_id asks for Azure AD sign-in, which javelin-azure does not support:"
            + " set azure_storage_account_key or azure_storage_sas_token");
    Map<String, String> ok = Map.of("account_name", "a", "account_key", KEY);
    assertThatThrownBy(() -> config("az://c", with(ok, "client_max_retries", "lots")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Storage option client_max_retries must be an integer from 0 to 100, not 'lots'");
    assertThatThrownBy(() -> config("az://c", with(ok, "azure_block_size", "0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Storage option azure_block_size must be an integer from 1 to 268435456, not '0'");
    assertThatThrownBy(() -> config("az://c", with(ok, "azure_upload_concurrency", "100")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Storage option azure_upload_concurrency must be an integer from 1 to 64, not '100'");
    AzureConfig c = config("az://c", with(with(ok, "client_max_retries", "3"), "azure_block_size", "65536"));
    assertThat(c.maxRetries).isEqualTo(3);
    assertThat(c.blockSize).isEqualTo(65536);
  }

  private static Map<String, String> with(Map<String, String> m, String k, String v) {
    HashMap<String, String> copy = new HashMap<>(m);
    copy.put(k, v);
    return copy;
  }
}
