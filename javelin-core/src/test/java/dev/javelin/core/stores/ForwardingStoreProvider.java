package dev.javelin.core.stores;

import dev.javelin.io.LocalObjectStore;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.ObjectStoreProvider;
import dev.javelin.io.StorageOptions;
import dev.javelin.testing.ForwardingObjectStore;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code fwd://} scheme of core's tests: {@code fwd://<root>/<path>} is a store that is not a
 * local one (no memory-mapped reads, no local-path shortcuts) over a directory a test registers
 * as {@code <root>}. It records the options each root was opened with.
 */
public final class ForwardingStoreProvider implements ObjectStoreProvider {
  static final Map<String, Path> ROOTS = new ConcurrentHashMap<>();
  static final Map<String, StorageOptions> OPENED_WITH = new ConcurrentHashMap<>();

  @Override
  public Set<String> schemes() {
    return Set.of("fwd");
  }

  @Override
  public ObjectStore open(URI location, StorageOptions options) {
    Path root = ROOTS.get(location.getAuthority());
    if (root == null) {
      throw new IllegalArgumentException("No fwd:// root registered as " + location.getAuthority());
    }
    OPENED_WITH.put(location.getAuthority(), options);
    return storeAt(location, root);
  }

  private static ObjectStore storeAt(URI location, Path root) {
    String path = location.getPath() == null ? "" : location.getPath().replaceAll("^/+", "");
    LocalObjectStore local = new LocalObjectStore(path.isEmpty() ? root : root.resolve(path));
    return new Remote(local, "fwd://" + location.getAuthority() + (path.isEmpty() ? "" : "/" + path));
  }

  private static final class Remote extends ForwardingObjectStore {
    private final LocalObjectStore local;
    private final String location;

    Remote(LocalObjectStore local, String location) {
      super(local);
      this.local = local;
      this.location = location;
    }

    @Override
    public String location() {
      return location;
    }

    // Another path of the same root, as a remote store reaches another path of its bucket.
    @Override
    public ObjectStore resolve(String other) {
      URI u = URI.create(other);
      Path root = ROOTS.get(u.getAuthority());
      return root != null && other.startsWith("fwd://") ? storeAt(u, root) : super.resolve(other);
    }

    @Override
    public ObjectStore child(String dir) {
      return new Remote(local.child(dir), location + "/" + dir);
    }
  }
}
