package dev.javelin.io;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeSet;

/**
 * Opens the store a URI names: a local path or {@code file:} URI as a {@link LocalObjectStore},
 * any other scheme through the {@link ObjectStoreProvider} on the class path that claims it.
 */
public final class ObjectStores {
  /** Where each scheme's store lives, for the error message when it is missing. */
  private static final Map<String, String> MODULES = Map.of(
      "s3", "javelin-s3", "s3a", "javelin-s3", "az", "javelin-azure", "abfss", "javelin-azure",
      "abfs", "javelin-azure", "azure", "javelin-azure");

  private ObjectStores() {}

  /** Whether {@code uri} is a local path or {@code file:} URI rather than a remote store's URI. */
  public static boolean isLocal(String uri) {
    return uri.startsWith("file:") || !uri.matches("^[a-zA-Z][a-zA-Z0-9+.-]+://.*");
  }

  /**
   * The store at {@code uri}, configured by {@code options}. The caller closes it.
   *
   * @throws UnsupportedStoreException if no provider on the class path opens the URI's scheme
   * @throws IllegalArgumentException if the URI or an option is malformed
   */
  public static ObjectStore open(String uri, StorageOptions options) {
    if (isLocal(uri)) {
      return LocalObjectStore.forUri(uri);
    }
    URI location;
    try {
      location = new URI(uri);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("Not a valid URI: " + uri + " (" + e.getReason() + ")", e);
    }
    return provider(uri, location).open(location, options);
  }

  /**
   * Checks that a store on the class path opens {@code uri}'s scheme (always true of local paths).
   *
   * @throws UnsupportedStoreException naming the module to add, or the schemes Javelin opens
   */
  public static void checkSupported(String uri) {
    if (!isLocal(uri)) {
      provider(uri, URI.create(uri));
    }
  }

  private static ObjectStoreProvider provider(String uri, URI location) {
    String scheme = location.getScheme().toLowerCase(Locale.ROOT);
    Map<String, ObjectStoreProvider> providers = providers();
    ObjectStoreProvider provider = providers.get(scheme);
    if (provider == null) {
      String module = MODULES.get(scheme);
      throw new UnsupportedStoreException(module != null
          ? "No object store for " + scheme + ":// URIs on the class path (" + uri + "): add dev.javelin:" + module
          : "Unknown storage scheme '" + scheme + "' in " + uri + "; Javelin opens local paths, file:"
              + (providers.isEmpty() ? "" : ", " + String.join(", ", new TreeSet<>(providers.keySet())))
              + " URIs");
    }
    return provider;
  }

  private static Map<String, ObjectStoreProvider> providers() {
    Map<String, ObjectStoreProvider> byScheme = new HashMap<>();
    for (ObjectStoreProvider p : ServiceLoader.load(ObjectStoreProvider.class, ObjectStores.class.getClassLoader())) {
      for (String s : p.schemes()) {
        byScheme.putIfAbsent(s.toLowerCase(Locale.ROOT), p);
      }
    }
    return byScheme;
  }
}
