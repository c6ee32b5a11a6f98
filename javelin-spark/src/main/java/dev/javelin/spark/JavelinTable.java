package dev.javelin.spark;

import dev.javelin.core.Dataset;
import dev.javelin.core.DatasetBuilder;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/** One Javelin dataset as a Spark table: batch reads, appends and overwrites. */
final class JavelinTable implements SupportsRead, SupportsWrite {
  private final String uri;
  private final StructType schema;
  private final CaseInsensitiveStringMap options;

  JavelinTable(String uri, StructType schema, CaseInsensitiveStringMap options) {
    this.uri = uri;
    this.schema = schema;
    this.options = options;
  }

  static String uri(CaseInsensitiveStringMap options) {
    String uri = options.get("path");
    if (uri == null) {
      throw new IllegalArgumentException("The javelin data source needs a path: load(uri) or save(uri)");
    }
    return uri;
  }

  /** The storage options of a read or write with these data source options (see {@link ConnectorOptions}). */
  static Map<String, String> storage(CaseInsensitiveStringMap options) {
    return ConnectorOptions.storage(options.asCaseSensitiveMap());
  }

  /** The dataset at the version the options ask for (default: the newest), opened with {@code storage}. */
  static Dataset open(String uri, CaseInsensitiveStringMap options, Map<String, String> storage) {
    String version = options.get("version");
    String tag = options.get("tag");
    if (version != null && tag != null) {
      throw new IllegalArgumentException("Give the option version or tag, not both: " + uri);
    }
    DatasetBuilder b = Dataset.builder(uri).storageOptions(storage).allocator(ArrowUtils.rootAllocator());
    if (version != null) {
      b.version(Long.parseLong(version));
    } else if (tag != null) {
      b.tag(tag);
    }
    return b.load();
  }

  @Override
  public String name() {
    return "javelin:" + uri;
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return EnumSet.of(TableCapability.BATCH_READ, TableCapability.BATCH_WRITE, TableCapability.TRUNCATE);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap scanOptions) {
    CaseInsensitiveStringMap merged = scanOptions.isEmpty() ? options : scanOptions;
    Map<String, String> storage = storage(merged);
    Dataset ds = open(uri, merged, storage);
    return new JavelinScanBuilder(uri, storage, ds.version(), ArrowUtils.fromArrowSchema(ds.schema().toArrow()),
        ds.manifest().fragments().stream().map(f -> f.id()).toList());
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    CaseInsensitiveStringMap writeOptions = info.options().isEmpty() ? options : info.options();
    return new JavelinWrite.Builder(uri, storage(writeOptions), info.schema());
  }
}
