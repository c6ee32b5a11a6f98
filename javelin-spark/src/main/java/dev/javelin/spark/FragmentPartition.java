package dev.javelin.spark;

import java.util.List;
import org.apache.spark.sql.connector.read.InputPartition;

/** One fragment of one version, the columns to read and the pushed filter (or null). */
record FragmentPartition(String uri, long version, long fragmentId, List<String> columns, String filter)
    implements InputPartition {}
