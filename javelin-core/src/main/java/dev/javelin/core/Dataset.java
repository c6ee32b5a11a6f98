package dev.javelin.core;

import dev.javelin.common.Progress;
import dev.javelin.common.ProgressListener;
import dev.javelin.common.ProgressStage;
import dev.javelin.core.ScanPlan;
import dev.javelin.core.cluster.ClusterBuilder;
import dev.javelin.core.compaction.ColumnLayoutStats;
import dev.javelin.core.compaction.CompactBuilder;
import dev.javelin.core.compaction.CompactionOptions;
import dev.javelin.core.exceptions.ColumnLengthMismatchException;
import dev.javelin.core.exceptions.InvalidUpdateException;
import dev.javelin.core.exceptions.SchemaEvolutionException;
import dev.javelin.core.expr.Expression;
import dev.javelin.core.internal.SessionState;
import dev.javelin.core.internal.index.DatasetIndexes;
import dev.javelin.core.internal.index.IndexBuild;
import dev.javelin.core.internal.index.IndexSettler;
import dev.javelin.core.internal.index.RowIdIndex;
import dev.javelin.core.internal.scan.OperationMemory;
import dev.javelin.core.internal.scan.Take;
import dev.javelin.core.internal.write.DeleteCommit;
import dev.javelin.core.internal.write.DeleteScan;
import dev.javelin.core.internal.write.FragmentWriter;
import dev.javelin.core.internal.write.SchemaCheck;
import dev.javelin.core.internal.write.SchemaEvolution;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.schema.LanceField;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.index.IndexType;
import dev.javelin.index.IvfPqParams;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.Branches;
import dev.javelin.table.Cleanup;
import dev.javelin.table.CleanupPolicy;
import dev.javelin.table.CleanupResult;
import dev.javelin.table.Commit;
import dev.javelin.table.FeatureFlags;
import dev.javelin.table.Manifest;
import dev.javelin.table.Table;
import dev.javelin.table.TagInfo;
import dev.javelin.table.Tags;
import dev.javelin.table.Transaction;
import dev.javelin.table.exceptions.TableErrors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.roaringbitmap.RoaringBitmap;

/**
 * One version of a Lance dataset. Immutable: writes return a new {@code Dataset} at the version
 * they committed, and this one keeps reading its own version. Holds no open files.
 *
 * <p>The allocator given when opening is used for scans and takes (each gets a child of it named
 * after it, {@code scan <location>} or {@code take <location>}, that it closes, so a leak names
 * its operation). Data to write is read from the caller's vectors and never retained. Caches
 * shared between queries and the thread pools belong to a {@link Session}: the one given when
 * opening, else the {@link Session#defaultSession() default session}.
 *
 * <pre>{@code
 * Dataset ds = Dataset.create(path, reader, WriteParams.defaults(), allocator);
 * ds = ds.append(moreBatches, WriteParams.defaults());
 * try (ArrowReader r = ds.newScan().columns("id", "name").batchSize(1024).build()) { ... }
 * }</pre>
 */
public final class Dataset {
  private final Table table;
  private final Manifest manifest;
  private final BufferAllocator allocator;
  private final Session session;
  // Stable row id -> row, built on the first takeRows of this version.
  private volatile RowIdIndex rowIdIndex;

  private Dataset(Table table, Manifest manifest, BufferAllocator allocator, Session session) {
    this.table = table;
    this.manifest = manifest;
    this.allocator = allocator;
    this.session = session;
  }

  // ---- opening

  /**
   * Opens the newest version.
   *
   * @throws dev.javelin.table.exceptions.VersionNotFoundException if there is no dataset there
   * @throws dev.javelin.table.exceptions.UnsupportedFeatureException if it needs features Javelin lacks
   */
  public static Dataset open(Path path, BufferAllocator allocator) {
    return open(new LocalObjectStore(path), allocator);
  }

  /**
   * Opens the newest version at a URI: a local path or {@code file:} URI, or a remote store's
   * ({@code s3://}, {@code az://}, ...; see {@link #builder(String)} for storage options).
   */
  public static Dataset open(String uri, BufferAllocator allocator) {
    return builder(uri).allocator(allocator).load();
  }

  /**
   * Starts opening the dataset at a URI, with storage options, a version or tag, a session:
   * {@code Dataset.builder("s3://bucket/ds").storageOptions(opts).version(3).load()}.
   */
  public static DatasetBuilder builder(String uri) {
    return new DatasetBuilder(uri);
  }

  // DatasetBuilder's three ways in.
  static Dataset openLatest(ObjectStore store, BufferAllocator allocator, Session session) {
    return open(store, allocator, session);
  }

  static Dataset openVersion(ObjectStore store, long version, BufferAllocator allocator, Session session) {
    Table t = Table.at(store);
    return new Dataset(t, t.load(version), allocator, session);
  }

  static Dataset openTag(ObjectStore store, String tag, BufferAllocator allocator, Session session) {
    return atTag(Table.at(store), tag, allocator, session);
  }

  /**
   * Opens the newest version of the dataset in a store; a branch's own location
   * ({@code <dataset>/tree/<branch>}) opens as that branch.
   */
  public static Dataset open(ObjectStore store, BufferAllocator allocator) {
    return open(store, allocator, Session.defaultSession());
  }

  private static Dataset open(ObjectStore store, BufferAllocator allocator, Session session) {
    Table t = Table.at(store);
    Manifest m = t.latest();
    return new Dataset(m.branch().isPresent() ? Table.ofBranchStore(store, m.branch().get()) : t, m, allocator,
        session);
  }

