package dev.javelin.core;

import dev.javelin.core.compaction.CompactionOptions;
import dev.javelin.core.exceptions.CompactionException;
import dev.javelin.core.exceptions.InvalidConfigException;
import dev.javelin.table.Transaction;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A change of the dataset's config map (Lance's {@code update_config}) being configured;
 * {@link #commit()} commits it as one UpdateConfig. Start with {@link Dataset#updateConfig()}:
 *
 * <pre>{@code
 * Dataset next = dataset.updateConfig().set("owner", "ml").remove("stale").commit();
 * }</pre>
 *
 * <p>Any key may be set, including the {@code lance.*} keys Lance reserves; the values of the
 * keys Javelin reads ({@value CompactionOptions#MAX_DATA_FILES_KEY},
 * {@value CompactionOptions#COLUMN_GROUPS_KEY}) are checked as compaction reads them.
 */
public final class UpdateConfigBuilder {
  private final Dataset dataset;
  private final Map<String, String> upserts = new LinkedHashMap<>();
  private final Set<String> deletes = new LinkedHashSet<>();

  UpdateConfigBuilder(Dataset dataset) {
    this.dataset = dataset;
  }

  /** Sets {@code key} to {@code value} (a later call for the same key wins). */
  public UpdateConfigBuilder set(String key, String value) {
    checkKey(key);
    upserts.put(key, Objects.requireNonNull(value, "value"));
    return this;
  }

  /** Sets every entry of {@code values}. */
  public UpdateConfigBuilder set(Map<String, String> values) {
    values.forEach(this::set);
    return this;
  }

  /** Removes {@code key} (a key the config lacks is removed as a no-op, as in Lance). */
  public UpdateConfigBuilder remove(String key) {
    checkKey(key);
    deletes.add(key);
    return this;
  }

  /**
   * Commits the change on top of the newest version: a concurrent commit is built on unless it
   * set or removed a key this change sets, or set a key this change removes.
   *
   * @return the dataset at the committed version
   * @throws InvalidConfigException if nothing is set or removed, a key is both set and removed,
   *     or a value of a key Javelin reads is not one it can use
   * @throws dev.javelin.table.exceptions.CommitConflictException if a concurrent commit changed
   *     one of the same keys
   */
  public Dataset commit() {
    if (upserts.isEmpty() && deletes.isEmpty()) {
      throw new InvalidConfigException("Set or remove at least one config key: " + dataset.location(), null, null);
    }
    for (String key : deletes) {
      if (upserts.containsKey(key)) {
        throw new InvalidConfigException("Config key '" + key + "' is both set and removed: " + dataset.location(),
            key, null);
      }
    }
    checkValues(upserts);
    Transaction txn = Transaction.updateConfig(dataset.version(), upserts, deletes);
    return dataset.at(dataset.table().newCommit(txn).commit());
  }

  /**
   * Checks config values as {@link #commit()} does, without a dataset: for what creates a dataset
   * and then sets its config (a Spark {@code CREATE TABLE ... TBLPROPERTIES}).
   *
   * @throws InvalidConfigException naming the first key that is blank or whose value Javelin
   *     cannot use
   */
  public static void checkValues(Map<String, String> values) {
    for (Map.Entry<String, String> e : values.entrySet()) {
      checkKey(e.getKey());
      try {
        // Parsed as compaction parses it, so a value compaction cannot use is refused now.
        CompactionOptions.defaults().withTableConfig(Map.of(e.getKey(), e.getValue()));
      } catch (CompactionException ex) {
        throw new InvalidConfigException(ex.getMessage(), e.getKey(), ex);
      }
    }
  }

  private static void checkKey(String key) {
    if (Objects.requireNonNull(key, "key").isBlank()) {
      throw new InvalidConfigException("A config key must not be blank", key, null);
    }
  }
}
