package dev.javelin.s3;

import dev.javelin.common.Tasks;
import dev.javelin.io.InputFile;
import dev.javelin.io.ObjectExistsException;
import dev.javelin.io.ObjectInfo;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.OutputFile;
import dev.javelin.io.RequestCounters;
import dev.javelin.io.StorageOptions;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Error;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * An {@link ObjectStore} on an S3 bucket, rooted at a key prefix: {@code s3://bucket/prefix} (or
 * {@code s3a://}, the same store). Configured with Lance's storage option names (see
 * {@link S3ObjectStoreProvider}).
 *
 * <p>{@link #putIfAbsent} is a PutObject with {@code If-None-Match: *}, which S3 (and S3-compatible
 * servers that support conditional writes) carries out atomically: 412 means the key is taken,
 * 409 that a concurrent write to the key is in progress (retried). Reads are ranged GETs; streamed
 * writes are multipart uploads. A multipart upload that a killed writer never completed is this
 * store's temporary object: {@link #listTemporary} lists it (as {@code <key>#upload=<id>}, dated by
 * its start) and {@link #delete} of that name aborts it, so a table's cleanup removes it.
 */
public final class S3ObjectStore implements ObjectStore {
  /** Between an upload's key and its id in the names {@link #listTemporary} gives; no Lance key has a '#'. */
  static final String UPLOAD_MARKER = "#upload=";
  private static final int DELETE_BATCH = 1_000;

  private final S3Clients clients;
  private final String scheme;
  private final String bucket;
  /** The key prefix of this store's objects: "" or ending in '/'. */
  private final String root;
  private final boolean owner;

  private S3ObjectStore(S3Clients clients, String scheme, String bucket, String root, boolean owner) {
    this.clients = clients;
    this.scheme = scheme;
    this.bucket = bucket;
    this.root = root;
    this.owner = owner;
  }

  /**
   * The store at {@code s3://bucket/prefix} (or {@code s3a://}), with its own clients; the caller
   * closes it.
   *
   * @throws IllegalArgumentException if the URI names no bucket, or an option is malformed
   */
  public static S3ObjectStore open(URI location, StorageOptions options) {
    String scheme = location.getScheme() == null ? "" : location.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("s3") && !scheme.equals("s3a")) {
      throw new IllegalArgumentException("Not an s3:// or s3a:// URI: " + location);
    }
    String bucket = location.getAuthority();
    if (bucket == null || bucket.isEmpty()) {
      throw new IllegalArgumentException("An S3 URI names its bucket after the scheme (s3://bucket/path): " + location);
    }
    String path = location.getPath() == null ? "" : location.getPath();
    String root = stripSlashes(path);
    S3Config config = S3Config.of(options);
    return new S3ObjectStore(new S3Clients(config), scheme, bucket, root.isEmpty() ? "" : root + "/", true);
  }

  private static String stripSlashes(String s) {
    int from = 0;
    int to = s.length();
    while (from < to && s.charAt(from) == '/') {
      from++;
    }
    while (to > from && s.charAt(to - 1) == '/') {
      to--;
    }
    return s.substring(from, to);
  }

  /** The bucket. */
  public String bucket() {
    return bucket;
  }

  /** The key prefix of this store's objects in the bucket: empty or ending in '/'. */
  public String prefix() {
    return root;
  }

  @Override
  public String location() {
    return root.isEmpty() ? scheme + "://" + bucket : scheme + "://" + bucket + "/" + stripSlashes(root);
  }

  private String where(String key) {
    return scheme + "://" + bucket + "/" + root + key;
  }

  private String fullKey(String key) {
    if (key.isEmpty() || key.startsWith("/")) {
      throw new IllegalArgumentException("Invalid object key '" + key + "' in " + location());
    }
    return root + key;
  }

  @Override
  public List<ObjectInfo> list(String prefix) throws IOException {
    List<ObjectInfo> out = new ArrayList<>();
    try {
      for (S3Object o : clients.client.listObjectsV2Paginator(r -> r.bucket(bucket).prefix(root + prefix)).contents()) {
        // a "directory" marker (an empty key ending in '/') is no object of a dataset
        if (!o.key().endsWith("/")) {
          out.add(new ObjectInfo(o.key().substring(root.length()), o.size(), o.lastModified()));
        }
      }
    } catch (SdkException e) {
      throw S3Errors.io(e, where(prefix));
    }
    return out;
  }

  /**
   * The multipart uploads under {@code prefix} that were started and neither completed nor
   * aborted (a writer killed midway leaves them, and S3 keeps and bills their parts), named
   * {@code <key>#upload=<id>}, of size 0 and dated by when they were started.
   */
  @Override
  public List<ObjectInfo> listTemporary(String prefix) throws IOException {
    List<ObjectInfo> out = new ArrayList<>();
    String keyMarker = null;
    String idMarker = null;
    try {
      while (true) {
        String km = keyMarker;
        String im = idMarker;
        ListMultipartUploadsResponse page = clients.client.listMultipartUploads(
            r -> r.bucket(bucket).prefix(root + prefix).keyMarker(km).uploadIdMarker(im));
        for (MultipartUpload u : page.uploads()) {
          out.add(new ObjectInfo(u.key().substring(root.length()) + UPLOAD_MARKER + u.uploadId(), 0, u.initiated()));
        }
        if (!Boolean.TRUE.equals(page.isTruncated())) {
          return out;
        }
        keyMarker = page.nextKeyMarker();
        idMarker = page.nextUploadIdMarker();
      }
    } catch (SdkException e) {
      throw S3Errors.io(e, where(prefix));
    }
  }

  @Override
  public InputFile open(String key) {
    return new S3InputFile(clients, bucket, fullKey(key), where(key), -1);
  }

  /** The whole object by one GET (no HEAD). */
  @Override
  public byte[] read(String key) throws IOException {
    return new S3InputFile(clients, bucket, fullKey(key), where(key), -1).readWhole();
  }

  /** Opens an object of known length: no HEAD is sent for it (unless its date is asked for). */
  @Override
  public InputFile open(String key, long length) {
    return new S3InputFile(clients, bucket, fullKey(key), where(key), length > 0 ? length : -1);
  }

  @Override
  public void put(String key, byte[] data) throws IOException {
    String full = fullKey(key);
    try {
      clients.client.putObject(r -> r.bucket(bucket).key(full).contentLength((long) data.length),
          RequestBody.fromBytes(data));
    } catch (SdkException e) {
      throw S3Errors.io(e, where(key));
    }
  }

  /**
   * PutObject with {@code If-None-Match: *}. Sent without the SDK's retries: when an attempt's
   * answer is lost (an I/O failure or a 5xx) and the retry finds the key taken, the object is read
   * back, and if it holds exactly these bytes the lost attempt was the one that wrote it.
   */
  @Override
  public void putIfAbsent(String key, byte[] data) throws IOException {
    String full = fullKey(key);
    boolean[] maybeWritten = {false};
    try {
      Tasks.retry()
          .maxAttempts(clients.config.maxAttempts())
          .backoff(Duration.ofMillis(50), Duration.ofSeconds(5))
          .jitter(1)
          .retryOn(SdkException.class)
          .retryIf(e -> {
            SdkException s = (SdkException) e;
            boolean conflict = S3Errors.status(s) == 409;
            if (S3Errors.ambiguous(s)) {
              maybeWritten[0] = true;
            }
            return conflict || S3Errors.retryable(s);
          })
          .run(attempt -> clients.once.putObject(
              r -> r.bucket(bucket).key(full).contentLength((long) data.length).ifNoneMatch("*"),
              RequestBody.fromBytes(data)));
    } catch (SdkException e) {
      if (S3Errors.status(e) == 412) {
        if (maybeWritten[0] && holds(key, data)) {
          return;
        }
        throw new ObjectExistsException(location(), key);
      }
      throw S3Errors.io(e, where(key));
    }
  }

  // Whether the object is there with exactly these bytes.
  private boolean holds(String key, byte[] data) throws IOException {
    try (InputFile in = open(key)) {
      if (in.length() != data.length) {
        return false;
      }
      return Arrays.equals(in.read(0, data.length).array(), data);
    }
  }

  /** True: UploadPartCopy copies ranges of 5 MiB and more within S3. */
  @Override
  public boolean copiesServerSide() {
    return true;
  }

  @Override
  public OutputFile newOutputFile(String key) {
    return new S3OutputFile(clients, bucket, fullKey(key), where(key));
  }

  /** Removes an object; a name from {@link #listTemporary} aborts that upload instead. */
  @Override
  public void delete(String key) throws IOException {
    int marker = key.lastIndexOf(UPLOAD_MARKER);
    try {
      if (marker >= 0) {
        String full = fullKey(key.substring(0, marker));
        String uploadId = key.substring(marker + UPLOAD_MARKER.length());
        try {
          clients.client.abortMultipartUpload(r -> r.bucket(bucket).key(full).uploadId(uploadId));
        } catch (SdkException e) {
          if (!S3Errors.notFound(e)) {
            throw e;
          }
        }
        return;
      }
      String full = fullKey(key);
      clients.client.deleteObject(r -> r.bucket(bucket).key(full));
    } catch (SdkException e) {
      throw S3Errors.io(e, where(key));
    }
  }

  /** DeleteObjects in batches of 1,000 keys; any key S3 reports it could not delete fails the call. */
  @Override
  public void deleteAll(Collection<String> keys) throws IOException {
    List<ObjectIdentifier> batch = new ArrayList<>();
    for (String key : keys) {
      if (key.contains(UPLOAD_MARKER)) {
        delete(key);
        continue;
      }
      batch.add(ObjectIdentifier.builder().key(fullKey(key)).build());
      if (batch.size() == DELETE_BATCH) {
        deleteBatch(batch);
        batch = new ArrayList<>();
      }
    }
    if (!batch.isEmpty()) {
      deleteBatch(batch);
    }
  }

  private void deleteBatch(List<ObjectIdentifier> batch) throws IOException {
    DeleteObjectsResponse response;
    try {
      response = clients.client.deleteObjects(r -> r.bucket(bucket).delete(d -> d.objects(batch).quiet(true)));
    } catch (SdkException e) {
      throw S3Errors.io(e, location() + " (" + batch.size() + " keys)");
    }
    List<S3Error> errors = new ArrayList<>();
    for (S3Error e : response.errors()) {
      if (!"NoSuchKey".equals(e.code())) {
        errors.add(e);
      }
    }
    if (!errors.isEmpty()) {
      StringBuilder b = new StringBuilder("S3 could not delete " + errors.size() + " of " + batch.size()
          + " objects in " + location() + ":");
      for (S3Error e : errors.subList(0, Math.min(5, errors.size()))) {
        b.append(' ').append(e.key()).append(" (").append(e.code()).append(": ").append(e.message()).append(')');
      }
      if (errors.size() > 5) {
        b.append(" ...");
      }
      throw new IOException(b.toString());
    }
  }

  @Override
  public boolean exists(String key) throws IOException {
    String full = fullKey(key);
    try {
      clients.client.headObject(r -> r.bucket(bucket).key(full));
      return true;
    } catch (SdkException e) {
      if (S3Errors.notFound(e)) {
        return false;
      }
      throw S3Errors.io(e, where(key));
    }
  }

  /** The store under {@code dir}, sharing this one's clients (closing it does nothing). */
  @Override
  public S3ObjectStore child(String dir) {
    String d = stripSlashes(dir);
    if (d.isEmpty()) {
      throw new IllegalArgumentException("Invalid directory '" + dir + "' in " + location());
    }
    return new S3ObjectStore(clients, scheme, bucket, root + d + "/", false);
  }

  /**
   * Another path of the same bucket (a branch's or clone's base path) with this store's clients;
   * anything else as {@link ObjectStore#resolve} does.
   */
  @Override
  public ObjectStore resolve(String other) {
    URI u;
    try {
      u = new URI(other);
    } catch (URISyntaxException e) {
      return ObjectStore.super.resolve(other);
    }
    String s = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
    if ((s.equals("s3") || s.equals("s3a")) && bucket.equals(u.getAuthority())) {
      String p = stripSlashes(u.getPath() == null ? "" : u.getPath());
      return new S3ObjectStore(clients, scheme, bucket, p.isEmpty() ? "" : p + "/", false);
    }
    return ObjectStore.super.resolve(other);
  }

  /** False when the options say the server cannot ({@code aws_conditional_put=disabled}). */
  @Override
  public boolean supportsConditionalPut() {
    return clients.config.conditionalPut;
  }

  @Override
  public RequestCounters requests() {
    return clients.counters;
  }

  /** Closes the clients and their connections (a child store closes nothing). */
  @Override
  public void close() {
    if (owner) {
      clients.close();
    }
  }

  @Override
  public String toString() {
    return "S3ObjectStore[" + location() + "]";
  }
}
