package dev.javelin.spark;

import dev.javelin.core.Dataset;
import dev.javelin.core.DistributedWrite;
import dev.javelin.core.Session;
import dev.javelin.core.UpdateConfigBuilder;
import dev.javelin.core.VersionInfo;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.io.ObjectInfo;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.Table;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.spark.sql.catalyst.analysis.NamespaceAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.NonEmptyNamespaceException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.CatalogV2Util;
import org.apache.spark.sql.connector.catalog.Column;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.NamespaceChange;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.StagingTableCatalog;
import org.apache.spark.sql.connector.catalog.SupportsNamespaces;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A Spark catalog over a directory of Javelin (Lance) datasets on any store:
 * {@code spark.sql.catalog.lake=dev.javelin.spark.JavelinCatalog},
 * {@code spark.sql.catalog.lake.root=s3://bucket/lake}, every other catalog option a storage
 * option (Lance's key names, over the session's {@code spark.javelin.storage.*}).
 *
 * <p>Layout, as Lance's directory namespace lays out its root: table {@code t} is the dataset
 * {@code <root>/t.lance}, so lance-core and LanceDB opening the same root list and open the same
 * tables. A namespace {@code a.b} is the directory {@code <root>/a/b} (marked by an empty
 * {@value #NAMESPACE_MARKER} object, since object stores have no directories) whose tables are
 * {@code <root>/a/b/<t>.lance}: Lance's directory namespace rooted there sees them.
 *
 * <p>Without a {@code root} the catalog names datasets by path: {@code javelin.`/data/ds`}. The
 * data source registers such a catalog as {@value #PATH_CATALOG} when the session has none of
 * that name, which is what {@code SELECT ... FROM javelin.`/path`} resolves through.
 */
public final class JavelinCatalog implements StagingTableCatalog, SupportsNamespaces {
  /** The name the data source registers a path catalog under. */
  public static final String PATH_CATALOG = "javelin";
  /** The empty object that marks a namespace's directory. */
  static final String NAMESPACE_MARKER = ".javelin-namespace";
  /**
   * Table properties that set how a new dataset is written (not Lance config); every other
   * property a table is created or altered with is Lance config.
   */
  static final Set<String> CREATE_PROPERTIES = Set.of("file_version", "enable_stable_row_ids");

  private String name;
  private String root;
  private Map<String, String> options = Map.of();

  @Override
  public void initialize(String name, CaseInsensitiveStringMap options) {
    this.name = name;
    String r = options.get("root");
    this.root = r == null || r.isBlank() ? null : r.replaceAll("/+$", "");
    TreeMap<String, String> own = new TreeMap<>(options.asCaseSensitiveMap());
    own.keySet().removeIf(k -> k.equalsIgnoreCase("root"));
    this.options = Map.copyOf(own);
  }

  @Override
  public String name() {
    return name;
  }

  // ---- where things are

  /** The storage options: the session's, under the catalog's (which win). */
  private Map<String, String> storage() {
    return ConnectorOptions.storage(options);
  }

  private record Location(String uri, Map<String, String> storage) {}

  private Location locate(Identifier ident) {
    if (ident instanceof PathIdentifier p) {
      return new Location(p.uri(), ConnectorOptions.merge(storage(), p.storage()));
    }
    if (root == null) {
      if (ident.namespace().length > 0) {
        throw new IllegalArgumentException("Catalog '" + name + "' has no root option, so no namespaces: name a "
            + "dataset by its path or URI, as " + name + ".`/path/to/dataset`; got " + ident);
      }
      return new Location(ident.name(), ConnectorOptions.merge(storage(), PathIdentifier.lastOptions(ident.name())));
    }
    checkName(ident.name(), "table");
    return new Location(namespaceUri(ident.namespace()) + "/" + ident.name() + ".lance", storage());
  }

  private String namespaceUri(String[] namespace) {
    requireRoot();
    StringBuilder out = new StringBuilder(root);
    for (String part : namespace) {
      checkName(part, "namespace");
      out.append('/').append(part);
    }
    return out.toString();
  }

  // The key prefix of a namespace's directory under the root ("" for the root).
  private static String prefix(String[] namespace) {
    return namespace.length == 0 ? "" : String.join("/", namespace) + "/";
  }

  private void checkName(String part, String what) {
    if (part.isEmpty() || part.contains("/") || part.startsWith(".") || part.endsWith(".lance")) {
      throw new IllegalArgumentException("Invalid " + what + " name '" + part + "' in catalog '" + name
          + "': a name is not empty, has no '/', does not start with '.' nor end with '.lance'");
    }
  }

  private void requireRoot() {
    if (root == null) {
      throw new IllegalArgumentException("Catalog '" + name + "' has no root option, so no namespaces: set spark.sql"
          + ".catalog." + name + ".root to a directory or URI");
    }
  }

  private ObjectStore rootStore() {
    requireRoot();
    return Session.defaultSession().store(root, storage());
  }

  private static boolean exists(Location at) {
    return Table.at(Session.defaultSession().store(at.uri(), at.storage())).exists();
  }

  // Every key under the namespace's directory, relative to it.
  private List<String> keysUnder(String[] namespace) {
    String p = prefix(namespace);
    try {
      List<String> out = new ArrayList<>();
      for (ObjectInfo o : rootStore().list(p)) {
        out.add(o.key().substring(p.length()));
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---- tables

  @Override
  public Identifier[] listTables(String[] namespace) throws NoSuchNamespaceException {
    if (root == null) {
      return new Identifier[0];
    }
    if (!namespaceExists(namespace)) {
      throw new NoSuchNamespaceException(namespace);
    }
    TreeSet<String> names = new TreeSet<>();
    for (String key : keysUnder(namespace)) {
      int slash = key.indexOf('/');
      // A dataset is a <name>.lance directory with a version under _versions/.
      if (slash > 0 && key.substring(0, slash).endsWith(".lance")
          && key.startsWith("_versions/", slash + 1)) {
        names.add(key.substring(0, slash - ".lance".length()));
      }
    }
    return names.stream().map(n -> Identifier.of(namespace, n)).toArray(Identifier[]::new);
  }

  @Override
  public JavelinTable loadTable(Identifier ident) throws NoSuchTableException {
    return load(ident, null, null);
  }

  /** Time travel: {@code VERSION AS OF 3} reads version 3, {@code VERSION AS OF 'gold'} the tag gold. */
  @Override
  public JavelinTable loadTable(Identifier ident, String version) throws NoSuchTableException {
    if (version.chars().allMatch(Character::isDigit) && !version.isEmpty()) {
      return load(ident, Long.parseLong(version), null);
    }
    return load(ident, null, version);
  }

  /** {@code TIMESTAMP AS OF t}: the newest version committed at or before t. */
  @Override
  public JavelinTable loadTable(Identifier ident, long timestampMicros) throws NoSuchTableException {
    Location at = locate(ident);
    if (!exists(at)) {
      throw new NoSuchTableException(ident);
    }
    Instant when = Instant.EPOCH.plusNanos(Math.multiplyExact(timestampMicros, 1000L));
    Long version = null;
    for (VersionInfo v : Dataset.versions(at.uri(), at.storage())) {
      if (v.timestamp().isPresent() && !v.timestamp().get().isAfter(when)) {
        version = version == null ? v.version() : Math.max(version, v.version());
      }
    }
    if (version == null) {
      throw new IllegalArgumentException("No version of " + at.uri() + " was committed at or before " + when);
    }
    return load(ident, version, null);
  }

  private JavelinTable load(Identifier ident, Long version, String tag) throws NoSuchTableException {
    Location at = locate(ident);
    if (!exists(at)) {
      if (ident instanceof PathIdentifier && version == null && tag == null) {
        return JavelinTable.toCreate(at.uri(), at.storage());
      }
      throw new NoSuchTableException(ident);
    }
    return JavelinTable.load(tableName(ident), at.uri(), at.storage(), version, tag,
        ident instanceof PathIdentifier);
  }

  private String tableName(Identifier ident) {
    if (ident instanceof PathIdentifier p) {
      return p.uri();
    }
    List<String> parts = new ArrayList<>();
    parts.add(name);
    parts.addAll(Arrays.asList(ident.namespace()));
    parts.add(ident.name());
    return String.join(".", parts);
  }

  @Override
  public boolean tableExists(Identifier ident) {
    return exists(locate(ident));
  }

  @Override
  public JavelinTable createTable(Identifier ident, Column[] columns, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException, NoSuchNamespaceException {
    Location at = checkCreate(ident, partitions);
    NewDataset spec = NewDataset.of(CatalogV2Util.v2ColumnsToStructType(columns), properties, at.uri());
    try {
      DistributedWrite.commitFragments(Session.defaultSession().store(at.uri(), at.storage()), 0, spec.schema(),
          spec.fileVersion(), spec.stableRowIds(), List.of(), ArrowUtils.rootAllocator());
    } catch (dev.javelin.table.exceptions.DatasetExistsException e) {
      throw new TableAlreadyExistsException(ident);
    }
    spec.applyConfig(at.uri(), at.storage());
    try {
      return loadTable(ident);
    } catch (NoSuchTableException e) {
      throw new IllegalStateException("Table " + ident + " was created but cannot be loaded", e);
    }
  }

  /**
   * {@code CREATE TABLE ... AS SELECT} (and the data source's default save mode): the write that
   * fills the table creates its dataset, so the table appears in one commit with its rows, or
   * not at all.
   */
  @Override
  public StagedTable stageCreate(Identifier ident, Column[] columns, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException, NoSuchNamespaceException {
    Location at = checkCreate(ident, partitions);
    NewDataset spec = NewDataset.of(CatalogV2Util.v2ColumnsToStructType(columns), properties, at.uri());
    return new StagedCreate(tableName(ident), at.uri(), at.storage(), spec);
  }

  private Location checkCreate(Identifier ident, Transform[] partitions)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    if (partitions.length > 0) {
      throw new IllegalArgumentException("Javelin tables are not partitioned; drop PARTITIONED BY from the "
          + "definition of " + ident);
    }
    if (root != null && !(ident instanceof PathIdentifier) && !namespaceExists(ident.namespace())) {
      throw new NoSuchNamespaceException(ident.namespace());
    }
    Location at = locate(ident);
    if (exists(at)) {
      throw new TableAlreadyExistsException(ident);
    }
    return at;
  }

  @Override
  public JavelinTable alterTable(Identifier ident, TableChange... changes) throws NoSuchTableException {
    Location at = locate(ident);
    if (!exists(at)) {
      throw new NoSuchTableException(ident);
    }
    SchemaChanges.apply(JavelinTable.open(at.uri(), at.storage(), null, null), List.of(changes));
    return loadTable(ident);
  }

  @Override
  public boolean dropTable(Identifier ident) {
    Location at = locate(ident);
    if (!exists(at)) {
      return false;
    }
    ObjectStore store = Session.defaultSession().store(at.uri(), at.storage());
    try {
      List<String> keys = store.list("").stream().map(ObjectInfo::key).toList();
      store.deleteAll(keys);
      removeEmptyDirectories(at.uri());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return true;
  }

  // A local store leaves the directories of deleted files; an object store has none.
  private static void removeEmptyDirectories(String uri) throws IOException {
    Path dir;
    if (uri.startsWith("file:")) {
      dir = Path.of(URI.create(uri));
    } else if (!uri.contains("://")) {
      dir = Path.of(uri);
    } else {
      return;
    }
    if (!Files.isDirectory(dir)) {
      return;
    }
    List<Path> dirs;
    try (Stream<Path> s = Files.walk(dir)) {
      dirs = s.filter(Files::isDirectory).sorted(Comparator.reverseOrder()).toList();
    }
    for (Path d : dirs) {
      try (Stream<Path> s = Files.list(d)) {
        if (s.findAny().isEmpty()) {
          Files.delete(d);
        }
      }
    }
  }

  @Override
  public void renameTable(Identifier from, Identifier to) {
    throw new UnsupportedOperationException("Catalog '" + name + "' cannot rename tables: a Lance dataset's files "
        + "would all be copied; create the new table AS SELECT from the old one instead");
  }

  // ---- namespaces

  @Override
  public String[][] listNamespaces() throws NoSuchNamespaceException {
    return listNamespaces(new String[0]);
  }

  @Override
  public String[][] listNamespaces(String[] namespace) throws NoSuchNamespaceException {
    if (root == null) {
      return new String[0][];
    }
    if (!namespaceExists(namespace)) {
      throw new NoSuchNamespaceException(namespace);
    }
    TreeSet<String> children = new TreeSet<>();
    for (String key : keysUnder(namespace)) {
      int slash = key.indexOf('/');
      if (slash > 0) {
        String dir = key.substring(0, slash);
        if (!dir.endsWith(".lance") && !dir.startsWith(".") && key.startsWith(NAMESPACE_MARKER, slash + 1)
            && key.length() == slash + 1 + NAMESPACE_MARKER.length()) {
          children.add(dir);
        }
      }
    }
    String[][] out = new String[children.size()][];
    int i = 0;
    for (String c : children) {
      String[] ns = Arrays.copyOf(namespace, namespace.length + 1);
      ns[namespace.length] = c;
      out[i++] = ns;
    }
    return out;
  }

  @Override
  public boolean namespaceExists(String[] namespace) {
    if (namespace.length == 0) {
      return true;
    }
    if (root == null) {
      return false;
    }
    try {
      return rootStore().exists(prefix(namespace) + NAMESPACE_MARKER);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public Map<String, String> loadNamespaceMetadata(String[] namespace) throws NoSuchNamespaceException {
    if (!namespaceExists(namespace)) {
      throw new NoSuchNamespaceException(namespace);
    }
    return Map.of(SupportsNamespaces.PROP_LOCATION, namespace.length == 0 && root == null ? "" : namespaceUri(
        namespace));
  }

  @Override
  public void createNamespace(String[] namespace, Map<String, String> metadata)
      throws NamespaceAlreadyExistsException {
    requireRoot();
    if (namespace.length == 0 || namespaceExists(namespace)) {
      throw new NamespaceAlreadyExistsException(namespace);
    }
    String[] parent = Arrays.copyOf(namespace, namespace.length - 1);
    if (!namespaceExists(parent)) {
      throw new IllegalArgumentException("Namespace " + String.join(".", parent) + " does not exist in catalog '"
          + name + "': create it before " + String.join(".", namespace));
    }
    for (String k : metadata.keySet()) {
      if (!k.equals(SupportsNamespaces.PROP_OWNER)) {
        throw new IllegalArgumentException("Catalog '" + name + "' keeps no namespace properties; got '" + k + "'");
      }
    }
    try {
      rootStore().put(prefix(namespace) + NAMESPACE_MARKER, new byte[0]);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void alterNamespace(String[] namespace, NamespaceChange... changes) {
    throw new UnsupportedOperationException("Catalog '" + name + "' keeps no namespace properties: "
        + String.join(".", namespace));
  }

  @Override
  public boolean dropNamespace(String[] namespace, boolean cascade)
      throws NoSuchNamespaceException, NonEmptyNamespaceException {
    requireRoot();
    if (namespace.length == 0) {
      throw new IllegalArgumentException("Catalog '" + name + "' cannot drop its root namespace");
    }
    if (!namespaceExists(namespace)) {
      throw new NoSuchNamespaceException(namespace);
    }
    List<String> keys = keysUnder(namespace);
    if (!cascade && keys.stream().anyMatch(k -> !k.equals(NAMESPACE_MARKER))) {
      throw new NonEmptyNamespaceException(namespace);
    }
    String p = prefix(namespace);
    try {
      // The marker last: a drop that fails midway leaves the namespace listed.
      List<String> data = keys.stream().filter(k -> !k.equals(NAMESPACE_MARKER)).map(k -> p + k).toList();
      rootStore().deleteAll(data);
      rootStore().delete(p + NAMESPACE_MARKER);
      removeEmptyDirectories(namespaceUri(namespace));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return true;
  }

  // ---- a new dataset's schema and write settings

  /** The schema and settings of a table to create, from its columns and table properties. */
  record NewDataset(StructType sparkSchema, LanceSchema schema, LanceFileVersion fileVersion, boolean stableRowIds,
      Map<String, String> config) {
    static NewDataset of(StructType columns, Map<String, String> properties, String uri) {
      LanceFileVersion fileVersion = LanceFileVersion.V2_1;
      boolean stableRowIds = false;
      Map<String, String> config = new TreeMap<>();
      for (Map.Entry<String, String> e : properties.entrySet()) {
        String k = e.getKey();
        if (k.equals("file_version")) {
          fileVersion = LanceFileVersion.parse(e.getValue());
        } else if (k.equals("enable_stable_row_ids")) {
          stableRowIds = Boolean.parseBoolean(e.getValue().toLowerCase(Locale.ROOT));
        } else if (k.equals(TableCatalog.PROP_PROVIDER)) {
          String p = e.getValue().toLowerCase(Locale.ROOT);
          if (!p.equals("javelin") && !p.equals("lance")) {
            throw new IllegalArgumentException("A Javelin catalog makes Lance tables only: USING " + e.getValue()
                + " is not possible");
          }
        } else if (k.equals(TableCatalog.PROP_LOCATION)) {
          if (!e.getValue().replaceAll("/+$", "").equals(uri)) {
            throw new IllegalArgumentException("A Javelin catalog places its tables itself: LOCATION '" + e.getValue()
                + "' is not where this table goes (" + uri + ")");
          }
        } else if (!k.equals(TableCatalog.PROP_OWNER) && !k.startsWith(TableCatalog.OPTION_PREFIX)
            && !k.equals(TableCatalog.PROP_IS_MANAGED_LOCATION)) {
          config.put(k, e.getValue());
        }
      }
      // Checked before anything is written, so a bad value creates no table.
      UpdateConfigBuilder.checkValues(config);
      return new NewDataset(columns, LanceSchema.fromArrow(ArrowUtils.toArrowSchema(columns, "UTC", true, false)),
          fileVersion, stableRowIds, Map.copyOf(config));
    }

    /**
     * Sets the other table properties as the new dataset's Lance config, in one commit after the
     * one that created it (none if there are none).
     */
    void applyConfig(String uri, Map<String, String> storage) {
      if (!config.isEmpty()) {
        JavelinTable.open(uri, storage, null, null).updateConfig().set(config).commit();
      }
    }
  }
}