  /**
   * Opens one version.
   *
   * @throws dev.javelin.table.exceptions.VersionNotFoundException if there is no such version
   */
  public static Dataset open(Path path, long version, BufferAllocator allocator) {
    return open(path, version, allocator, Session.defaultSession());
  }

  private static Dataset open(Path path, long version, BufferAllocator allocator, Session session) {
    return openVersion(new LocalObjectStore(path), version, allocator, session);
  }

  /**
   * Opens one version at a URI, reading only that version's manifest (so a damaged newer one does
   * not stand in the way).
   *
   * @throws dev.javelin.table.exceptions.VersionNotFoundException if there is no such version
   */
  public static Dataset open(String uri, long version, BufferAllocator allocator) {
    return builder(uri).version(version).allocator(allocator).load();
  }

  // ---- opening in a session: the same, reading with the session's allocator

  /** Opens the newest version, in {@code session} (see {@link #open(Path, BufferAllocator)}). */
  public static Dataset open(Path path, Session session) {
    return open(new LocalObjectStore(path), session);
  }

  /** Opens the newest version at a URI, in {@code session}. */
  public static Dataset open(String uri, Session session) {
    return builder(uri).session(session).load();
  }

  /** Opens the newest version of the dataset in a store, in {@code session}. */
  public static Dataset open(ObjectStore store, Session session) {
    return open(store, session.allocator(), session);
  }

  /** Opens one version, in {@code session}. */
  public static Dataset open(Path path, long version, Session session) {
    return open(path, version, session.allocator(), session);
  }

  /** Opens one version at a URI, in {@code session}. */
  public static Dataset open(String uri, long version, Session session) {
    return builder(uri).version(version).session(session).load();
  }

  /** Opens the version a tag names, in {@code session}. */
  public static Dataset open(Path path, String tag, Session session) {
    return atTag(Table.at(new LocalObjectStore(path)), tag, session.allocator(), session);
  }

  /** The same dataset at another version. */
  public Dataset checkout(long version) {
    return new Dataset(table, table.load(version), allocator, session);
  }

  /** The same dataset at its newest version. */
  public Dataset checkoutLatest() {
    return new Dataset(table, table.latest(), allocator, session);
  }

  // ---- writing

  /**
   * Creates a dataset from the batches of a reader (consumed, not closed).
   *
   * @throws dev.javelin.table.exceptions.DatasetExistsException if a dataset exists there
   */
  public static Dataset create(Path path, ArrowReader data, WriteParams params, BufferAllocator allocator) {
    return create(new LocalObjectStore(path), data, params, allocator);
  }

  /**
   * Creates a dataset at a URI (a local path, {@code file:}, or a remote store's, opened with
   * {@link WriteParams#storageOptions()}).
   */
  public static Dataset create(String uri, ArrowReader data, WriteParams params, BufferAllocator allocator) {
    Session session = Session.defaultSession();
    return create(DatasetBuilder.store(uri, params.storageOptions(), session), Batches.of(data), params, allocator,
        session);
  }

  /** Creates a dataset from batches (not closed); the first batch gives the schema. */
  public static Dataset create(Path path, Iterable<VectorSchemaRoot> data, WriteParams params,
      BufferAllocator allocator) {
    return create(new LocalObjectStore(path), Batches.of(data), params, allocator, Session.defaultSession());
  }

  /** Creates a dataset in a store. */
  public static Dataset create(ObjectStore store, ArrowReader data, WriteParams params, BufferAllocator allocator) {
    return create(store, Batches.of(data), params, allocator, Session.defaultSession());
  }

  /** Creates a dataset from the batches of a reader (consumed, not closed), in {@code session}. */
  public static Dataset create(Path path, ArrowReader data, WriteParams params, Session session) {
    return create(new LocalObjectStore(path), data, params, session);
  }

  /** Creates a dataset at a URI, in {@code session} (see {@link #create(String, ArrowReader, WriteParams, BufferAllocator)}). */
  public static Dataset create(String uri, ArrowReader data, WriteParams params, Session session) {
    return create(DatasetBuilder.store(uri, params.storageOptions(), session), data, params, session);
  }

  /** Creates a dataset from batches (not closed), in {@code session}. */
  public static Dataset create(Path path, Iterable<VectorSchemaRoot> data, WriteParams params, Session session) {
    return create(new LocalObjectStore(path), Batches.of(data), params, session.allocator(), session);
  }

  /** Creates a dataset in a store, in {@code session}. */
  public static Dataset create(ObjectStore store, ArrowReader data, WriteParams params, Session session) {
    return create(store, Batches.of(data), params, session.allocator(), session);
  }

  private static Dataset create(ObjectStore store, Batches data, WriteParams params, BufferAllocator allocator,
      Session session) {
    Table t = Table.at(store);
    if (t.exists()) {
      throw TableErrors.exists(store.location());
    }
    LanceFileVersion version = params.fileVersion().orElse(LanceFileVersion.V2_1);
    return new Dataset(t, write(t, 0, null, data, params, version, session), allocator, session);
  }

  /**
   * Appends the reader's batches (consumed, not closed) as new fragments, committed on top of
   * whatever version is newest (concurrent appends rebase; a concurrent overwrite conflicts).
   *
   * @return the dataset at the new version
   * @throws dev.javelin.table.exceptions.SchemaMismatchException if the data's schema differs (nothing is written)
   * @throws dev.javelin.table.exceptions.CommitConflictException if the dataset was overwritten since this version
   */
  public Dataset append(ArrowReader data, WriteParams params) {
    return append(Batches.of(data), params);
  }

  /** Appends batches (not closed). */
  public Dataset append(Iterable<VectorSchemaRoot> data, WriteParams params) {
    return append(Batches.of(data), params);
  }

