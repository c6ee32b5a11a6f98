package dev.javelin.core;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.javelin.core.exceptions.ColumnLengthMismatchException;
import dev.javelin.core.exceptions.SchemaEvolutionException;
import dev.javelin.core.internal.SessionState;
import dev.javelin.core.internal.scan.DatasetReader;
import dev.javelin.core.internal.scan.DeletedSlots;
import dev.javelin.core.internal.write.FragmentWriter;
import dev.javelin.core.internal.write.SchemaCheck;
import dev.javelin.core.internal.write.SchemaEvolution;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.proto.FileProtos;
import dev.javelin.format.schema.LanceField;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.PendingFiles;
import dev.javelin.table.Commit;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.Table;
import dev.javelin.table.Transaction;
import dev.javelin.table.deletion.Deletes;
import dev.javelin.table.proto.TableProtos;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes split from commits, for engines that write on many workers and commit once on a
 * coordinator (Spark): workers write new fragments, or one new-column file per fragment, and
 * return a serializable {@link Written}; the coordinator commits them all as one Append,
 * Overwrite or Merge. Nothing a worker writes is visible until that commit; a worker that fails
 * deletes what it wrote, and a failed commit deletes every file it was given.
 */
public final class DistributedWrite {
  private DistributedWrite() {}

  /** What one worker wrote: new fragments (ids unassigned) or new data files, and every key. */
  public static final class Written implements Serializable {
    private static final long serialVersionUID = 1L;
    private final List<byte[]> fragments;
    private final long fragmentId;
    private final byte[] dataFile;
    private final List<String> keys;

    Written(List<Fragment> fragments, long fragmentId, DataFile dataFile, List<String> keys) {
      this.fragments = new ArrayList<>();
      fragments.forEach(f -> this.fragments.add(f.proto().toByteArray()));
      this.fragmentId = fragmentId;
      this.dataFile = dataFile == null ? null : dataFile.proto().toByteArray();
      this.keys = List.copyOf(keys);
    }

    /** New fragments, ids unassigned (empty for a column file). */
    public List<Fragment> fragments() {
      List<Fragment> out = new ArrayList<>();
      try {
        for (byte[] b : fragments) {
          out.add(Fragment.fromProto(TableProtos.DataFragment.parseFrom(b)));
        }
      } catch (InvalidProtocolBufferException e) {
        throw new IllegalStateException("A written fragment does not parse", e);
      }
      return out;
    }

    /** Object keys of every file written. */
    public List<String> keys() {
      return keys;
    }
  }

  /** A schema's serializable form (protobuf bytes, field ids kept). */
  public static byte[] schemaBytes(LanceSchema schema) {
    return schema.toProto().toByteArray();
  }

  /** Reads {@link #schemaBytes}. */
  public static LanceSchema schemaFromBytes(byte[] bytes) {
    try {
      FileProtos.Schema p = FileProtos.Schema.parseFrom(bytes);
      return LanceSchema.fromProto(p.getFieldsList(), p.getMetadataMap());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("Not a serialized schema", e);
    }
  }

  /**
   * Worker side: a sink writing batches as new uncommitted fragments of {@code schema}.
   * {@link FragmentSink#close()} without {@link FragmentSink#finish()} deletes what it wrote.
   */
  public static FragmentSink fragmentSink(ObjectStore store, LanceSchema schema, LanceFileVersion version,
      WriteParams params) {
    return new FragmentSink(store, schema, version, params);
  }

  /** Writes batches into new fragments on a worker; see {@link #fragmentSink}. */
  public static final class FragmentSink implements AutoCloseable {
    private final ObjectStore store;
    private final Schema target;
    private final FragmentWriter writer;
    private boolean finished;

    FragmentSink(ObjectStore store, LanceSchema schema, LanceFileVersion version, WriteParams params) {
      this.store = store;
      this.target = schema.toArrow();
      this.writer = new FragmentWriter(store, schema, version, params, "distributed write");
    }

