package dev.javelin.spark;

import java.util.List;
import java.util.Map;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * One fragment of one version, the storage options to open its store with (executors have
 * nothing else), the columns to read and the pushed filter (or null).
 */
record FragmentPartition(String uri, Map<String, String> storage, long version, long fragmentId, List<String> columns, String filter)
    implements InputPartition {}