  private Dataset append(Batches data, WriteParams params) {
    LanceFileVersion version = manifest.fileVersion();
    if (params.fileVersion().isPresent() && params.fileVersion().get() != version) {
      throw new IllegalArgumentException("Cannot append " + params.fileVersion().get() + " files to a dataset of "
          + version + " files: " + location());
    }
    return new Dataset(table, write(table, version(), schema(), data, params, version, session), allocator, session);
  }

  /**
   * Starts a merge insert (upsert) of the reader's rows into this version, keyed by columns given
   * with {@link MergeInsertBuilder#on}: matched rows updated, deleted, kept or refused, unmatched
   * source rows inserted or dropped, unmatched target rows kept or deleted, in one commit (an
   * Update, as lance-core's {@code mergeInsert}). The reader is consumed by
   * {@link MergeInsertBuilder#commit()}, not closed.
   */
  public MergeInsertBuilder mergeInsert(ArrowReader source) {
    return new MergeInsertBuilder(this, source);
  }

  /** Replaces the schema and all rows with the reader's batches (consumed, not closed). */
  public Dataset overwrite(ArrowReader data, WriteParams params) {
    return overwrite(Batches.of(data), params);
  }

  /** Replaces the schema and all rows with the batches (not closed). */
  public Dataset overwrite(Iterable<VectorSchemaRoot> data, WriteParams params) {
    return overwrite(Batches.of(data), params);
  }

  private Dataset overwrite(Batches data, WriteParams params) {
    LanceFileVersion version = params.fileVersion().orElse(manifest.fileVersion());
    return new Dataset(table, write(table, version(), null, data, params, version, session), allocator, session);
  }

  /**
   * Writes the data files, then commits an Append of them when {@code appendTo} (the dataset's
   * schema) is given, else an Overwrite (a create when {@code readVersion} is 0). On any failure
   * the files written are deleted.
   */
  private static Manifest write(Table t, long readVersion, LanceSchema appendTo, Batches data, WriteParams params,
      LanceFileVersion version, Session session) {
    String location = t.location();
    Schema incoming = data.schema();
    LanceSchema schema;
    if (appendTo != null) {
      schema = appendTo;
    } else {
      if (incoming == null) {
        throw new IllegalArgumentException("No batches to take a schema from: " + location);
      }
      schema = LanceSchema.fromArrow(incoming);
    }
    Schema target = schema.toArrow();
    String operation = appendTo != null ? "append" : readVersion == 0 ? "create" : "overwrite";
    FragmentWriter writer = new FragmentWriter(SessionState.of(session).pools(), t.store(), schema, version, params,
        operation);
    boolean committed = false;
    try (ProgressStage progress = ProgressStage.start(params.progress(), operation, "write rows", -1,
        Progress.Unit.ROWS)) {
      int[] order = incoming == null ? null : SchemaCheck.align(target, incoming, location);
      while (data.hasNext()) {
        VectorSchemaRoot batch = data.next();
        if (order == null || !data.fixedSchema()) {
          order = SchemaCheck.align(target, batch.getSchema(), location);
        }
        if (batch.getRowCount() == 0) {
          continue;
        }
        List<FieldVector> vectors = FragmentWriter.inOrder(batch, order);
        // A view in the dataset's column order; it does not own the caller's vectors, so it is
        // never closed.
        writer.write(new VectorSchemaRoot(fieldsOf(vectors), vectors, batch.getRowCount()));
        progress.advance(batch.getRowCount());
      }
      Transaction txn;
      Commit commit;
      if (appendTo == null) {
        txn = Transaction.overwrite(readVersion, schema, writer.finish());
        commit = t.newCommit(txn).fileVersion(version);
        if (readVersion == 0) {
          commit.createOnly();
        }
        if (params.enableStableRowIds()) {
          commit.enableStableRowIds();
        }
      } else {
        txn = Transaction.append(readVersion, writer.finish());
        commit = t.newCommit(txn);
      }
      // From here the commit owns the files: it deletes them if it definitely fails, and keeps
      // them if the outcome is unknown (the new version may reference them).
      committed = true;
      return commit.cleanupOnFailure(writer.writtenKeys()).commit();
    } catch (IOException e) {
      throw new UncheckedIOException("Write failed: " + location, e);
    } finally {
      if (!committed) {
        writer.deleteAll();
      }
    }
  }

  private static List<Field> fieldsOf(List<FieldVector> vectors) {
    List<Field> out = new ArrayList<>();
    for (FieldVector v : vectors) {
      out.add(v.getField());
    }
    return out;
  }

  // ---- reading

  /** This version's number. */
  public long version() {
    return manifest.version();
  }

  /** The schema with Lance field ids. */
  public LanceSchema schema() {
    return manifest.schema();
  }

  /** Live rows in this version (from the manifest's deletion counts; no data or deletion file is read). */
  public long countRows() {
    return manifest.countRows();
  }

  /**
   * Rows for which the filter is TRUE (see {@link dev.javelin.core.expr.Expression}); reads only
   * the filter's columns. A null or blank filter counts every row.
   */
  public long countRows(String filter) {
    return newScan().filter(filter).countRows();
  }

  /** The data file version of this dataset. */
  public LanceFileVersion fileVersion() {
    return manifest.fileVersion();
  }

  /** Every version of the dataset, oldest first (see {@link #versions(String)}). */
  public List<VersionInfo> versions() {
    return VersionInfo.list(table);
  }

  /**
   * Every version of the dataset at a URI, oldest first, without
   * opening the newest: a version whose manifest cannot be read is listed as unreadable
   * ({@link VersionInfo#problem()}) instead of failing the listing.
   *
   * @throws dev.javelin.table.exceptions.VersionNotFoundException if there is no dataset there
   */
  public static List<VersionInfo> versions(String uri) {
    return versions(uri, Map.of());
  }

