package dev.javelin.azure;

import dev.javelin.io.StorageOptions;
import java.net.URI;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Where an Azure store is and how it signs in, from its URI, its storage options (Lance's names
 * and aliases, as Lance's object_store crate has them) and, for options not given, the
 * environment ({@code AZURE_STORAGE_ACCOUNT_NAME}, ...: each option's names in upper case).
 */
final class AzureConfig {
  /** Azurite's well-known account and key (published in Microsoft's documentation). */
  static final String EMULATOR_ACCOUNT = "devstoreaccount1";
  static final String EMULATOR_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
  static final String EMULATOR_URL = "http://127.0.0.1:10000";

  static final String[] ACCOUNT_NAME = {"azure_storage_account_name", "account_name"};
  static final String[] ACCOUNT_KEY = {
      "azure_storage_account_key", "azure_storage_access_key", "azure_storage_master_key",
      "account_key", "access_key", "master_key"};
  static final String[] SAS_TOKEN = {"azure_storage_sas_token", "azure_storage_sas_key", "sas_token", "sas_key"};
  static final String[] USE_EMULATOR = {"azure_storage_use_emulator", "use_emulator"};
  static final String[] ENDPOINT = {"azure_storage_endpoint", "azure_endpoint", "endpoint"};
  static final String[] SKIP_SIGNATURE = {"azure_skip_signature", "skip_signature"};
  static final String[] CLIENT_ID = {"azure_storage_client_id", "azure_client_id", "client_id"};
  static final String[] CLIENT_SECRET = {"azure_storage_client_secret", "azure_client_secret", "client_secret"};
  static final String[] TENANT_ID = {
      "azure_storage_tenant_id", "azure_storage_authority_id", "azure_tenant_id", "azure_authority_id",
      "tenant_id", "authority_id"};
  static final String[] MAX_RETRIES = {"client_max_retries"};
  static final String[] BLOCK_SIZE = {"azure_block_size"};
  static final String[] UPLOAD_CONCURRENCY = {"azure_upload_concurrency"};

  /** How the store signs its requests. */
  enum Auth { SHARED_KEY, SAS, ANONYMOUS }

  /** The URI of the store's root (no trailing '/'), for error messages. */
  final String location;
  final String container;
  /** The root's blob-name prefix: empty, or ending with '/'. */
  final String prefix;
  final String account;
  /** The blob service URL, without a trailing '/' (https://account.blob.core.windows.net). */
  final String endpoint;
  final Auth auth;
  final String accountKey;
  final String sasToken;
  final int maxRetries;
  final int blockSize;
  final int uploadConcurrency;

  private AzureConfig(String location, String container, String prefix, String account, String endpoint,
      Auth auth, String accountKey, String sasToken, int maxRetries, int blockSize, int uploadConcurrency) {
    this.location = location;
    this.container = container;
    this.prefix = prefix;
    this.account = account;
    this.endpoint = endpoint;
    this.auth = auth;
    this.accountKey = accountKey;
    this.sasToken = sasToken;
    this.maxRetries = maxRetries;
    this.blockSize = blockSize;
    this.uploadConcurrency = uploadConcurrency;
  }

  /** The configuration of the store at {@code uri}, with the process environment as the fallback. */
  static AzureConfig of(URI uri, StorageOptions options) {
    return of(uri, options, System.getenv());
  }

  static AzureConfig of(URI uri, StorageOptions options, Map<String, String> env) {
    Lookup look = new Lookup(options, env);
    String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
    String authority = uri.getRawAuthority();
    if (authority == null || authority.isEmpty()) {
      throw new IllegalArgumentException("Azure URI has no container: " + uri
          + " (expected " + scheme + "://container/path or " + scheme + "://container@account.dfs.core.windows.net/path)");
    }
    String container;
    String uriAccount = null;
    String uriEndpoint = null;
    int at = authority.indexOf('@');
    if (at >= 0) {
      container = authority.substring(0, at);
      String host = authority.substring(at + 1).toLowerCase(Locale.ROOT);
      int dot = host.indexOf('.');
      String rest = dot < 0 ? "" : host.substring(dot + 1);
      if (dot <= 0 || !(rest.startsWith("dfs.") || rest.startsWith("blob."))) {
        throw new IllegalArgumentException("Azure URI host must be account.dfs.<domain> or account.blob.<domain>, not '"
            + host + "': " + uri);
      }
      uriAccount = host.substring(0, dot);
      uriEndpoint = "https://" + uriAccount + ".blob." + rest.substring(rest.indexOf('.') + 1);
    } else {
      container = authority;
    }
    if (container.isEmpty()) {
      throw new IllegalArgumentException("Azure URI has no container: " + uri);
    }
    String path = uri.getPath() == null ? "" : uri.getPath();
    while (path.startsWith("/")) {
      path = path.substring(1);
    }
    while (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    String prefix = path.isEmpty() ? "" : path + "/";

    boolean emulator = look.bool(USE_EMULATOR).orElse(false);
    String account = uriAccount != null ? uriAccount
        : look.get(ACCOUNT_NAME).orElse(emulator ? EMULATOR_ACCOUNT : null);
    if (account == null || account.isBlank()) {
      throw new IllegalArgumentException("No Azure storage account for " + uri + ": set azure_storage_account_name"
          + " (or AZURE_STORAGE_ACCOUNT_NAME), or name it in the URI (abfss://container@account.dfs.core.windows.net/path)");
    }
    String endpoint = look.get(ENDPOINT).orElse(null);
    if (endpoint == null) {
      if (emulator) {
        String url = Optional.ofNullable(env.get("AZURITE_BLOB_STORAGE_URL")).orElse(EMULATOR_URL).trim();
        endpoint = url.replaceAll("/+$", "") + "/" + account;
      } else if (uriEndpoint != null) {
        endpoint = uriEndpoint;
      } else {
        endpoint = "https://" + account + ".blob.core.windows.net";
      }
    }
    endpoint = endpoint.trim();
    while (endpoint.endsWith("/")) {
      endpoint = endpoint.substring(0, endpoint.length() - 1);
    }
    if (!endpoint.startsWith("http://") && !endpoint.startsWith("https://")) {
      throw new IllegalArgumentException("Storage option " + look.nameOf(ENDPOINT)
          + " must be an http:// or https:// URL, not '" + endpoint + "'");
    }

    Optional<String> key = look.get(ACCOUNT_KEY);
    Optional<String> sas = look.get(SAS_TOKEN);
    Auth auth;
    String accountKey = null;
    String sasToken = null;
    if (key.isPresent()) {
      auth = Auth.SHARED_KEY;
      accountKey = key.get().trim();
      try {
        Base64.getDecoder().decode(accountKey);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("Storage option " + look.nameOf(ACCOUNT_KEY) + " is not valid base64");
      }
    } else if (sas.isPresent()) {
      auth = Auth.SAS;
      sasToken = sas.get().trim();
      if (sasToken.startsWith("?")) {
        sasToken = sasToken.substring(1);
      }
      if (sasToken.isEmpty()) {
        throw new IllegalArgumentException("Storage option " + look.nameOf(SAS_TOKEN) + " is empty");
      }
    } else if (emulator) {
      auth = Auth.SHARED_KEY;
      accountKey = EMULATOR_KEY;
    } else if (look.bool(SKIP_SIGNATURE).orElse(false)) {
      auth = Auth.ANONYMOUS;
    } else if (look.get(CLIENT_ID).isPresent() || look.get(CLIENT_SECRET).isPresent()) {
      throw new IllegalArgumentException("Storage option " + look.nameOf(CLIENT_ID)
          + " asks for Azure AD sign-in, which javelin-azure does not support: set azure_storage_account_key"
          + " or azure_storage_sas_token");
    } else {
      throw new IllegalArgumentException("No Azure credentials for account " + account
          + ": set azure_storage_account_key or azure_storage_sas_token (or AZURE_STORAGE_ACCOUNT_KEY,"
          + " AZURE_STORAGE_SAS_TOKEN), azure_storage_use_emulator for Azurite, or azure_skip_signature"
          + " for a public container");
    }
    int maxRetries = look.integer(MAX_RETRIES, 10, 0, 100);
    int blockSize = look.integer(BLOCK_SIZE, 4 << 20, 1, 256 << 20);
    int concurrency = look.integer(UPLOAD_CONCURRENCY, 4, 1, 64);
    String location = scheme + "://" + authority + (path.isEmpty() ? "" : "/" + path);
    return new AzureConfig(location, container, prefix, account, endpoint, auth, accountKey, sasToken,
        maxRetries, blockSize, concurrency);
  }


  /** Options first, then the environment variable of each name (upper case). */
  private static final class Lookup {
    private final StorageOptions options;
    private final Map<String, String> env;

    Lookup(StorageOptions options, Map<String, String> env) {
      this.options = options;
      this.env = env;
    }

    /** The name of the option that is set, or the first name, for messages. */
    String nameOf(String[] names) {
      for (String n : names) {
        if (options.get(n).isPresent()) {
          return n;
        }
      }
      for (String n : names) {
        if (n.startsWith("azure_") && env.containsKey(n.toUpperCase(Locale.ROOT))) {
          return n.toUpperCase(Locale.ROOT);
        }
      }
      return names[0];
    }

    Optional<String> get(String[] names) {
      Optional<String> v = options.get(names);
      if (v.isPresent()) {
        return v;
      }
      for (String n : names) {
        String e = n.startsWith("azure_") ? env.get(n.toUpperCase(Locale.ROOT)) : null;
        if (e != null) {
          return Optional.of(e);
        }
      }
      return Optional.empty();
    }

    Optional<Boolean> bool(String[] names) {
      if (options.get(names).isPresent()) {
        return options.bool(names);
      }
      for (String n : names) {
        String upper = n.toUpperCase(Locale.ROOT);
        if (n.startsWith("azure_") && env.containsKey(upper)) {
          return StorageOptions.of(Map.of(upper, env.get(upper))).bool(upper);
        }
      }
      return Optional.empty();
    }

    int integer(String[] names, int dflt, int min, int max) {
      Optional<String> v = get(names);
      if (v.isEmpty()) {
        return dflt;
      }
      long n;
      try {
        n = Long.parseLong(v.get().trim());
      } catch (NumberFormatException e) {
        n = Long.MIN_VALUE;
      }
      if (n < min || n > max) {
        throw new IllegalArgumentException("Storage option " + nameOf(names) + " must be an integer from "
            + min + " to " + max + ", not '" + v.get() + "'");
      }
      return (int) n;
    }
  }
}
