package dev.javelin.core;

import dev.javelin.format.ColumnNotFoundException;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.schema.LanceField;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;

/** Configures a scan of one dataset version; {@link #build()} starts it. */
public final class ScanBuilder {
  private final Dataset dataset;
  private final BufferAllocator allocator;
  private List<String> columns;
  private int batchSize = ReadOptions.DEFAULT_BATCH_SIZE;
  private boolean withRowId;
  private boolean withRowAddress;

  ScanBuilder(Dataset dataset, BufferAllocator allocator) {
    this.dataset = dataset;
    this.allocator = allocator;
  }

  /** The top-level columns to read, in this order (default: all, in schema order). */
  public ScanBuilder columns(List<String> names) {
    this.columns = List.copyOf(names);
    return this;
  }

  public ScanBuilder columns(String... names) {
    return columns(List.of(names));
  }

  /** Most rows per batch (default 8192); a batch never spans two fragments. */
  public ScanBuilder batchSize(int rows) {
    if (rows <= 0) {
      throw new IllegalArgumentException("batchSize must be positive: " + rows);
    }
    this.batchSize = rows;
    return this;
  }

  /**
   * Adds a {@code _rowid} column (non-null UInt64) after the data columns, as Lance's
   * {@code with_row_id}. Without stable row ids it equals the row address.
   */
  public ScanBuilder withRowId() {
    this.withRowId = true;
    return this;
  }

  /**
   * Adds a {@code _rowaddr} column (non-null UInt64, {@code fragment_id << 32 | physical offset})
   * after the data columns and {@code _rowid}, as Lance's {@code with_row_address}.
   */
  public ScanBuilder withRowAddress() {
    this.withRowAddress = true;
    return this;
  }

  /**
   * Starts the scan: every live row of every fragment, in fragment order. The reader owns its root;
   * the caller closes the reader.
   *
   * @throws ColumnNotFoundException if a column is not in the dataset
   */
  public ArrowReader build() {
    if (withRowId && (dataset.manifest().readerFeatureFlags() & dev.javelin.table.FeatureFlags.STABLE_ROW_IDS) != 0) {
      throw new UnsupportedOperationException("_rowid of a dataset with stable row ids is not supported yet: "
          + dataset.location());
    }
    return new DatasetReader(dataset.store(), dataset.location(), dataset.manifest().fragments(),
        dataset.fields(columns), batchSize, withRowId, withRowAddress, allocator);
  }

  static List<LanceField> resolve(List<LanceField> all, List<String> names, String location) {
    if (names == null) {
      return all;
    }
    List<LanceField> out = new ArrayList<>();
    for (String n : names) {
      LanceField found = null;
      for (LanceField f : all) {
        if (f.name().equals(n)) {
          found = f;
        }
      }
      if (found == null) {
        throw new ColumnNotFoundException(location, n);
      }
      out.add(found);
    }
    return out;
  }
}