  /** The versions of the dataset at a URI opened with storage options, oldest first. */
  public static List<VersionInfo> versions(String uri, Map<String, String> storageOptions) {
    Table t = Table.at(DatasetBuilder.store(uri, storageOptions, Session.defaultSession()));
    if (!t.exists()) {
      throw TableErrors.noDataset(t.location());
    }
    return VersionInfo.list(t);
  }

  /** Starts configuring a scan of this version. */
  public ScanBuilder newScan() {
    return new ScanBuilder(this, allocator);
  }

  /**
   * Reads rows by logical offset (0 is the first row a scan returns), in the order given,
   * duplicates allowed. The caller closes the result.
   *
   * @param columns top-level columns, or null for all
   * @throws IndexOutOfBoundsException if an offset is not below {@link #countRows()}
   */
  public VectorSchemaRoot take(long[] offsets, List<String> columns) {
    try (BufferAllocator take = OperationMemory.child(allocator, "take", location())) {
      return OperationMemory.moveTo(Take.take(this, offsets, fields(columns), take), allocator);
    } catch (IOException e) {
      throw new UncheckedIOException("Take failed: " + location(), e);
    }
  }

  /**
   * Reads rows by row id, in the order given, duplicates allowed, as Lance's {@code take_rows}:
   * with stable row ids ({@link #hasStableRowIds()}) by the stable {@code _rowid} a scan returns;
   * without, by row address ({@code fragment_id << 32 | physical offset}, the {@code _rowaddr}
   * and {@code _rowid} scan columns). The caller closes the result.
   *
   * @param columns top-level columns, or null for all
   * @throws dev.javelin.table.exceptions.RowIdNotFoundException (stable row ids) naming the first id that no
   *     fragment holds or whose row is deleted
   * @throws dev.javelin.table.exceptions.RowNotFoundException (addresses) naming the first address whose
   *     fragment is gone, that is past its fragment's end, or that is deleted
   */
  public VectorSchemaRoot takeRows(long[] rowIds, List<String> columns) {
    try (BufferAllocator take = OperationMemory.child(allocator, "take", location())) {
      return OperationMemory.moveTo(hasStableRowIds() ? Take.takeRowIds(this, rowIds, fields(columns), take)
          : Take.takeRows(this, rowIds, fields(columns), take), allocator);
    } catch (IOException e) {
      throw new UncheckedIOException("Take failed: " + location(), e);
    }
  }

  /**
   * Whether rows have stable ids (reader feature flag 2, chosen at create time with
   * {@link WriteParams.Builder#enableStableRowIds}): ids that survive updates and compaction, and
   * row versions ({@link ScanBuilder#withRowCreatedAtVersion()}).
   */
  public boolean hasStableRowIds() {
    return (manifest.readerFeatureFlags() & FeatureFlags.STABLE_ROW_IDS) != 0;
  }

  public RowIdIndex rowIdIndex() {
    RowIdIndex i = rowIdIndex;
    if (i == null) {
      synchronized (this) {
        i = rowIdIndex;
        if (i == null) {
          i = RowIdIndex.build(this);
          rowIdIndex = i;
        }
      }
    }
    return i;
  }

  /**
   * Deletes rows by row address and commits a Delete on the newest version (concurrent deletes of
   * the same fragments are merged; rows a concurrent clustering moved are deleted where they went;
   * a concurrent overwrite, restore, or other rewrite of those fragments is a conflict). Addresses of already deleted rows are ignored; a fragment left without live
   * rows is dropped. If no live row is named nothing is committed and this dataset is returned.
   *
   * @return the dataset at the committed version
   * @throws dev.javelin.table.exceptions.RowNotFoundException if an address names no fragment or is past its end
   * @throws dev.javelin.table.exceptions.CommitConflictException if a concurrent commit makes the delete impossible
   * @see #deleteAddresses(long[]) for the number of rows deleted
   */
  public Dataset deleteRows(long[] rowAddresses) {
    return delete().rows(rowAddresses).commit().dataset();
  }

  /**
   * Starts configuring a delete: {@code delete().where(filter).commit()} or
   * {@code delete().rows(addresses).commit()} (see {@link DeleteBuilder}).
   */
  public DeleteBuilder delete() {
    return new DeleteBuilder(this);
  }

  /**
   * Deletes rows by row address as {@link #deleteRows(long[])} does, and says how many rows this
   * commit deleted.
   */
  public DeleteResult deleteAddresses(long[] rowAddresses) {
    return delete().rows(rowAddresses).commit();
  }

  // DeleteBuilder's two ways to name rows.
  DeleteResult deleteByAddress(long[] rowAddresses) {
    Map<Long, RoaringBitmap> rows = new HashMap<>();
    for (long a : rowAddresses) {
      rows.computeIfAbsent(a >>> 32, k -> new RoaringBitmap()).add((int) (a & 0xFFFFFFFFL));
    }
    return deleteRows(rows, null);
  }

  /**
   * Deletes the rows for which {@code filter} is TRUE (the language of {@link ScanBuilder#filter}),
   * scanning only the columns it names, and commits a Delete recording the filter. Rows a
   * concurrent delete removed are merged as with {@link #deleteRows(long[])}.
   *
   * @return the dataset at the committed version, or this one if no row matched
   * @throws dev.javelin.core.exceptions.UnknownColumnException if the filter names a column the dataset lacks
   * @throws dev.javelin.core.exceptions.ExpressionSyntaxException if the filter does not parse
   * @see #deleteWhere(String) for the number of rows deleted
   */
  public Dataset delete(String filter) {
    return delete().where(filter).commit().dataset();
  }

