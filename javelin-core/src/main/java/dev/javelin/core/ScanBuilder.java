package dev.javelin.core;

import dev.javelin.format.ColumnNotFoundException;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.schema.LanceField;
import dev.javelin.core.expr.BoundExpression;
import dev.javelin.core.expr.Expression;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/** Configures a scan of one dataset version; {@link #build()} starts it. */
public final class ScanBuilder {
  private final Dataset dataset;
  private final BufferAllocator allocator;
  private List<String> columns;
  private int batchSize = ReadOptions.DEFAULT_BATCH_SIZE;
  private Expression filter;
  private long offset;
  private long limit = -1;
  private boolean withRowId;
  private boolean withRowAddress;
  private List<dev.javelin.table.Fragment> fragments;

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

  /** Reads only these fragments of the dataset, in this order (default: all, in manifest order). */
  public ScanBuilder fragments(List<dev.javelin.table.Fragment> only) {
    this.fragments = List.copyOf(only);
    return this;
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
   * Keeps only rows for which the filter is TRUE (see {@link Expression} for the language); null
   * or blank removes the filter. Columns the filter uses are read but only returned when asked
   * for. Checked against the schema when the scan starts.
   *
   * @throws dev.javelin.core.expr.ExpressionSyntaxException if the text does not parse
   */
  public ScanBuilder filter(String sql) {
    this.filter = sql == null || sql.isBlank() ? null : Expression.parse(sql);
    return this;
  }

  /** Keeps only rows for which the (parsed) filter is TRUE; null removes the filter. */
  public ScanBuilder filter(Expression expression) {
    this.filter = expression;
    return this;
  }

  /** Skips this many rows (after the filter, in scan order) before returning any (default 0). */
  public ScanBuilder offset(long rows) {
    if (rows < 0) {
      throw new IllegalArgumentException("offset must not be negative: " + rows);
    }
    this.offset = rows;
    return this;
  }

  /** Returns at most this many rows (after the filter and offset); default: no limit. */
  public ScanBuilder limit(long rows) {
    if (rows < 0) {
      throw new IllegalArgumentException("limit must not be negative: " + rows);
    }
    this.limit = rows;
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
   * Starts the scan: every row of every fragment, in fragment order, then the filter, offset and
   * limit. The reader owns its root; the caller closes the reader.
   *
   * @throws ColumnNotFoundException if a column is not in the dataset
   * @throws dev.javelin.core.expr.UnknownColumnException if the filter names an unknown column
   * @throws dev.javelin.core.expr.ExpressionTypeException if the filter's types do not fit
   */
  public ArrowReader build() {
    if (withRowId && (dataset.manifest().readerFeatureFlags() & dev.javelin.table.FeatureFlags.STABLE_ROW_IDS) != 0) {
      throw new UnsupportedOperationException("_rowid of a dataset with stable row ids is not supported yet: "
          + dataset.location());
    }
    List<LanceField> out = dataset.fields(columns);
    if (filter == null && offset == 0 && limit < 0) {
      return reader(out, withRowId, withRowAddress);
    }
    BoundExpression bound = filter == null ? null : filter.bindFilter(dataset.schema());
    List<LanceField> read = new ArrayList<>(out);
    if (bound != null) {
      for (LanceField f : dataset.fields(bound.columns())) {
        if (!read.contains(f)) {
          read.add(f);
        }
      }
    }
    // The inner reader puts _rowid/_rowaddr after every field it reads, filter-only ones included.
    ArrowReader inner = reader(read, withRowId, withRowAddress);
    int meta = (withRowId ? 1 : 0) + (withRowAddress ? 1 : 0);
    int[] outputs = new int[out.size() + meta];
    for (int i = 0; i < out.size(); i++) {
      outputs[i] = i;
    }
    for (int i = 0; i < meta; i++) {
      outputs[out.size() + i] = read.size() + i;
    }
    try {
      return new FilteredReader(inner, bound, outputs, offset, limit, allocator);
    } catch (IOException | RuntimeException e) {
      closeQuietly(inner, e);
      throw asUnchecked(e);
    }
  }

  /**
   * How many rows {@link #build()} would return; reads only the filter's columns (none when there
   * is no filter: the manifest's counts suffice).
   */
  public long countRows() {
    BoundExpression bound = filter == null ? null : filter.bindFilter(dataset.schema());
    long total;
    if (bound == null || bound.columns().isEmpty()) {
      total = fragments == null ? dataset.countRows()
          : fragments.stream().mapToLong(dev.javelin.table.Fragment::liveRows).sum();
      if (bound != null && total > 0 && constantFilterFails(bound)) {
        total = 0;
      }
    } else {
      try (FilteredReader r = new FilteredReader(reader(dataset.fields(bound.columns()), false, false), bound,
          new int[0], 0, -1, allocator)) {
        total = r.count();
      } catch (IOException e) {
        throw new UncheckedIOException("Count failed: " + dataset.location(), e);
      }
    }
    long after = Math.max(0, total - offset);
    return limit < 0 ? after : Math.min(after, limit);
  }

  // A filter naming no column is the same for every row: try it on one empty-columned row.
  private boolean constantFilterFails(BoundExpression bound) {
    try (VectorSchemaRoot one = new VectorSchemaRoot(List.of(), List.of(), 1)) {
      return bound.select(one).length == 0;
    }
  }

  private ArrowReader reader(List<LanceField> fields, boolean rowId, boolean rowAddress) {
    return new DatasetReader(dataset.store(), dataset.location(),
        fragments != null ? fragments : dataset.manifest().fragments(),
        fields, batchSize, rowId, rowAddress, allocator);
  }

  private static void closeQuietly(ArrowReader r, Exception cause) {
    try {
      r.close();
    } catch (IOException | RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  private static RuntimeException asUnchecked(Exception e) {
    return e instanceof RuntimeException re ? re : new UncheckedIOException((IOException) e);
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
