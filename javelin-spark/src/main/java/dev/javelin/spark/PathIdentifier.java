package dev.javelin.spark;

import java.util.Map;
import org.apache.spark.sql.connector.catalog.Identifier;

/**
 * A dataset named by its URI, as {@code spark.read.format("javelin").load(uri)} names it, with
 * the storage options of that read or write: Spark hands this identifier to the path catalog
 * unchanged, so the options reach the store without going into the session's config. Since a
 * write through the data source may create the dataset, the catalog loads a missing one named
 * this way as a table still to be created, not as an error.
 */
final class PathIdentifier implements Identifier {
  // The storage options last given with each URI: Spark rebuilds the identifier of a data source
  // save in mode errorifexists or ignore from its name (a CREATE TABLE AS SELECT), so the path
  // catalog finds them here. Bounded; driver memory only.
  private static final int REMEMBERED = 256;
  private static final Map<String, Map<String, String>> LAST_OPTIONS = java.util.Collections.synchronizedMap(
      new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Map<String, String>> eldest) {
          return size() > REMEMBERED;
        }
      });

  private final String uri;
  private final Map<String, String> storage;

  PathIdentifier(String uri, Map<String, String> storage) {
    this.uri = uri;
    this.storage = Map.copyOf(storage);
    LAST_OPTIONS.put(uri, this.storage);
  }

  /** The storage options the data source last named {@code uri} with (none if it did not). */
  static Map<String, String> lastOptions(String uri) {
    return LAST_OPTIONS.getOrDefault(uri, Map.of());
  }

  String uri() {
    return uri;
  }

  Map<String, String> storage() {
    return storage;
  }

  @Override
  public String[] namespace() {
    return new String[0];
  }

  @Override
  public String name() {
    return uri;
  }

  // Names the URI only: the options may hold credentials.
  @Override
  public String toString() {
    return uri;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PathIdentifier p && p.uri.equals(uri);
  }

  @Override
  public int hashCode() {
    return uri.hashCode();
  }
}