  /**
   * Deletes the rows a filter selects as {@link #delete(String)} does, and says how many rows this
   * commit deleted (not the change in row count, which concurrent appends also move).
   */
  public DeleteResult deleteWhere(String filter) {
    return delete().where(filter).commit();
  }

  DeleteResult deleteByFilter(String filter) {
    Expression where = Expression.parse(filter);
    Map<Long, RoaringBitmap> rows = DeleteScan.rows(this, where);
    return deleteRows(rows, filter);
  }

  /**
   * Deletes rows given per fragment id as physical offsets, recording {@code predicate} (may be
   * null) in the transaction: the seam for a filter-driven delete.
   */
  DeleteResult deleteRows(Map<Long, RoaringBitmap> rowsByFragment, String predicate) {
    DeleteCommit.Committed c = DeleteCommit.commitCounted(table, manifest, rowsByFragment, predicate, allocator);
    return new DeleteResult(c.manifest() == manifest ? this : new Dataset(table, c.manifest(), allocator, session),
        c.rowsDeleted());
  }

  // ---- updates (implemented in Updater)

  /**
   * Sets columns of the rows for which {@code filter} is TRUE (every row if null or blank) to
   * the values of expressions over the row's current values (the language of
   * {@link ScanBuilder#filter}, e.g. {@code Map.of("price", "price * 2")}), as Lance's update
   * does: the rows are rewritten to new fragments and deleted where they were. Streams batch by
   * batch. A concurrent commit it cannot build on makes it run again on the newest version. With
   * stable row ids the moved rows keep their ids and creation versions.
   *
   * @return the dataset at the committed version and the number of rows updated (this dataset
   *     and 0 if no row matched; nothing is committed then)
   * @throws InvalidUpdateException if no column is assigned, or a column does not exist or is nested
   * @throws dev.javelin.core.exceptions.ExpressionException if an expression does not parse or bind, or
   *     its values cannot be stored in its column
   * @throws dev.javelin.table.exceptions.CommitConflictException if the dataset was overwritten or restored
   *     meanwhile, or conflicts persisted
   */
  public UpdateResult update(String filter, Map<String, String> set) {
    return update().where(filter).set(set).commit();
  }

  /**
   * Starts configuring an update: {@code update().where(f).set("c", "c + 1").commit()}, rows
   * rewritten unless {@link UpdateBuilder#mode} says otherwise (see {@link UpdateBuilder}).
   */
  public UpdateBuilder update() {
    return new UpdateBuilder(this);
  }

  /** Sets columns of every row (see {@link #update(String, Map)}). */
  public UpdateResult update(Map<String, String> set) {
    return update(null, set);
  }

  /**
   * Updates the matching rows ({@code filter} as in {@link #update(String, Map)}, null for all)
   * by writing the assigned columns' new values as data overlays: one small file per touched
   * fragment holding only the matching rows, with no data file rewritten and no row moved.
   * Javelin's extension of the format (see {@code docs/overlays.md}): while any overlay is left,
   * the dataset carries a reader feature flag that Lance itself refuses; a compaction that
   * rewrites the fragments folds them into new data files and clears it. Indices on the assigned
   * columns stop covering the touched fragments. Not supported with stable row ids yet.
   *
   * @throws InvalidUpdateException if there is nothing to assign or a column does not exist
   */
  public UpdateResult updateOverlay(String filter, Map<String, String> set) {
    return update().where(filter).set(set).mode(UpdateMode.OVERLAY).commit();
  }

  /**
   * Rewrites whole columns in place (Lance's {@code REWRITE_COLUMNS} update): every fragment
   * holding a row for which {@code filter} is TRUE (every row if null or blank) gets one new data
   * file with the assigned columns, rows that do not match keeping their values; the columns'
   * old data stays in the older files, tombstoned. Cheaper than {@link #update(String, Map)}
   * when most rows but few columns change. Same exceptions, and
   * {@link dev.javelin.table.exceptions.StableRowIdsUnsupportedException} on a dataset with stable row ids.
   */
  public UpdateResult updateColumns(String filter, Map<String, String> set) {
    return update().where(filter).set(set).mode(UpdateMode.REWRITE_COLUMNS).commit();
  }

  /** Rewrites whole columns for every row (see {@link #updateColumns(String, Map)}). */
  public UpdateResult updateColumns(Map<String, String> set) {
    return updateColumns(null, set);
  }

  /** Reads rows by logical offset, all columns. */
  public VectorSchemaRoot take(long[] offsets) {
    return take(offsets, null);
  }

  // ---- schema evolution (implemented in SchemaEvolution)

  /**
   * Adds columns whose values come from a reader (consumed, not closed), one value per live row
   * in scan order. Every fragment gets one more data file, holding a value for each physical row
   * (a deleted row's slot gets a copy of a neighbour's value, as Lance writes); commits a Merge.
   *
   * @return the dataset at the new version
   * @throws SchemaEvolutionException if a column already exists or is given twice
   * @throws ColumnLengthMismatchException if the reader has more or fewer rows than the dataset
   *     (the files written are deleted)
   * @throws dev.javelin.table.exceptions.CommitConflictException if another writer changed the fragments or
   *     schema since this version
   */
  public Dataset addColumns(ArrowReader values) {
    return at(new SchemaEvolution(this).addFromReader(values));
  }