    /**
     * Writes a batch whose columns are matched to the schema by name (the caller keeps it).
     *
     * @throws dev.javelin.table.exceptions.SchemaMismatchException if its columns do not fit the schema
     */
    public void write(VectorSchemaRoot batch) {
      if (batch.getRowCount() == 0) {
        return;
      }
      List<FieldVector> vectors = FragmentWriter.inOrder(batch, SchemaCheck.align(target, batch.getSchema(),
          store.location()));
      List<Field> fields = new ArrayList<>();
      vectors.forEach(v -> fields.add(v.getField()));
      try {
        writer.write(new VectorSchemaRoot(fields, vectors, batch.getRowCount()));
      } catch (IOException e) {
        throw new UncheckedIOException("Writing fragments failed: " + store.location(), e);
      }
    }

    /** Finishes the files; the result is committed by the coordinator. */
    public Written finish() {
      try {
        Written out = new Written(writer.finish(), -1, null, writer.writtenKeys());
        finished = true;
        return out;
      } catch (IOException e) {
        throw new UncheckedIOException("Writing fragments failed: " + store.location(), e);
      }
    }

    /** Deletes what was written unless {@link #finish()} succeeded. */
    @Override
    public void close() {
      if (!finished) {
        writer.deleteAll();
        finished = true;
      }
    }
  }

  /**
   * Coordinator side: commits the workers' fragments as one Append on top of the newest version
   * (or, when {@code overwriteSchema} is given, one Overwrite with that schema, creating the
   * dataset if there is none). A failed commit deletes every file written.
   */
  public static Dataset commitFragments(ObjectStore store, long readVersion, LanceSchema overwriteSchema,
      LanceFileVersion version, boolean stableRowIds, List<Written> written, BufferAllocator allocator) {
    List<Fragment> fragments = new ArrayList<>();
    List<String> keys = new ArrayList<>();
    for (Written w : written) {
      fragments.addAll(w.fragments());
      keys.addAll(w.keys());
    }
    Table t = Table.at(store);
    Commit commit;
    if (overwriteSchema == null) {
      commit = t.newCommit(Transaction.append(readVersion, fragments));
    } else {
      commit = t.newCommit(Transaction.overwrite(readVersion, overwriteSchema, fragments)).fileVersion(version);
      if (readVersion == 0) {
        commit.createOnly();
        if (stableRowIds) {
          commit.enableStableRowIds();
        }
      }
    }
    Manifest m = commit.cleanupOnFailure(keys).commit();
    return Dataset.open(store, allocator).checkout(m.version());
  }

  /**
   * Coordinator side, before a backfill: the new columns with field ids after every id in use
   * in {@code dataset}'s version.
   *
   * @throws SchemaEvolutionException if a column exists or is given twice
   */
  public static LanceSchema newColumns(Dataset dataset, Schema columns) {
    return new LanceSchema(new SchemaEvolution(dataset).newFields(columns.getFields(), false), Map.of());
  }

