package dev.javelin.core;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.schema.LanceField;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.table.Commit;
import dev.javelin.table.Manifest;
import dev.javelin.table.OperationKind;
import dev.javelin.table.Table;
import dev.javelin.table.TableErrors;
import dev.javelin.table.Transaction;
import dev.javelin.table.io.LocalObjectStore;
import dev.javelin.table.io.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One version of a Lance dataset. Immutable: writes return a new {@code Dataset} at the version
 * they committed, and this one keeps reading its own version. Holds no open files.
 *
 * <p>The allocator given when opening is used for scans and takes (each scan gets a child of it
 * that it closes). Data to write is read from the caller's vectors and never retained.
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

  private Dataset(Table table, Manifest manifest, BufferAllocator allocator) {
    this.table = table;
    this.manifest = manifest;
    this.allocator = allocator;
  }

  // ---- opening

  /**
   * Opens the newest version.
   *
   * @throws dev.javelin.table.VersionNotFoundException if there is no dataset there
   * @throws dev.javelin.table.UnsupportedFeatureException if it needs features Javelin lacks
   */
  public static Dataset open(Path path, BufferAllocator allocator) {
    return open(new LocalObjectStore(path), allocator);
  }

  /** Opens the newest version at a local path or {@code file:} URI. */
  public static Dataset open(String uri, BufferAllocator allocator) {
    return open(toPath(uri), allocator);
  }

  /** Opens the newest version of the dataset in a store. */
  public static Dataset open(ObjectStore store, BufferAllocator allocator) {
    Table t = Table.at(store);
    return new Dataset(t, t.latest(), allocator);
  }

  /**
   * Opens one version.
   *
   * @throws dev.javelin.table.VersionNotFoundException if there is no such version
   */
  public static Dataset open(Path path, long version, BufferAllocator allocator) {
    Table t = Table.at(new LocalObjectStore(path));
    return new Dataset(t, t.load(version), allocator);
  }

  /** The same dataset at another version. */
  public Dataset checkout(long version) {
    return new Dataset(table, table.load(version), allocator);
  }

  /** The same dataset at its newest version. */
  public Dataset checkoutLatest() {
    return new Dataset(table, table.latest(), allocator);
  }

  private static Path toPath(String uri) {
    if (uri.startsWith("file:")) {
      return Paths.get(URI.create(uri));
    }
    if (uri.matches("^[a-zA-Z][a-zA-Z0-9+.-]+://.*")) {
      throw new IllegalArgumentException("Only local paths and file: URIs are supported so far: " + uri);
    }
    return Paths.get(uri);
  }

  // ---- writing

  /**
   * Creates a dataset from the batches of a reader (consumed, not closed).
   *
   * @throws dev.javelin.table.DatasetExistsException if a dataset exists there
   */
  public static Dataset create(Path path, ArrowReader data, WriteParams params, BufferAllocator allocator) {
    return create(new LocalObjectStore(path), data, params, allocator);
  }

  /** Creates a dataset at a local path or {@code file:} URI. */
  public static Dataset create(String uri, ArrowReader data, WriteParams params, BufferAllocator allocator) {
    return create(toPath(uri), data, params, allocator);
  }

  /** Creates a dataset from batches (not closed); the first batch gives the schema. */
  public static Dataset create(Path path, Iterable<VectorSchemaRoot> data, WriteParams params,
      BufferAllocator allocator) {
    return create(new LocalObjectStore(path), Batches.of(data), params, allocator);
  }

  /** Creates a dataset in a store. */
  public static Dataset create(ObjectStore store, ArrowReader data, WriteParams params, BufferAllocator allocator) {
    return create(store, Batches.of(data), params, allocator);
  }

  private static Dataset create(ObjectStore store, Batches data, WriteParams params, BufferAllocator allocator) {
    Table t = Table.at(store);
    if (t.exists()) {
      throw TableErrors.exists(store.location());
    }
    LanceFileVersion version = params.fileVersion().orElse(LanceFileVersion.V2_1);
    return new Dataset(t, write(t, 0, null, data, params, version), allocator);
  }

  /**
   * Appends the reader's batches (consumed, not closed) as new fragments, committed on top of
   * whatever version is newest (concurrent appends rebase; a concurrent overwrite conflicts).
   *
   * @return the dataset at the new version
   * @throws dev.javelin.table.SchemaMismatchException if the data's schema differs (nothing is written)
   * @throws dev.javelin.table.CommitConflictException if the dataset was overwritten since this version
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
    return new Dataset(table, write(table, version(), schema(), data, params, version), allocator);
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
    return new Dataset(table, write(table, version(), null, data, params, version), allocator);
  }

  /**
   * Writes the data files, then commits an Append of them when {@code appendTo} (the dataset's
   * schema) is given, else an Overwrite (a create when {@code readVersion} is 0). On any failure
   * the files written are deleted.
   */
  private static Manifest write(Table t, long readVersion, LanceSchema appendTo, Batches data, WriteParams params,
      LanceFileVersion version) {
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
    FragmentWriter writer = new FragmentWriter(t.store(), schema, version, params);
    boolean committed = false;
    try {
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
      }
      Transaction txn;
      Commit commit;
      if (appendTo == null) {
        txn = Transaction.overwrite(readVersion, schema, writer.finish());
        commit = t.newCommit(txn).fileVersion(version);
        if (readVersion == 0) {
          commit.createOnly();
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

  /** Live rows in this version (from the manifest; no data file is read). */
  public long countRows() {
    return manifest.countRows();
  }

  /** The data file version of this dataset. */
  public LanceFileVersion fileVersion() {
    return manifest.fileVersion();
  }

  /** Every version of the dataset, oldest first. */
  public List<VersionInfo> versions() {
    List<VersionInfo> out = new ArrayList<>();
    for (Map.Entry<Long, String> e : table.listVersions().entrySet()) {
      Manifest m = table.load(e.getKey());
      String op = table.transaction(m).map(tx -> tx.kind() == OperationKind.UNKNOWN ? "unknown"
          : tx.kind().displayName()).orElse("unknown");
      out.add(new VersionInfo(m.version(), m.timestamp().orElse(null), op, m.countRows()));
    }
    return out;
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
    try {
      return Take.take(this, offsets, fields(columns), allocator);
    } catch (IOException e) {
      throw new UncheckedIOException("Take failed: " + location(), e);
    }
  }

  /** Reads rows by logical offset, all columns. */
  public VectorSchemaRoot take(long[] offsets) {
    return take(offsets, null);
  }

  // ---- indices (DatasetIndexes)

  /**
   * Builds an index over a top-level column from every row and commits it (a CreateIndex).
   *
   * @param name the index name, or null for {@code {column}_idx}
   * @param replace whether an existing index of that name is replaced; if false it is an error
   * @throws IllegalArgumentException if the column cannot be indexed or the name is taken
   */
  public Dataset createIndex(String column, dev.javelin.index.IndexType type, String name, boolean replace) {
    return new Dataset(table, DatasetIndexes.create(this, table, column, type, name, replace, allocator), allocator);
  }

  /** The indices of this version. */
  public List<IndexInfo> indices() {
    return DatasetIndexes.list(this);
  }

  /** Drops an index by name (a CreateIndex that removes it); its files stay for older versions. */
  public Dataset dropIndex(String name) {
    return new Dataset(table, DatasetIndexes.drop(this, table, name), allocator);
  }

  /** The manifest of this version (fragments, flags, config). */
  public Manifest manifest() {
    return manifest;
  }

  /** Where the dataset is. */
  public String location() {
    return table.location();
  }

  ObjectStore store() {
    return table.store();
  }

  List<LanceField> fields(List<String> columns) {
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