  /**
   * Adds the columns of {@code newColumns}, computed batch by batch from the {@code reads} columns
   * (may be empty): {@code compute} gets each batch of them (owned by the scan, valid during the
   * call) and returns a new root of the same row count holding the new columns, which Javelin
   * closes. Streams fragment by fragment; commits a Merge.
   *
   * @throws ColumnLengthMismatchException if a result has another row count than its input
   */
  public Dataset addColumns(Schema newColumns, List<String> reads,
      Function<VectorSchemaRoot, VectorSchemaRoot> compute) {
    return at(new SchemaEvolution(this).addFromFunction(newColumns, reads, compute,
        ReadOptions.DEFAULT_BATCH_SIZE));
  }

  /**
   * Adds columns computed by expressions over existing columns, in the language of
   * {@link ScanBuilder#filter} (Lance's {@code addColumns(SqlExpressions)}), e.g.
   * {@code Map.of("double_id", "id * 2")}. Each new column is nullable, of the expression's type
   * (int64, float64, utf8, bool, date32 or timestamp[ns]). Streams fragment by fragment; commits
   * a Merge.
   *
   * @throws SchemaEvolutionException if a column already exists
   * @throws dev.javelin.core.exceptions.ExpressionException if an expression does not parse or bind
   */
  public Dataset addColumns(Map<String, String> expressions) {
    return at(new SchemaEvolution(this).addFromExpressions(expressions));
  }

  /**
   * Adds nullable columns that read as nulls in every row, as metadata only (no data file).
   *
   * @throws SchemaEvolutionException if a column exists, or it or a nested field is not nullable
   */
  public Dataset addNullColumns(List<Field> columns) {
    return at(new SchemaEvolution(this).addNulls(columns));
  }

  /**
   * Drops columns, top-level or nested ({@code a.b}, a struct left empty goes too): metadata only
   * (a Project); their data stays in files older versions use, their field ids are tombstoned in
   * the data files, and data files left with no column leave their fragments.
   *
   * @throws SchemaEvolutionException if a column does not exist, or no column would be left
   */
  public Dataset dropColumns(List<String> columns) {
    return at(new SchemaEvolution(this).drop(columns));
  }

  /** Drops columns (top-level or nested). */
  public Dataset dropColumns(String... columns) {
    return dropColumns(List.of(columns));
  }

  /**
   * Renames columns and changes their nullability (top-level or nested): metadata only (a Project).
   *
   * @throws SchemaEvolutionException if a column does not exist, a rename clashes, or a nullable
   *     column would become non-nullable
   */
  public Dataset alterColumns(List<ColumnAlteration> alterations) {
    return at(new SchemaEvolution(this).alter(alterations));
  }

  /** Renames columns and changes their nullability. */
  public Dataset alterColumns(ColumnAlteration... alterations) {
    return alterColumns(List.of(alterations));
  }

  public Dataset at(Manifest m) {
    return new Dataset(table, m, allocator, session);
  }

  public Table table() {
    return table;
  }

  /**
   * The allocator this dataset reads with: the one given when opening, or its session's. Scans and
   * takes draw on named children of it.
   */
  public BufferAllocator allocator() {
    return allocator;
  }

  /** The session whose caches and thread pools this dataset uses. */
  public Session session() {
    return session;
  }

  // ---- indices (IndexBuild, DatasetIndexes)

  /**
   * Starts configuring an index over a top-level column, built from every row and committed by
   * {@link IndexBuilder#commit()} (a CreateIndex):
   * {@code createIndex("id").btree().name("id_idx").replace().commit()}.
   */
  public IndexBuilder createIndex(String column) {
    return new IndexBuilder(this, column);
  }

  /**
   * Builds an index of a kind over a top-level column, named {@code <column>_idx}, and commits it
   * (see {@link #createIndex(String)}).
   *
   * @throws IllegalArgumentException if the column cannot be indexed
   * @throws dev.javelin.core.exceptions.IndexExistsException if the name is taken
   */
  public Dataset createIndex(String column, IndexType type) {
    return createIndex(column).type(type).commit().dataset();
  }

  /** Builds an index of a kind with a name (see {@link #createIndex(String, IndexType)}). */
  public Dataset createIndex(String column, IndexType type, String name) {
    return createIndex(column).type(type).name(name).commit().dataset();
  }

  // IndexBuilder's commit: params null for a vector index with Lance's defaults.
  Dataset buildIndex(String column, IndexType type, IvfPqParams params, String name, boolean replace,
      ProgressListener progress) {
    Manifest m = params != null
        ? IndexBuild.createVector(this, table, column, params, name, replace, progress, allocator)
        : IndexBuild.create(this, table, column, type, name, replace, progress, allocator);
    return new Dataset(table, m, allocator, session);
  }

  /**
   * Adds the fragments appended since each index was built to it, as Lance's optimize does
   * incrementally: per index name a new index replaces the old entries (delta indices included)
   * under the same name, holding their still-live rows and the new fragments' rows; a vector
   * index's new rows go into its existing IVF partitions, encoded with its PQ codebook (nothing is
   * retrained or re-partitioned, unlike lance-core 7.0.0's default, which may join small
   * partitions). Deleted rows and rows of fragments no longer in the dataset are dropped. Indices
   * that cover every fragment are left alone, and so are kinds Javelin cannot update (reported
   * as skipped). One CreateIndex commit.
   *
   * @return per index what was done, and the dataset at the version committed (this dataset when
   *     no index changed)
   */
  public IndexOptimizeResult optimizeIndices() {
    IndexBuild.Optimized o = IndexBuild.optimize(this, table, allocator);
    return new IndexOptimizeResult(o.manifest() == manifest ? this
        : new Dataset(table, o.manifest(), allocator, session), o.report());
  }

  /** How a scan with this filter would use the indices (see {@link ScanBuilder#explain()}). */
  public ScanPlan explain(String filter) {
    return newScan().filter(filter).explain();
  }