  /**
   * Worker side of a backfill: computes {@code newColumns} for one fragment of {@code dataset}
   * from its {@code reads} columns, batch by batch ({@code compute} gets a batch owned by the
   * scan and returns a new root of the same row count, which is closed here), and writes them as
   * one data file holding a value per physical row (deleted slots copy a neighbour). On failure
   * deletes what it wrote.
   *
   * @throws ColumnLengthMismatchException if a result has another row count than its input
   */
  public static Written writeColumnFile(Dataset dataset, long fragmentId, LanceSchema newColumns, List<String> reads,
      Function<VectorSchemaRoot, VectorSchemaRoot> compute, int batchSize) {
    String location = dataset.location();
    Fragment fragment = dataset.manifest().fragments().stream().filter(f -> f.id() == fragmentId).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("Fragment " + fragmentId + " is not in version "
            + dataset.version() + ": " + location));
    List<LanceField> readFields = reads.isEmpty() ? List.of(dataset.schema().fields().get(0)) : dataset.fields(reads);
    Schema target = newColumns.toArrow();
    WriteParams params = WriteParams.builder().maxRowsPerFile(Math.max(1, fragment.physicalRows())).build();
    FragmentWriter writer = new FragmentWriter(SessionState.of(dataset).pools(), dataset.store(), newColumns,
        dataset.fileVersion(), params, "backfill");
    boolean done = false;
    try {
      DeletedSlots slots = new DeletedSlots(Deletes.deletedRows(dataset.store(), fragment, dataset.allocator()),
          fragment.physicalRows());
      long rows = 0;
      try (ArrowReader in = new DatasetReader(dataset.store(), location, List.of(fragment), readFields, batchSize,
          dataset.allocator())) {
        while (in.loadNextBatch()) {
          VectorSchemaRoot input = in.getVectorSchemaRoot();
          if (reads.isEmpty()) {
            input = new VectorSchemaRoot(List.of(), List.of(), input.getRowCount());
          }
          VectorSchemaRoot result = compute.apply(input);
          try {
            if (result == null || result.getRowCount() != input.getRowCount()) {
              long got = result == null ? 0 : result.getRowCount();
              throw new ColumnLengthMismatchException("The column function returned " + got + " rows for a batch of "
                  + input.getRowCount() + " in fragment " + fragmentId + ": " + location,
                  newColumns.fields().get(0).name(), input.getRowCount(), got);
            }
            List<FieldVector> vectors = FragmentWriter.inOrder(result, SchemaCheck.align(target, result.getSchema(),
                location));
            List<Field> fields = new ArrayList<>();
            vectors.forEach(v -> fields.add(v.getField()));
            VectorSchemaRoot view = new VectorSchemaRoot(fields, vectors, result.getRowCount());
            try (VectorSchemaRoot wide = DeletedSlots.widen(view, slots.next(view.getRowCount()),
                dataset.allocator())) {
              VectorSchemaRoot out = wide == null ? view : wide;
              writer.write(out);
              rows += out.getRowCount();
            }
          } finally {
            if (result != null && result != input) {
              result.close();
            }
          }
        }
      }
      if (rows != fragment.physicalRows()) {
        throw new ColumnLengthMismatchException("The new columns have " + rows + " values for fragment " + fragmentId
            + " of " + fragment.physicalRows() + " rows: " + location, newColumns.fields().get(0).name(),
            fragment.physicalRows(), rows);
      }
      List<Fragment> files = writer.finish();
      Written out = new Written(List.of(), fragmentId, files.isEmpty() ? null : files.get(0).files().get(0),
          writer.writtenKeys());
      done = true;
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("Writing new columns for fragment " + fragmentId + " failed: " + location, e);
    } finally {
      if (!done) {
        writer.deleteAll();
      }
    }
  }

  /**
   * Coordinator side of a backfill: commits the workers' column files (one per fragment, from
   * {@link #writeColumnFile}) as one Merge on {@code dataset}'s version. A failed commit deletes
   * them.
   *
   * @throws IllegalArgumentException if a non-empty fragment has no file (nothing is committed,
   *     the files are deleted)
   */
  public static Dataset commitColumns(Dataset dataset, LanceSchema newColumns, List<Written> written) {
    Map<Long, DataFile> files = new HashMap<>();
    List<String> keys = new ArrayList<>();
    for (Written w : written) {
      keys.addAll(w.keys());
      if (w.dataFile != null) {
        try {
          files.put(w.fragmentId, DataFile.fromProto(TableProtos.DataFile.parseFrom(w.dataFile)));
        } catch (InvalidProtocolBufferException e) {
          throw new IllegalStateException("A written data file does not parse", e);
        }
      }
    }
    List<Fragment> out = new ArrayList<>();
    for (Fragment f : dataset.manifest().fragments()) {
      DataFile d = files.get(f.id());
      if (d == null && f.physicalRows() > 0) {
        PendingFiles.deleteAll(dataset.store(), keys);
        throw new IllegalArgumentException("No new column file for fragment " + f.id() + ": " + dataset.location());
      }
      out.add(d == null ? f : Fragment.fromProto(f.proto().toBuilder().addFiles(d.proto()).build()));
    }
    Transaction txn = Transaction.merge(dataset.version(), new SchemaEvolution(dataset).withFields(
        newColumns.fields()), out);
    return dataset.at(dataset.table().newCommit(txn).cleanupOnFailure(keys).commit());
  }
}
