package dev.javelin.io;

import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The storage options of a dataset: string keys with Lance's names ({@code aws_region},
 * {@code aws_endpoint}, {@code azure_storage_account_name}, ...), so that one map configures
 * Javelin and lance-core alike. Keys are case-insensitive (stored lower case); a store reads the
 * keys it knows and falls back to its provider's standard chain (environment, profiles, instance
 * roles) for the rest. Immutable.
 */
public final class StorageOptions {
  private static final StorageOptions NONE = new StorageOptions(Map.of());
  private final Map<String, String> values;

  private StorageOptions(Map<String, String> values) {
    this.values = values;
  }

  /** No options: every store uses its standard configuration chain. */
  public static StorageOptions none() {
    return NONE;
  }

  /** The options of a map (null: none); keys are lower-cased. */
  public static StorageOptions of(Map<String, String> options) {
    if (options == null || options.isEmpty()) {
      return NONE;
    }
    TreeMap<String, String> copy = new TreeMap<>();
    options.forEach((k, v) -> {
      if (k == null || v == null) {
        throw new IllegalArgumentException("Storage option keys and values must not be null: " + k + "=" + v);
      }
      copy.put(k.toLowerCase(Locale.ROOT), v);
    });
    return new StorageOptions(Collections.unmodifiableMap(copy));
  }

  /** The value of the first of {@code keys} that is set (aliases: Lance accepts several names for one option). */
  public Optional<String> get(String... keys) {
    for (String key : keys) {
      String v = values.get(key.toLowerCase(Locale.ROOT));
      if (v != null) {
        return Optional.of(v);
      }
    }
    return Optional.empty();
  }

  /**
   * A boolean option, as Lance parses them ({@code true}/{@code false}, {@code 1}/{@code 0},
   * {@code yes}/{@code no}, {@code on}/{@code off}, any case).
   *
   * @throws IllegalArgumentException naming the key for any other value
   */
  public Optional<Boolean> bool(String... keys) {
    for (String key : keys) {
      String v = values.get(key.toLowerCase(Locale.ROOT));
      if (v != null) {
        switch (v.trim().toLowerCase(Locale.ROOT)) {
          case "true": case "1": case "yes": case "on":
            return Optional.of(true);
          case "false": case "0": case "no": case "off":
            return Optional.of(false);
          default:
            throw new IllegalArgumentException(
                "Storage option " + key + " must be true or false, not '" + v + "'");
        }
      }
    }
    return Optional.empty();
  }

  /** All options, keys lower case, sorted. */
  public Map<String, String> asMap() {
    return values;
  }

  public boolean isEmpty() {
    return values.isEmpty();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StorageOptions && ((StorageOptions) o).values.equals(values);
  }

  @Override
  public int hashCode() {
    return values.hashCode();
  }

  /** The keys only: values may be secrets. */
  @Override
  public String toString() {
    return "StorageOptions" + values.keySet();
  }
}