  /**
   * Builds an IVF_PQ index over a {@code fixed_size_list<float32>} column, named
   * {@code <column>_idx} (a CreateIndex); with {@code createIndex(column, IndexType.VECTOR)}
   * Lance's default parameters are used.
   */
  public Dataset createIndex(String column, IvfPqParams params) {
    return createIndex(column).ivfPq(params).commit().dataset();
  }

  /** Builds an IVF_PQ index with a name (see {@link #createIndex(String, IvfPqParams)}). */
  public Dataset createIndex(String column, IvfPqParams params, String name) {
    return createIndex(column).ivfPq(params).name(name).commit().dataset();
  }

  /** Starts a nearest-neighbour query of {@code query} over a vector column. */
  public VectorQuery nearest(String column, float[] query) {
    return new VectorQuery(this, column, query, allocator);
  }

  /** The indices of this version. */
  public List<IndexInfo> indices() {
    return DatasetIndexes.list(this);
  }

  /**
   * Drops an index by name (a CreateIndex that removes it); its files stay for older versions.
   *
   * @throws dev.javelin.core.exceptions.IndexNotFoundException if this version has no index of that name
   */
  public Dataset dropIndex(String name) {
    return new Dataset(table, DatasetIndexes.drop(this, table, name), allocator, session);
  }

  /**
   * This version's config map (Lance's table config: string keys and values, the {@code lance.*}
   * keys reserved by Lance), unmodifiable.
   */
  public Map<String, String> config() {
    return manifest.config();
  }

  /**
   * Starts a change of the config map: {@code updateConfig().set(k, v).remove(k2).commit()},
   * one commit (see {@link UpdateConfigBuilder}).
   */
  public UpdateConfigBuilder updateConfig() {
    return new UpdateConfigBuilder(this);
  }

  /** The manifest of this version (fragments, flags, config). */
  public Manifest manifest() {
    return manifest;
  }

  /** Where the dataset is. */
  public String location() {
    return table.location();
  }

  // ---- tags, restore, cleanup (the work is in dev.javelin.table: Tags, Transaction.restore, Cleanup)

  /**
   * Opens the version a tag names.
   *
   * @throws dev.javelin.table.exceptions.TagNotFoundException if there is no such tag
   */
  public static Dataset open(Path path, String tag, BufferAllocator allocator) {
    return atTag(Table.at(new LocalObjectStore(path)), tag, allocator, Session.defaultSession());
  }

  /** The same dataset at the version a tag names (on the branch the tag names). */
  public Dataset checkout(String tag) {
    return atTag(table, tag, allocator, session);
  }

  private static Dataset atTag(Table t, String tag, BufferAllocator allocator, Session session) {
    Manifest m = Tags.of(t).load(tag);
    return new Dataset(t.branch(Tags.of(t).get(tag).branch().orElse(null)), m, allocator, session);
  }

  /** The dataset's tags: list, create, update, delete. */
  public Tags tags() {
    return Tags.of(table);
  }

  /**
   * Makes this version the newest again: commits a Restore, whose version has this version's
   * content. Returns the dataset at the new version.
   */
  public Dataset restore() {
    // The newest version's number from the listing, not its manifest: restoring is how a dataset
    // whose newest manifest is unreadable is recovered.
    Transaction txn = Transaction.restore(table.listVersions().lastKey(), manifest);
    return new Dataset(table, table.newCommit(txn).commit(), allocator, session);
  }

  // ---- shallow clones and branches (the work is in dev.javelin.table: Table.shallowClone, Branches)

  /**
   * Shallow-clones this version into a new dataset at {@code target}: its first version (numbered
   * as this one) has this version's rows, schema and indices, and refers to this dataset's files
   * through a base path (reader feature 16) instead of copying them. Writes to the clone put new
   * files under {@code target}; this dataset is never written. Cleaning up this dataset may
   * remove files the clone still uses (a dataset does not know its clones, as in Lance).
   *
   * @return the clone
   * @throws dev.javelin.table.exceptions.DatasetExistsException if a dataset exists at {@code target}
   */
  public Dataset shallowClone(Path target) {
    return shallowClone(target, version());
  }

  /** Shallow-clones another version of this dataset (or branch) to {@code target}. */
  public Dataset shallowClone(Path target, long version) {
    Table t = Table.at(new LocalObjectStore(target));
    return new Dataset(t, table.shallowClone(t, version, null), allocator, session);
  }

  /**
   * Shallow-clones the version a tag names (on whichever branch it names) to {@code target}.
   *
   * @throws dev.javelin.table.exceptions.TagNotFoundException if there is no such tag
   */
  public Dataset shallowClone(Path target, String tag) {
    TagInfo info = tags().get(tag);
    Table t = Table.at(new LocalObjectStore(target));
    return new Dataset(t, table.branch(info.branch().orElse(null)).shallowClone(t, info.version(), null), allocator,
        session);
  }

  /** This dataset's branch; empty on the main branch. */
  public Optional<String> branch() {
    return table.branch();
  }

  /** The dataset's branches: list, get, delete (create with {@link #createBranch}). */
  public Branches branches() {
    return Branches.of(table);
  }

  /**
   * Creates a branch from this version (of this dataset's branch), as Lance's {@code createBranch}:
   * the branch's first version has this version's number and content, under
   * {@code tree/<name>/}, referring to this branch's files through a base path.
   *
   * @return the branch at its first version
   * @throws dev.javelin.table.exceptions.InvalidBranchNameException if Lance would not accept the name
   * @throws dev.javelin.table.exceptions.BranchExistsException if the branch exists
   */
  public Dataset createBranch(String name) {
    return createBranch(name, version());
  }

  /** Creates a branch from another version of this dataset's branch. */
  public Dataset createBranch(String name, long version) {
    Manifest first = branches().create(name, table, version);
    return new Dataset(table.branch(name), first, allocator, session);
  }

