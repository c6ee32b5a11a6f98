package dev.javelin.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Plans a read of one version: the columns Spark needs, the filters Javelin can evaluate
 * (translated to its expression language, so a BTree index can answer them), one input
 * partition per fragment. Spark still evaluates every filter after the scan, so a filter Javelin
 * reads differently can never change a result.
 */
final class JavelinScanBuilder implements ScanBuilder, SupportsPushDownRequiredColumns, SupportsPushDownFilters,
    Scan, Batch {
  private final String uri;
  private final Map<String, String> storage;
  private final long version;
  private final List<Long> fragmentIds;
  private StructType schema;
  private Filter[] pushed = new Filter[0];
  private String filter;

  JavelinScanBuilder(String uri, Map<String, String> storage, long version, StructType schema,
      List<Long> fragmentIds) {
    this.uri = uri;
    this.storage = Map.copyOf(storage);
    this.version = version;
    this.schema = schema;
    this.fragmentIds = fragmentIds;
  }

  @Override
  public void pruneColumns(StructType required) {
    this.schema = required;
  }

  @Override
  public Filter[] pushFilters(Filter[] filters) {
    List<Filter> ok = new ArrayList<>();
    List<String> exprs = new ArrayList<>();
    for (Filter f : filters) {
      String e = FilterTranslator.translate(f);
      if (e != null) {
        ok.add(f);
        exprs.add("(" + e + ")");
      }
    }
    pushed = ok.toArray(new Filter[0]);
    filter = exprs.isEmpty() ? null : String.join(" AND ", exprs);
    return filters;
  }

  @Override
  public Filter[] pushedFilters() {
    return pushed;
  }

  /** The Javelin filter pushed into each fragment's scan, or null. */
  String filter() {
    return filter;
  }

  @Override
  public Scan build() {
    return this;
  }

  @Override
  public StructType readSchema() {
    return schema;
  }

  @Override
  public String description() {
    return "javelin " + uri + " v" + version + (filter == null ? "" : " filter: " + filter);
  }

  @Override
  public Batch toBatch() {
    return this;
  }

  @Override
  public InputPartition[] planInputPartitions() {
    List<String> columns = Arrays.stream(schema.fields()).map(StructField::name).toList();
    InputPartition[] out = new InputPartition[fragmentIds.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = new FragmentPartition(uri, storage, version, fragmentIds.get(i), columns, filter);
    }
    return out;
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    return new FragmentReaderFactory();
  }
}
