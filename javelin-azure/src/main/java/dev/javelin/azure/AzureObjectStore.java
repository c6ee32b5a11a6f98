package dev.javelin.azure;

import com.azure.core.http.HttpClient;
import com.azure.core.http.okhttp.OkHttpAsyncHttpClientBuilder;
import com.azure.core.http.policy.ExponentialBackoffOptions;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.http.policy.RetryOptions;
import com.azure.core.http.rest.PagedResponse;
import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import com.azure.storage.blob.sas.BlobSasPermission;
import com.azure.storage.blob.sas.BlobServiceSasSignatureValues;
import com.azure.storage.blob.specialized.BlockBlobClient;
import com.azure.storage.common.StorageSharedKeyCredential;
import dev.javelin.common.ThreadPools;
import dev.javelin.io.InputFile;
import dev.javelin.io.ObjectExistsException;
import dev.javelin.io.ObjectInfo;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.OutputFile;
import dev.javelin.io.RequestCounters;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;

/**
 * An {@link ObjectStore} on Azure Blob Storage: a container and a blob-name prefix, opened from
 * {@code az://container/prefix} or {@code abfss://container@account.dfs.core.windows.net/prefix}
 * by {@link AzureObjectStoreProvider} with Lance's storage options.
 *
 * <p>{@link #putIfAbsent} is an upload with {@code If-None-Match: *}, which Azure applies
 * atomically, so of many racing committers exactly one wins. Streamed writes stage blocks of
 * {@code azure_block_size} bytes (4 MiB), a few at a time, and commit the block list on close:
 * nothing is visible before, and a write that fails or is deleted leaves no blob (uncommitted
 * blocks expire on their own). Reads are ranged GETs, a download cut midway resumed with backoff.
 * Requests go through the Azure SDK over OkHttp, with its exponential, jittered retries.
 */
public final class AzureObjectStore implements ObjectStore {
  /** How many deletes {@link #deleteAll} sends at once. */
  static final int DELETE_PARALLELISM = 8;

  private final Shared shared;
  /** Blob-name prefix of the root: empty or ending with '/'. */
  private final String prefix;
  private final String location;
  private final boolean owner;

  /** The clients, threads and counters a store shares with its children. */
  static final class Shared {
    final AzureConfig config;
    final BlobContainerClient container;
    final ExecutorService executor;
    /** Sends the ranged GETs of one {@code readAll} at once. */
    final ExecutorService reads;
    final RequestCounters counters;
    final int listPageSize;

    final Dispatcher dispatcher;
    final ConnectionPool connections;

    Shared(AzureConfig config, BlobContainerClient container, ExecutorService executor,
        RequestCounters counters, int listPageSize, Dispatcher dispatcher, ConnectionPool connections) {
      this.dispatcher = dispatcher;
      this.connections = connections;
      this.config = config;
      this.container = container;
      this.executor = executor;
      ThreadPoolExecutor readPool = new ThreadPoolExecutor(READ_THREADS, READ_THREADS, 30, TimeUnit.SECONDS,
          new LinkedBlockingQueue<>(), ThreadPools.daemonThreads("javelin-azure-read-"));
      readPool.allowCoreThreadTimeOut(true);
      this.reads = readPool;
      this.counters = counters;
      this.listPageSize = listPageSize;
    }
  }

  /** Ranged GETs in flight at once per store, at most. */
  static final int READ_THREADS = 32;

  private AzureObjectStore(Shared shared, String prefix, String location, boolean owner) {
    this.shared = shared;
    this.prefix = prefix;
    this.location = location;
    this.owner = owner;
  }

  /** The store {@code config} describes, with its own clients. */
  static AzureObjectStore open(AzureConfig config) {
    return open(config, List.of(), 5000);
  }