  /** Creates a branch from the version a tag names (on whichever branch it names). */
  public Dataset createBranch(String name, String tag) {
    TagInfo info = tags().get(tag);
    Manifest first = branches().create(name, table.branch(info.branch().orElse(null)), info.version());
    return new Dataset(table.branch(name), first, allocator, session);
  }

  /**
   * The newest version of a branch of this dataset; {@code "main"} (or null) is the main branch.
   *
   * @throws dev.javelin.table.exceptions.BranchNotFoundException if there is no such branch
   */
  public Dataset checkoutBranch(String name) {
    Table t = name == null || name.equals("main") ? table.main() : branches().open(name);
    return new Dataset(t, t.latest(), allocator, session);
  }

  /** One version of a branch of this dataset ({@code "main"} or null: the main branch). */
  public Dataset checkoutBranch(String name, long version) {
    Table t = name == null || name.equals("main") ? table.main() : branches().open(name);
    return new Dataset(t, t.load(version), allocator, session);
  }

  /** Removes old versions and the files no kept version uses (see {@link CleanupPolicy}). */
  public CleanupResult cleanup(CleanupPolicy policy) {
    return Cleanup.run(table, policy);
  }

  /**
   * The store holding the dataset's objects (a local directory, a bucket prefix), whose
   * {@link ObjectStore#requests()} count what reading and writing this dataset asked of it.
   */
  public ObjectStore store() {
    return table.store();
  }

  // ---- compaction (implemented in dev.javelin.core.compaction)

  /**
   * Compacts: rewrites small or deletion-heavy neighbouring fragments into larger ones and
   * repacks fragments whose columns are spread over too many data files (see
   * {@link dev.javelin.core.compaction.CompactionOptions}). Commits up to three versions
   * (ReserveFragments, Rewrite, DataReplacement); returns the dataset at the last one, or this
   * one when there is nothing to do.
   */
  public Dataset compact(CompactionOptions options) {
    return compact().options(options).commit().dataset();
  }

  /**
   * Starts configuring a compaction ({@link CompactBuilder}):
   * {@code compact().maxDataFilesPerFragment(2).commit()} returns what was committed with the
   * dataset at the last version (see {@link #compact(CompactionOptions)}).
   */
  public CompactBuilder compact() {
    return new CompactBuilder(this);
  }

  /**
   * Starts configuring a clustering of this version: a rewrite that orders rows by key columns
   * (a sort or a Z-order/Hilbert curve) and cuts them into new fragments; see
   * {@link dev.javelin.core.cluster.ClusterBuilder}.
   */
  public ClusterBuilder cluster() {
    return new ClusterBuilder(this);
  }

  /**
   * Remaps every index that answers for rows moved by reordered rewrites ({@link #cluster()})
   * through their row maps onto the destination fragments, then drops the stable partition
   * transitions no index answers through any more, and the {@code __lance_stable_partition} entry
   * when none is left: afterwards queries need no row map, and lance-core 7.0.0 sees no unknown
   * entry (see docs/stable-partition-lance-compat.md). Settles the newest version, in one commit;
   * starts again on the newest version when a concurrent rewrite conflicts (up to 3 attempts, then
   * the {@link dev.javelin.table.exceptions.CommitConflictException} is thrown). Memory: eight bytes per row
   * of the rewrites' source fragments while an index is remapped.
   *
   * @return what was remapped and dropped, with the dataset at the version committed
   */
  public IndexSettleResult settleIndices() {
    return IndexSettler.settle(this);
  }

  /** As {@link #settleIndices()}, telling {@code progress} as each index is remapped. */
  public IndexSettleResult settleIndices(ProgressListener progress) {
    return IndexSettler.settle(this, progress);
  }

  /** How each fragment's columns are spread over data files, from the manifest alone. */
  public ColumnLayoutStats columnLayoutStats() {
    return ColumnLayoutStats.of(manifest);
  }

  public List<LanceField> fields(List<String> columns) {
    return ScanBuilder.resolve(schema().fields(), columns, location());
  }

  /** Batches from a reader or an iterable, with the schema when it is known up front. */
  private abstract static class Batches implements Iterator<VectorSchemaRoot> {
    abstract Schema schema();

    abstract boolean fixedSchema();

    static Batches of(ArrowReader reader) {
      return new Batches() {
        private Boolean ready;

        @Override
        Schema schema() {
          try {
            return reader.getVectorSchemaRoot().getSchema();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }

        @Override
        boolean fixedSchema() {
          return true;
        }

        @Override
        public boolean hasNext() {
          if (ready == null) {
            try {
              ready = reader.loadNextBatch();
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          }
          return ready;
        }

        @Override
        public VectorSchemaRoot next() {
          if (!hasNext()) {
            throw new NoSuchElementException();
          }
          ready = null;
          try {
            return reader.getVectorSchemaRoot();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      };
    }

    static Batches of(Iterable<VectorSchemaRoot> batches) {
      Iterator<VectorSchemaRoot> it = batches.iterator();
      List<VectorSchemaRoot> peeked = new ArrayList<>();
      if (it.hasNext()) {
        peeked.add(it.next());
      }
      return new Batches() {
        @Override
        Schema schema() {
          return peeked.isEmpty() ? null : peeked.get(0).getSchema();
        }

        @Override
        boolean fixedSchema() {
          return false;
        }

        @Override
        public boolean hasNext() {
          return !peeked.isEmpty() || it.hasNext();
        }

        @Override
        public VectorSchemaRoot next() {
          return peeked.isEmpty() ? it.next() : peeked.remove(0);
        }
      };
    }
  }
}
