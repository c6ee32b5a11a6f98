package dev.javelin.spark;

import dev.javelin.core.Dataset;
import dev.javelin.core.DatasetBuilder;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.sql.connector.catalog.SupportsDeleteV2;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * One Javelin dataset as a Spark table: batch reads (of a pinned version after time travel, else
 * of the newest), appends, overwrites and deletes by filter.
 *
 * <p>A table the data source names by path takes the data's schema on a write (it may create
 * the dataset, and {@code mode("overwrite")} replaces the schema, as before there was a catalog);
 * a catalog table keeps its schema, Spark fitting the rows to it.
 */
final class JavelinTable implements SupportsRead, SupportsWrite, SupportsDeleteV2 {
  private final String name;
  private final String uri;
  private final Map<String, String> storage;
  private final StructType schema;
  private final Long pinnedVersion;
  private final Map<String, String> properties;
  private final boolean byPath;

  private JavelinTable(String name, String uri, Map<String, String> storage, StructType schema, Long pinnedVersion,
      Map<String, String> properties, boolean byPath) {
    this.name = name;
    this.uri = uri;
    this.storage = Map.copyOf(storage);
    this.schema = schema;
    this.pinnedVersion = pinnedVersion;
    this.properties = properties;
    this.byPath = byPath;
  }

  /**
   * The dataset at {@code uri} as a table: at {@code version} or {@code tag} if given (the table
   * then reads that version only), else the newest.
   */
  static JavelinTable load(String name, String uri, Map<String, String> storage, Long version, String tag,
      boolean byPath) {
    Dataset ds = open(uri, storage, version, tag);
    Map<String, String> props = new TreeMap<>(ds.manifest().config());
    props.put(TableCatalog.PROP_PROVIDER, "javelin");
    props.put(TableCatalog.PROP_LOCATION, uri);
    props.put("version", Long.toString(ds.version()));
    return new JavelinTable(name, uri, storage, ArrowUtils.fromArrowSchema(ds.schema().toArrow()),
        version != null || tag != null ? ds.version() : null, Map.copyOf(props), byPath);
  }

  /** A dataset the data source names by path that does not exist yet: a write creates it. */
  static JavelinTable toCreate(String uri, Map<String, String> storage) {
    return new JavelinTable(uri, uri, storage, new StructType(), null,
        Map.of(TableCatalog.PROP_PROVIDER, "javelin", TableCatalog.PROP_LOCATION, uri), true);
  }

  /** The data source's table for {@code getTable}: the given schema, the dataset's URI and options. */
  static JavelinTable ofDataSource(String uri, StructType schema, Map<String, String> storage) {
    return new JavelinTable(uri, uri, storage, schema, null,
        Map.of(TableCatalog.PROP_PROVIDER, "javelin", TableCatalog.PROP_LOCATION, uri), true);
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

  /** The dataset at {@code version} or {@code tag} (both null: the newest), opened with {@code storage}. */
  static Dataset open(String uri, Map<String, String> storage, Long version, String tag) {
    if (version != null && tag != null) {
      throw new IllegalArgumentException("Give the option version or tag, not both: " + uri);
    }
    DatasetBuilder b = Dataset.builder(uri).storageOptions(storage).allocator(ArrowUtils.rootAllocator());
    if (version != null) {
      b.version(version);
    } else if (tag != null) {
      b.tag(tag);
    }
    return b.load();
  }

  String uri() {
    return uri;
  }

  Map<String, String> storage() {
    return storage;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public Map<String, String> properties() {
    return properties;
  }

  @Override
  public Set<TableCapability> capabilities() {
    EnumSet<TableCapability> out = EnumSet.of(TableCapability.BATCH_READ, TableCapability.BATCH_WRITE,
        TableCapability.TRUNCATE);
    if (byPath) {
      out.add(TableCapability.ACCEPT_ANY_SCHEMA);
    }
    return out;
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap scanOptions) {
    Map<String, String> s = withOptions(scanOptions);
    String version = scanOptions.get("version");
    String tag = scanOptions.get("tag");
    Dataset ds = version == null && tag == null
        ? open(uri, s, pinnedVersion, null)
        : open(uri, s, version == null ? null : Long.parseLong(version), tag);
    return new JavelinScanBuilder(uri, s, ds.version(), ArrowUtils.fromArrowSchema(ds.schema().toArrow()),
        ds.manifest().fragments().stream().map(f -> f.id()).toList());
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    return new JavelinWrite.Builder(uri, withOptions(info.options()), info.schema(), byPath);
  }

  // The table's storage options under those of one read or write (which win).
  private Map<String, String> withOptions(CaseInsensitiveStringMap options) {
    if (options.isEmpty()) {
      return storage;
    }
    return ConnectorOptions.merge(storage, options.asCaseSensitiveMap());
  }

  // ---- DELETE FROM: one Delete commit when the whole predicate has a Javelin form

  @Override
  public boolean canDeleteWhere(Predicate[] predicates) {
    return PredicateTranslator.translate(predicates) != null;
  }

  @Override
  public void deleteWhere(Predicate[] predicates) {
    String filter = PredicateTranslator.translate(predicates);
    if (filter == null) {
      throw new IllegalArgumentException("A predicate of this DELETE has no Javelin form: "
          + List.of(predicates));
    }
    open(uri, storage, null, null).deleteWhere(filter);
  }
}