  /** With extra pipeline policies (each try) and a listing page size, for tests. */
  static AzureObjectStore open(AzureConfig config, List<HttpPipelinePolicy> policies, int listPageSize) {
    RequestCounters counters = new RequestCounters();
    // OkHttp runs at most 5 calls per host by default: far too few for parallel ranged reads.
    Dispatcher dispatcher = new Dispatcher(new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
        new SynchronousQueue<>(), ThreadPools.daemonThreads("javelin-azure-http-")));
    dispatcher.setMaxRequests(128);
    dispatcher.setMaxRequestsPerHost(128);
    ConnectionPool connections = new ConnectionPool();
    HttpClient http = new OkHttpAsyncHttpClientBuilder()
        .connectionTimeout(Duration.ofSeconds(10))
        .dispatcher(dispatcher)
        .connectionPool(connections)
        .build();
    BlobServiceClientBuilder builder = new BlobServiceClientBuilder()
        .endpoint(config.endpoint)
        .httpClient(http)
        .retryOptions(new RetryOptions(new ExponentialBackoffOptions()
            .setMaxRetries(config.maxRetries)
            .setBaseDelay(Duration.ofMillis(100))
            .setMaxDelay(Duration.ofSeconds(10))))
        .addPolicy(new CountingPolicy(counters));
    for (HttpPipelinePolicy p : policies) {
      builder.addPolicy(p);
    }
    switch (config.auth) {
      case SHARED_KEY:
        builder.credential(new StorageSharedKeyCredential(config.account, config.accountKey));
        break;
      case SAS:
        builder.sasToken(config.sasToken);
        break;
      default:
        break;
    }
    BlobContainerClient container = builder.buildClient().getBlobContainerClient(config.container);
    int threads = Math.max(8, config.uploadConcurrency * 2);
    ThreadPoolExecutor executor = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), ThreadPools.daemonThreads("javelin-azure-"));
    executor.allowCoreThreadTimeOut(true);
    Shared shared = new Shared(config, container, executor, counters, listPageSize, dispatcher, connections);
    return new AzureObjectStore(shared, config.prefix, config.location, true);
  }


  @Override
  public String location() {
    return location;
  }

  /** The container this store is in. */
  public String container() {
    return shared.config.container;
  }

  /** The blob-name prefix of the root: empty, or ending with '/'. */
  public String prefix() {
    return prefix;
  }

  String blobName(String key) {
    if (key.isEmpty() || key.startsWith("/") || key.endsWith("/") || key.equals("..") || key.startsWith("../")
        || key.contains("/../") || key.endsWith("/..")) {
      throw new IllegalArgumentException("Invalid object key '" + key + "' in " + location);
    }
    return prefix + key;
  }

  BlobClient blob(String key) {
    return shared.container.getBlobClient(blobName(key));
  }

  @Override
  public List<ObjectInfo> list(String keyPrefix) throws IOException {
    ListBlobsOptions options = new ListBlobsOptions().setPrefix(prefix + keyPrefix)
        .setMaxResultsPerPage(shared.listPageSize);
    List<ObjectInfo> out = new ArrayList<>();
    try {
      for (PagedResponse<BlobItem> page : shared.container.listBlobs(options, null).iterableByPage()) {
        for (BlobItem item : page.getValue()) {
          if (Boolean.TRUE.equals(item.isPrefix()) || Boolean.TRUE.equals(item.isDeleted())) {
            continue;
          }
          Long size = item.getProperties().getContentLength();
          out.add(new ObjectInfo(item.getName().substring(prefix.length()), size == null ? 0 : size,
              item.getProperties().getLastModified() == null ? null
                  : item.getProperties().getLastModified().toInstant()));
        }
      }
    } catch (BlobStorageException e) {
      throw failure(e, "list " + location + "/" + keyPrefix, keyPrefix);
    } catch (RuntimeException e) {
      throw failure(e, "list " + location + "/" + keyPrefix);
    }
    return out;
  }

  @Override
  public InputFile open(String key) throws IOException {
    return new AzureInputFile(this, key, blob(key).getBlockBlobClient(), -1);
  }

  /** Opens a blob of known length: no HEAD is sent for it (unless its date is asked for). */
  @Override
  public InputFile open(String key, long length) {
    return new AzureInputFile(this, key, blob(key).getBlockBlobClient(), length > 0 ? length : -1);
  }

  /** One GET of the whole object, rather than {@link #open}'s HEAD and GET. */
  @Override
  public byte[] read(String key) throws IOException {
    try (AzureInputFile in = (AzureInputFile) open(key)) {
      return in.readAll();
    }
  }

  @Override
  public void put(String key, byte[] data) throws IOException {
    upload(key, data, null);
  }

  @Override
  public void putIfAbsent(String key, byte[] data) throws IOException {
    upload(key, data, new BlobRequestConditions().setIfNoneMatch("*"));
  }

  /** One Put Blob request, conditional when {@code conditions} is set. */
  void upload(String key, byte[] data, BlobRequestConditions conditions) throws IOException {
    BlobClient b = blob(key);
    try {
      b.getBlockBlobClient().uploadWithResponse(
          new BlockBlobSimpleUploadOptions(BinaryData.fromBytes(data)).setRequestConditions(conditions),
          null, Context.NONE);
    } catch (BlobStorageException e) {
      if (conditions != null && isTaken(e)) {
        throw new ObjectExistsException(location, key);
      }
      throw failure(e, "write " + location + "/" + key, key);
    } catch (RuntimeException e) {
      throw failure(e, "write " + location + "/" + key);
    }
  }

  /** Whether a conditional write failed because the blob exists. */
  static boolean isTaken(BlobStorageException e) {
    return e.getStatusCode() == 409 && BlobErrorCode.BLOB_ALREADY_EXISTS.equals(e.getErrorCode())
        || e.getStatusCode() == 412;
  }

  /** True: Put Block From URL copies ranges of this store's blobs within the service. */
  @Override
  public boolean copiesServerSide() {
    return true;
  }

  /**
   * A URL the service can read {@code blob} by when it copies from it: with a read-only SAS for an
   * hour when the store signs with the account key, the store's own SAS when it has one.
   */
  String copySourceUrl(BlockBlobClient blob) {
    switch (shared.config.auth) {
      case SHARED_KEY:
        return blob.getBlobUrl() + "?" + blob.generateSas(new BlobServiceSasSignatureValues(
            OffsetDateTime.now().plusHours(1), new BlobSasPermission().setReadPermission(true)));
      case SAS:
        String sas = shared.config.sasToken;
        return blob.getBlobUrl() + "?" + (sas.startsWith("?") ? sas.substring(1) : sas);
      default:
        return blob.getBlobUrl();
    }
  }

  @Override
  public OutputFile newOutputFile(String key) {
    return new AzureOutputFile(this, key, blob(key).getBlockBlobClient());
  }

  @Override
  public void delete(String key) throws IOException {
    BlobClient b = blob(key);
    try {
      b.deleteIfExists();
    } catch (BlobStorageException e) {
      throw failure(e, "delete " + location + "/" + key, key);
    } catch (RuntimeException e) {
      throw failure(e, "delete " + location + "/" + key);
    }
  }

  /**
   * Deletes a few at a time in parallel (at most {@value #DELETE_PARALLELISM} requests in flight).
   * Blob batches would take 256 deletes a request, but Azurite answers them wrongly (every
   * sub-request 404, or no Content-Id), so they could not be tested and are not used.
   */
  @Override
  public void deleteAll(Collection<String> keys) throws IOException {
    List<String> all = new ArrayList<>(keys);
    for (String k : all) {
      blobName(k);
    }
    if (all.size() == 1) {
      delete(all.get(0));
    } else if (!all.isEmpty()) {
      deleteInParallel(all);
    }
  }

  private void deleteInParallel(List<String> keys) throws IOException {
    List<Future<?>> futures = new ArrayList<>();
    int per = (keys.size() + DELETE_PARALLELISM - 1) / DELETE_PARALLELISM;
    for (int i = 0; i < keys.size(); i += per) {
      List<String> part = keys.subList(i, Math.min(keys.size(), i + per));
      try {
        futures.add(shared.executor.submit(() -> {
          for (String k : part) {
            delete(k);
          }
          return null;
        }));
      } catch (RejectedExecutionException e) {
        futures.forEach(f -> f.cancel(true));
        throw new IOException("Store closed: " + location, e);
      }
    }
    await(futures, "delete " + keys.size() + " objects in " + location);
  }

  static void await(List<Future<?>> futures, String what) throws IOException {
    IOException first = null;
    for (Future<?> f : futures) {
      try {
        f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        futures.forEach(g -> g.cancel(true));
        throw new InterruptedIOException("Interrupted: " + what);
      } catch (ExecutionException e) {
        if (first == null) {
          first = e.getCause() instanceof IOException ? (IOException) e.getCause()
              : new IOException("Could not " + what, e.getCause());
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  @Override
  public boolean exists(String key) throws IOException {
    BlobClient b = blob(key);
    try {
      return b.exists();
    } catch (BlobStorageException e) {
      throw failure(e, "look up " + location + "/" + key, key);
    } catch (RuntimeException e) {
      throw failure(e, "look up " + location + "/" + key);
    }
  }

  @Override
  public AzureObjectStore child(String dir) {
    String d = dir;
    while (d.endsWith("/")) {
      d = d.substring(0, d.length() - 1);
    }
    if (d.isEmpty()) {
      throw new IllegalArgumentException("Invalid sub-directory '" + dir + "' of " + location);
    }
    blobName(d);
    return new AzureObjectStore(shared, prefix + d + "/", location + "/" + d, false);
  }

  /**
   * Another path of the same container (a branch's or clone's base path) with this store's
   * clients; anything else as {@link ObjectStore#resolve} does.
   */
  @Override
  public ObjectStore resolve(String other) {
    String root = prefix.isEmpty() ? location : location.substring(0, location.length() - prefix.length());
    if (other.equals(root)) {
      return new AzureObjectStore(shared, "", root, false);
    }
    if (other.startsWith(root + "/")) {
      String sub = other.substring(root.length() + 1);
      while (sub.endsWith("/")) {
        sub = sub.substring(0, sub.length() - 1);
      }
      if (!sub.isEmpty()) {
        return new AzureObjectStore(shared, sub + "/", root + "/" + sub, false);
      }
    }
    return ObjectStore.super.resolve(other);
  }

  @Override
  public RequestCounters requests() {
    return shared.counters;
  }

  /**
   * Stops the store's threads and closes its connections; a child's close does nothing (it shares
   * its parent's).
   */
  @Override
  public void close() {
    if (owner) {
      shared.executor.shutdown();
      shared.reads.shutdown();
      shared.dispatcher.executorService().shutdown();
      shared.connections.evictAll();
    }
  }

  Shared shared() {
    return shared;
  }

  /** An SDK failure as an IOException: 404 of a blob (not of the container) as NoSuchFileException. */
  IOException failure(BlobStorageException e, String what, String key) {
    if (e.getStatusCode() == 404 && !BlobErrorCode.CONTAINER_NOT_FOUND.equals(e.getErrorCode())) {
      NoSuchFileException n = new NoSuchFileException(location + "/" + key);
      n.initCause(e);
      return n;
    }
    return failure(e, what);
  }

  IOException failure(RuntimeException e, String what) {
    if (e instanceof BlobStorageException) {
      BlobStorageException b = (BlobStorageException) e;
      String code = b.getErrorCode() == null ? "" : " " + b.getErrorCode();
      if (BlobErrorCode.CONTAINER_NOT_FOUND.equals(b.getErrorCode())) {
        return new IOException("Could not " + what + ": Azure container '" + shared.config.container
            + "' does not exist in account " + shared.config.account, e);
      }
      return new IOException("Could not " + what + ": Azure answered " + b.getStatusCode() + code, e);
    }
    if (e.getCause() instanceof IOException) {
      return new IOException("Could not " + what + ": " + e.getCause().getMessage(), e);
    }
    return new IOException("Could not " + what + ": " + e, e);
  }
}
