package dev.javelin.core;

import dev.javelin.io.ObjectStore;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Opens a dataset at a URI: a local path, {@code file:}, {@code s3://bucket/prefix} (also
 * {@code s3a://}), {@code az://container/prefix} or {@code abfss://container@account.dfs.core.windows.net/prefix},
 * the remote ones through the store modules on the class path. As Lance's {@code DatasetBuilder}:
 *
 * <pre>{@code
 * Dataset ds = Dataset.builder("s3://bucket/people")
 *     .storageOptions(Map.of("aws_region", "eu-west-1"))
 *     .version(12)
 *     .load();
 * }</pre>
 *
 * <p>The store is the session's: datasets of one bucket and options share its client, which the
 * session closes with itself.
 */
public final class DatasetBuilder {
  private final String uri;
  private final Map<String, String> options = new LinkedHashMap<>();
  private Long version;
  private String tag;
  private Session session;
  private BufferAllocator allocator;

  DatasetBuilder(String uri) {
    this.uri = Objects.requireNonNull(uri, "uri");
  }

  /** Storage options with Lance's key names; added to those given before. */
  public DatasetBuilder storageOptions(Map<String, String> options) {
    this.options.putAll(options);
    return this;
  }

  /** One storage option (see {@link #storageOptions}). */
  public DatasetBuilder storageOption(String key, String value) {
    options.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
    return this;
  }

  /** Opens this version instead of the newest, reading only its manifest. */
  public DatasetBuilder version(long version) {
    this.version = version;
    this.tag = null;
    return this;
  }

  /** Opens the version this tag names instead of the newest. */
  public DatasetBuilder tag(String tag) {
    this.tag = Objects.requireNonNull(tag, "tag");
    this.version = null;
    return this;
  }

  /** The session whose caches, pools and stores the dataset uses (default: the default session). */
  public DatasetBuilder session(Session session) {
    this.session = Objects.requireNonNull(session, "session");
    return this;
  }

  /** Reads with this allocator instead of the session's. */
  public DatasetBuilder allocator(BufferAllocator allocator) {
    this.allocator = Objects.requireNonNull(allocator, "allocator");
    return this;
  }

  /**
   * Opens the dataset.
   *
   * @throws dev.javelin.table.exceptions.VersionNotFoundException if there is no dataset there, or no such version
   * @throws dev.javelin.table.exceptions.TagNotFoundException if there is no such tag
   * @throws dev.javelin.io.UnsupportedStoreException if no store on the class path opens the URI's scheme
   * @throws IllegalArgumentException if the URI or a storage option is malformed
   */
  public Dataset load() {
    Session s = session != null ? session : Session.defaultSession();
    BufferAllocator a = allocator != null ? allocator : s.allocator();
    ObjectStore store = store(uri, options, s);
    if (tag != null) {
      return Dataset.openTag(store, tag, a, s);
    }
    if (version != null) {
      return Dataset.openVersion(store, version, a, s);
    }
    return Dataset.openLatest(store, a, s);
  }

  /** The store of the dataset at {@code uri}, the session's for a remote one. */
  static ObjectStore store(String uri, Map<String, String> options, Session session) {
    return session.store(uri, options);
  }
}
