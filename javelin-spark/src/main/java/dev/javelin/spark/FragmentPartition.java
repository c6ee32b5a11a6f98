package dev.javelin.spark;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * One fragment of one version, the storage options to open its store with (executors have
 * nothing else), the columns to read and the pushed filter (or null).
 */
record FragmentPartition(String uri, Map<String, String> storage, long version, long fragmentId,
    List<String> columns, String filter) implements InputPartition {
  /** Names the storage options' keys only: their values may be credentials. */
  @Override
  public String toString() {
    return "FragmentPartition[uri=" + uri + ", storage=" + new TreeSet<>(storage.keySet()) + ", version=" + version
        + ", fragmentId=" + fragmentId + ", columns=" + columns + ", filter=" + filter + "]";
  }
}
