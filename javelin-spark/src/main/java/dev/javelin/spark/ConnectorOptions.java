package dev.javelin.spark;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.sql.SparkSession;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The storage options the connector opens a dataset's store with: Spark's session config
 * {@code spark.javelin.storage.<key>}, under the data source's options (which win), every one of
 * them except the connector's own ({@link #OWN}). Keys are lower-cased, as
 * {@link dev.javelin.io.StorageOptions} reads them. The result is a plain serializable map, so
 * that executors open the store from what their partition or task carries.
 */
final class ConnectorOptions {
  /** The prefix of storage options in Spark's session config. */
  static final String SESSION_PREFIX = "spark.javelin.storage.";
  /** The data source options that are the connector's, not the store's. */
  static final Set<String> OWN = Set.of("path", "paths", "version", "tag");

  private ConnectorOptions() {}

  /** The storage options in {@code spark}'s session config (prefix stripped). */
  static Map<String, String> fromSession(SparkSession spark) {
    if (spark == null) {
      return Map.of();
    }
    TreeMap<String, String> out = new TreeMap<>();
    CollectionConverters.asJava(spark.conf().getAll()).forEach((k, v) -> {
      if (k.startsWith(SESSION_PREFIX) && k.length() > SESSION_PREFIX.length()) {
        out.put(k.substring(SESSION_PREFIX.length()).toLowerCase(Locale.ROOT), v);
      }
    });
    return Map.copyOf(out);
  }

  /** The active session's storage options under the data source's {@code options}. */
  static Map<String, String> storage(Map<String, String> options) {
    return merge(fromSession(activeSession()), options);
  }

  /** {@code session}'s storage options with {@code options} (minus the connector's own) over them. */
  static Map<String, String> merge(Map<String, String> session, Map<String, String> options) {
    TreeMap<String, String> out = new TreeMap<>(session);
    options.forEach((k, v) -> {
      String key = k.toLowerCase(Locale.ROOT);
      if (!OWN.contains(key) && v != null) {
        out.put(key, v);
      }
    });
    return Map.copyOf(out);
  }

  private static SparkSession activeSession() {
    Option<SparkSession> active = SparkSession.getActiveSession();
    if (active.isDefined()) {
      return active.get();
    }
    Option<SparkSession> fallback = SparkSession.getDefaultSession();
    return fallback.isDefined() ? fallback.get() : null;
  }
}
