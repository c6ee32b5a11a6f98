package dev.javelin.spark;

import dev.javelin.core.DistributedWrite;
import dev.javelin.core.Session;
import dev.javelin.table.Table;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;

/**
 * A table of a {@code CREATE TABLE ... AS SELECT} not created yet: the write's one commit
 * creates the dataset with its rows (failing if another writer created it meanwhile), so nothing
 * is left of a statement that fails.
 */
final class StagedCreate implements StagedTable, SupportsWrite {
  private final String name;
  private final String uri;
  private final Map<String, String> storage;
  private final JavelinCatalog.NewDataset spec;

  StagedCreate(String name, String uri, Map<String, String> storage, JavelinCatalog.NewDataset spec) {
    this.name = name;
    this.uri = uri;
    this.storage = storage;
    this.spec = spec;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public StructType schema() {
    return spec.sparkSchema();
  }

  @Override
  public Set<TableCapability> capabilities() {
    return EnumSet.of(TableCapability.BATCH_WRITE);
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    return new JavelinWrite.Builder(uri, ConnectorOptions.merge(storage, info.options().asCaseSensitiveMap()),
        info.schema(), true).creating(spec.fileVersion(),
        spec.stableRowIds());
  }

  /** The write made the dataset; a statement that wrote nothing (no write ran) makes it empty. */
  @Override
  public void commitStagedChanges() {
    if (!Table.at(Session.defaultSession().store(uri, storage)).exists()) {
      DistributedWrite.commitFragments(Session.defaultSession().store(uri, storage), 0, spec.schema(),
          spec.fileVersion(), spec.stableRowIds(), java.util.List.of(), ArrowUtils.rootAllocator());
    }
    spec.applyConfig(uri, storage);
  }

  /** Nothing to undo: a failed write commits nothing and its journal removes its files. */
  @Override
  public void abortStagedChanges() {}
}
