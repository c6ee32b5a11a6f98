package dev.javelin.core;

import dev.javelin.core.ScanPlan;
import dev.javelin.core.expr.BoundExpression;
import dev.javelin.core.expr.Expression;
import dev.javelin.core.internal.SessionState;
import dev.javelin.core.internal.scan.DatasetReader;
import dev.javelin.core.internal.scan.FilteredReader;
import dev.javelin.core.internal.scan.IndexedScan;
import dev.javelin.core.internal.scan.OperationMemory;
import dev.javelin.core.internal.scan.ParallelScanReader;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.exceptions.ColumnNotFoundException;
import dev.javelin.format.schema.LanceField;
import dev.javelin.io.RequestCounters;
import dev.javelin.io.RequestCounts;
import dev.javelin.table.Fragment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
  private boolean useIndex = true;
  private boolean withRowLastUpdatedAtVersion;
  private boolean withRowCreatedAtVersion;
  private List<Fragment> fragments;
  private int parallelism = Runtime.getRuntime().availableProcessors();

  ScanBuilder(Dataset dataset, BufferAllocator allocator) {
    this.dataset = dataset;
    this.allocator = allocator;
  }

  /**
   * The top-level columns to read, in this order (default: all, in schema order). The meta
   * columns {@code _rowid}, {@code _rowaddr}, {@code _row_last_updated_at_version} and
   * {@code _row_created_at_version} may be named too, as in Lance: they then come where named.
   */
  public ScanBuilder columns(List<String> names) {
    this.columns = List.copyOf(names);
    return this;
  }

  public ScanBuilder columns(String... names) {
    return columns(List.of(names));
  }

  /** Reads only these fragments of the dataset, in this order (default: all, in manifest order). */
  public ScanBuilder fragments(List<Fragment> only) {
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
   * How many threads decode the scan's fragments (default: the available processors); 1 decodes
   * on the caller's thread. Batches come in the same order with the same rows either way; at most
   * a few batches per thread are decoded ahead of the caller.
   */
  public ScanBuilder parallelism(int threads) {
    if (threads <= 0) {
      throw new IllegalArgumentException("parallelism must be positive: " + threads);
    }
    this.parallelism = threads;
    return this;
  }

  /**
   * Keeps only rows for which the filter is TRUE (see {@link Expression} for the language); null
   * or blank removes the filter. Columns the filter uses are read but only returned when asked
   * for. Checked against the schema when the scan starts.
   *
   * @throws dev.javelin.core.exceptions.ExpressionSyntaxException if the text does not parse
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
   * Whether BTree indices may answer the filter (default true, as Lance's {@code use_scalar_index});
   * results are the same either way.
   */
  public ScanBuilder useIndex(boolean use) {
    this.useIndex = use;
    return this;
  }

  /**
   * Adds a {@code _rowid} column (non-null UInt64) after the data columns, as Lance's
   * {@code with_row_id}: the stable row id when the dataset has stable row ids, else the row
   * address.
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
   * Adds a {@code _row_last_updated_at_version} column (non-null UInt64): the dataset version
   * that last wrote each row. Columns come in the order {@code _rowid}, {@code _rowaddr},
   * {@code _row_last_updated_at_version}, {@code _row_created_at_version}, as in Lance.
   * Needs stable row ids: {@link #build()} refuses it otherwise (Lance 7.0.0 answers 1 there).
   */
  public ScanBuilder withRowLastUpdatedAtVersion() {
    this.withRowLastUpdatedAtVersion = true;
    return this;
  }

  /**
   * Adds a {@code _row_created_at_version} column (non-null UInt64): the dataset version that
   * first wrote each row (an update keeps it). Needs stable row ids, as
   * {@link #withRowLastUpdatedAtVersion()}.
   */
  public ScanBuilder withRowCreatedAtVersion() {
    this.withRowCreatedAtVersion = true;
    return this;
  }

  /**
   * Starts the scan: every row of every fragment, in fragment order, then the filter, offset and
   * limit. The reader owns its root; the caller closes the reader. It reads with a child of the
   * dataset's allocator named {@code scan <location>}, closed with the reader (which throws if
   * memory of it is still held then, naming it).
   *
   * @throws ColumnNotFoundException if a column is not in the dataset
   * @throws dev.javelin.core.exceptions.UnknownColumnException if the filter names an unknown column
   * @throws dev.javelin.core.exceptions.ExpressionTypeException if the filter's types do not fit
   * @throws UnsupportedOperationException if a row version column is asked of a dataset without
   *     stable row ids
   */
  public ArrowReader build() {
    BufferAllocator scan = OperationMemory.child(allocator, "scan", dataset.location());
    try {
      return OperationMemory.closingWith(open(scan), scan);
    } catch (RuntimeException | Error e) {
      try {
        scan.close();
      } catch (RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  // The scan's reader, reading with `allocator`.
  private ArrowReader open(BufferAllocator allocator) {
    // Meta columns named in columns() come where they are named (as in Lance); those asked for
    // with with*() and not named follow the data columns, in the order the with*() javadoc gives.
    List<String> dataNames = columns;
    List<DatasetReader.Meta> metas = new ArrayList<>();
    if (columns != null) {
      dataNames = new ArrayList<>();
      for (String n : columns) {
        DatasetReader.Meta m = metaNamed(n);
        if (m == null) {
          dataNames.add(n);
        } else if (metas.contains(m)) {
          throw new IllegalArgumentException("Column " + n + " is asked for twice: " + dataset.location());
        } else {
          metas.add(m);
        }
      }
    }
    List<DatasetReader.Meta> asked = DatasetReader.metas(withRowId, withRowAddress);
    if (withRowLastUpdatedAtVersion) {
      asked.add(DatasetReader.Meta.LAST_UPDATED_AT);
    }
    if (withRowCreatedAtVersion) {
      asked.add(DatasetReader.Meta.CREATED_AT);
    }
    for (DatasetReader.Meta m : asked) {
      if (!metas.contains(m)) {
        metas.add(m);
      }
    }
    for (DatasetReader.Meta m : metas) {
      if ((m == DatasetReader.Meta.LAST_UPDATED_AT || m == DatasetReader.Meta.CREATED_AT)
          && !dataset.hasStableRowIds()) {
        throw new UnsupportedOperationException("Row versions (" + m.column + ") are only recorded in datasets with"
            + " stable row ids; version " + dataset.version() + " has none: " + dataset.location());
      }
    }
    List<LanceField> out = dataset.fields(dataNames);
    BoundExpression bound = filter == null ? null : filter.bindFilter(dataset.schema());
    List<LanceField> read = new ArrayList<>(out);
    if (bound != null) {
      for (LanceField f : dataset.fields(bound.columns())) {
        if (!read.contains(f)) {
          read.add(f);
        }
      }
    }
    // The inner reader puts the meta columns after every field it reads, filter-only ones included.
    int[] outputs = new int[out.size() + metas.size()];
    int next = 0;
    int data = 0;
    if (columns != null) {
      for (String n : columns) {
        DatasetReader.Meta m = metaNamed(n);
        outputs[next++] = m == null ? data++ : read.size() + metas.indexOf(m);
      }
    } else {
      for (; data < out.size(); data++) {
        outputs[next++] = data;
      }
    }
    for (int i = next - data; i < metas.size(); i++) {
      outputs[next++] = read.size() + i;
    }
    boolean inReaderOrder = read.size() == out.size();
    for (int i = 0; i < outputs.length; i++) {
      inReaderOrder &= outputs[i] == i;
    }
    if (bound == null && offset == 0 && limit < 0 && inReaderOrder) {
      return reader(out, metas, null, allocator);
    }
    IndexedScan indexed = bound == null ? null : indexed(allocator);
    if (bound != null && indexed == null && parallelism > 1 && outputs.length > 0) {
      // The filter runs on the decoding threads; only the offset and limit are left to apply.
      ArrowReader filtered = withSession(new ParallelScanReader(dataset.store(), dataset.location(), fragmentsToScan(),
          read, batchSize, metas, dataset.hasStableRowIds(), parallelism, bound, outputs, allocator));
      if (offset == 0 && limit < 0) {
        return filtered;
      }
      int[] all = new int[outputs.length];
      for (int i = 0; i < all.length; i++) {
        all[i] = i;
      }
      try {
        return new FilteredReader(filtered, null, all, offset, limit, allocator);
      } catch (IOException | RuntimeException e) {
        closeQuietly(filtered, e);
        throw asUnchecked(e);
      }
    }
    ArrowReader inner = reader(read, metas, indexed, allocator);
    try {
      return new FilteredReader(inner, bound, outputs, offset, limit, allocator);
    } catch (IOException | RuntimeException e) {
      closeQuietly(inner, e);
      throw asUnchecked(e);
    }
  }

  // The meta column a name in columns() stands for, or null: a data column of that name wins.
  private DatasetReader.Meta metaNamed(String name) {
    for (DatasetReader.Meta m : DatasetReader.Meta.values()) {
      if (m.column.equals(name)) {
        for (LanceField f : dataset.schema().fields()) {
          if (f.name().equals(name)) {
            return null;
          }
        }
        return m;
      }
    }
    return null;
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
          : fragments.stream().mapToLong(Fragment::liveRows).sum();
      if (bound != null && total > 0 && constantFilterFails(bound)) {
        total = 0;
      }
    } else {
      try (BufferAllocator scan = OperationMemory.child(allocator, "scan", dataset.location());
          FilteredReader r = new FilteredReader(reader(dataset.fields(bound.columns()), List.of(), indexed(scan), scan),
              bound, new int[0], 0, -1, scan)) {
        total = r.count();
      } catch (IOException e) {
        throw new UncheckedIOException("Count failed: " + dataset.location(), e);
      }
    }
    long after = Math.max(0, total - offset);
    return limit < 0 ? after : Math.min(after, limit);
  }

  /**
   * How {@link #build()} would read the rows: which BTree indices answer which parts of the filter
   * and for which fragments (the index searches run; no data is read).
   *
   * @throws dev.javelin.core.exceptions.UnknownColumnException if the filter names an unknown column
   */
  public ScanPlan explain() {
    if (filter != null) {
      filter.bindFilter(dataset.schema());
    }
    return useIndex ? IndexedScan.plan(dataset, filter, allocator).plan()
        : IndexedScan.unindexed(dataset, filter, "indices turned off").plan();
  }

  /**
   * Runs the scan as {@link #build()} would, dropping the rows, and says what it did: the plan,
   * rows and batches returned, time, and the requests sent to the dataset's store
   * ({@link QueryAnalysis}), as Lance's {@code analyze_plan} does.
   */
  public QueryAnalysis<ScanPlan> analyze() {
    ScanPlan plan = explain();
    RequestCounters counters = dataset.store().requests();
    RequestCounts before = counters.snapshot();
    long start = System.nanoTime();
    long rows = 0;
    long batches = 0;
    try (ArrowReader r = build()) {
      while (r.loadNextBatch()) {
        rows += r.getVectorSchemaRoot().getRowCount();
        batches++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Scan failed: " + dataset.location(), e);
    }
    return new QueryAnalysis<>(plan, rows, batches, Duration.ofNanos(System.nanoTime() - start),
        counters.snapshot().minus(before));
  }

  // The index plan for the filter (already bound), or null when no index helps.
  private IndexedScan indexed(BufferAllocator allocator) {
    if (!useIndex) {
      return null;
    }
    IndexedScan s = IndexedScan.plan(dataset, filter, allocator);
    return s.usesIndex() ? s : null;
  }

  // A filter naming no column is the same for every row: try it on one empty-columned row.
  private boolean constantFilterFails(BoundExpression bound) {
    try (VectorSchemaRoot one = new VectorSchemaRoot(List.of(), List.of(), 1)) {
      return bound.select(one).length == 0;
    }
  }

  private ArrowReader reader(List<LanceField> fields, List<DatasetReader.Meta> metas, IndexedScan indexed,
      BufferAllocator allocator) {
    // Index plans are only made for datasets without stable row ids, where _rowid is the address;
    // the indexed reader appends _rowid then _rowaddr. A scan of chosen fragments reads only
    // their candidate rows (a distributed reader scans one fragment per task).
    boolean rowId = metas.contains(DatasetReader.Meta.ROW_ID);
    boolean rowAddr = metas.contains(DatasetReader.Meta.ROW_ADDR);
    if (indexed != null && metas.equals(DatasetReader.metas(rowId, rowAddr))) {
      return indexed.reader(dataset, fragments, fields, rowId, rowAddr, batchSize, allocator);
    }
    List<Fragment> frags = fragmentsToScan();
    if (parallelism > 1) {
      return withSession(new ParallelScanReader(dataset.store(), dataset.location(), frags,
          fields, batchSize, metas, dataset.hasStableRowIds(), parallelism, allocator));
    }
    return new DatasetReader(dataset.store(), dataset.location(), frags,
        fields, batchSize, metas, dataset.hasStableRowIds(), allocator)
        .dataFiles(SessionState.of(dataset).dataFiles());
  }

  // A parallel scan opens data files through the session's metadata cache, and from a remote
  // store fetches the next fragments ahead on the session's I/O threads.
  private ParallelScanReader withSession(ParallelScanReader r) {
    SessionState state = SessionState.of(dataset);
    r.dataFiles(state.dataFiles());
    if (dataset.store().remote()) {
      r.lookAhead(state.pools().io());
    }
    return r;
  }

  private List<Fragment> fragmentsToScan() {
    return fragments != null ? fragments : dataset.manifest().fragments();
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
    // By name through a map when many are asked for, so resolving every column of a wide schema
    // stays linear; a few names are looked up directly.
    Map<String, LanceField> byName = null;
    if (names.size() > 8) {
      byName = new HashMap<>(all.size() * 2);
      for (LanceField f : all) {
        byName.put(f.name(), f);
      }
    }
    for (String n : names) {
      LanceField found = null;
      if (byName != null) {
        found = byName.get(n);
      } else {
        for (LanceField f : all) {
          if (f.name().equals(n)) {
            found = f;
          }
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
