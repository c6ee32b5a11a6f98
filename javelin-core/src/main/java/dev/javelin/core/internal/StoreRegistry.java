package dev.javelin.core.internal;

import dev.javelin.io.ObjectStore;
import dev.javelin.io.ObjectStores;
import dev.javelin.io.StorageOptions;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The remote stores a session keeps open: one per bucket or container and set of options, so
 * that every dataset under it shares one client and its connections; a dataset's store is that
 * store's {@link ObjectStore#child child} at the dataset's path. Local paths get a local store
 * each (nothing to share). Closing closes every client.
 */
public final class StoreRegistry implements AutoCloseable {
  private record Key(String root, StorageOptions options) {}

  private final Map<Key, ObjectStore> roots = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /**
   * The store of the dataset at {@code uri}.
   *
   * @throws dev.javelin.io.UnsupportedStoreException if no store on the class path opens its scheme
   * @throws IllegalArgumentException if the URI or an option is malformed
   * @throws IllegalStateException if the session is closed
   */
  public ObjectStore open(String uri, StorageOptions options) {
    if (ObjectStores.isLocal(uri)) {
      return ObjectStores.open(uri, options);
    }
    URI u;
    try {
      u = new URI(uri);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("Not a valid URI: " + uri + " (" + e.getReason() + ")", e);
    }
    if (u.getRawAuthority() == null || u.getRawAuthority().isEmpty()) {
      throw new IllegalArgumentException("A " + u.getScheme() + ":// URI names a bucket or container after "
          + "the //: " + uri);
    }
    ObjectStores.checkSupported(uri);
    String root = u.getScheme() + "://" + u.getRawAuthority();
    String path = u.getPath() == null ? "" : u.getPath().replaceAll("^/+|/+$", "");
    if (closed) {
      throw new IllegalStateException("The session is closed: cannot open " + uri);
    }
    ObjectStore store = roots.computeIfAbsent(new Key(root, options), k -> ObjectStores.open(k.root(), k.options()));
    return path.isEmpty() ? store : store.child(path);
  }

  @Override
  public void close() {
    closed = true;
    List<RuntimeException> failures = new ArrayList<>();
    for (ObjectStore s : roots.values()) {
      try {
        s.close();
      } catch (RuntimeException e) {
        failures.add(e);
      }
    }
    roots.clear();
    if (!failures.isEmpty()) {
      RuntimeException first = failures.get(0);
      failures.subList(1, failures.size()).forEach(first::addSuppressed);
      throw first;
    }
  }
}
