package dev.javelin.spark;

import dev.javelin.core.Dataset;
import dev.javelin.core.DistributedWrite;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.Table;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.execution.arrow.ArrowWriter;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;

/**
 * A batch write: each Spark task writes its rows as new fragments (Javelin's fragment writer),
 * the driver commits all of them once, as an Append (creating the dataset if there is none) or,
 * after {@code mode("overwrite")}, an Overwrite: with the data's schema when the data source names
 * the dataset by path, with the dataset's own schema for a catalog table ({@code INSERT
 * OVERWRITE}). A job that fails commits nothing and, through its journal, leaves none of its
 * files.
 */
final class JavelinWrite implements Write, BatchWrite {
  private static final int BATCH_ROWS = 8192;

  private final String uri;
  private final StructType input;
  private final boolean overwrite;
  private final JobJournal journal;
  private final long readVersion;
  private final LanceSchema target;
  private final LanceFileVersion fileVersion;
  private final boolean stableRowIds;
  /** The Arrow form of the incoming rows, in Spark's column order (the dataset's types on append). */
  private final Schema rows;

  JavelinWrite(String uri, Map<String, String> storage, StructType input, boolean overwrite, boolean replaceSchema,
      LanceFileVersion createVersion, boolean createStableRowIds, boolean mustCreate) {
    this.uri = uri;
    this.input = input;
    this.overwrite = overwrite;
    this.stableRowIds = createStableRowIds;
    this.journal = new JobJournal(uri, storage);
    ObjectStore store = journal.store();
    Table t = Table.at(store);
    Schema sparkArrow = ArrowUtils.toArrowSchema(input, "UTC", true, false);
    if (!t.exists()) {
      readVersion = 0;
      target = LanceSchema.fromArrow(sparkArrow);
      fileVersion = createVersion;
      rows = target.toArrow();
    } else if (mustCreate) {
      throw new IllegalStateException("A dataset already exists: " + uri);
    } else {
      Dataset ds = Dataset.open(store, ArrowUtils.rootAllocator());
      readVersion = ds.version();
      if (overwrite && replaceSchema) {
        target = LanceSchema.fromArrow(sparkArrow);
        fileVersion = ds.fileVersion();
        rows = target.toArrow();
      } else {
        target = ds.schema();
        fileVersion = ds.fileVersion();
        Schema have = target.toArrow();
        List<Field> fields = new ArrayList<>();
        for (StructField f : input.fields()) {
          fields.add(have.getFields().stream().filter(x -> x.getName().equals(f.name())).findFirst()
              .orElseThrow(() -> new IllegalArgumentException("Column '" + f.name()
                  + "' is not in the dataset; " + (overwrite ? "an overwrite of a table" : "append")
                  + " needs the dataset's columns: " + uri)));
        }
        rows = new Schema(fields);
      }
    }
  }

  static final class Builder implements WriteBuilder, SupportsTruncate {
    private final String uri;
    private final Map<String, String> storage;
    private final StructType input;
    private final boolean replaceSchema;
    private boolean truncate;
    private LanceFileVersion createVersion = LanceFileVersion.V2_1;
    private boolean createStableRowIds;
    private boolean mustCreate;

    /** {@code replaceSchema}: an overwrite gives the dataset the data's schema. */
    Builder(String uri, Map<String, String> storage, StructType input, boolean replaceSchema) {
      this.uri = uri;
      this.storage = storage;
      this.input = input;
      this.replaceSchema = replaceSchema;
    }

    /** The write creates the dataset, with these settings, or fails if there is one. */
    Builder creating(LanceFileVersion fileVersion, boolean stableRowIds) {
      this.createVersion = fileVersion;
      this.createStableRowIds = stableRowIds;
      this.mustCreate = true;
      return this;
    }

    @Override
    public WriteBuilder truncate() {
      truncate = true;
      return this;
    }

    @Override
    public Write build() {
      return new JavelinWrite(uri, storage, input, truncate, replaceSchema, createVersion, createStableRowIds,
          mustCreate);
    }
  }

  @Override
  public BatchWrite toBatch() {
    return this;
  }

  @Override
  public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
    return new Factory(journal, DistributedWrite.schemaBytes(target), fileVersion, rows.toJson());
  }

  // Spark commits one message per partition; files of any other attempt (failed, speculative,
  // lost) are the journal's to delete, so no attempt needs the coordinator's permission.
  @Override
  public boolean useCommitCoordinator() {
    return false;
  }

  @Override
  public void commit(WriterCommitMessage[] messages) {
    List<DistributedWrite.Written> written = new ArrayList<>();
    List<String> keep = new ArrayList<>();
    for (WriterCommitMessage m : messages) {
      DistributedWrite.Written w = ((Message) m).written;
      written.add(w);
      keep.addAll(w.keys());
    }
    boolean create = readVersion == 0;
    try {
      DistributedWrite.commitFragments(journal.store(), readVersion, create || overwrite ? target : null,
          fileVersion, stableRowIds, written, ArrowUtils.rootAllocator());
    } finally {
      // Files of lost attempts go; the committed ones stay (a failed commit deleted its own).
      journal.reconcile(keep);
    }
  }

  @Override
  public void abort(WriterCommitMessage[] messages) {
    journal.reconcile(List.of());
  }

  record Message(DistributedWrite.Written written) implements WriterCommitMessage {}

  static final class Factory implements DataWriterFactory {
    private static final long serialVersionUID = 1L;
    private final JobJournal journal;
    private final byte[] schema;
    private final LanceFileVersion fileVersion;
    private final String rowsJson;

    Factory(JobJournal journal, byte[] schema, LanceFileVersion fileVersion, String rowsJson) {
      this.journal = journal;
      this.schema = schema;
      this.fileVersion = fileVersion;
      this.rowsJson = rowsJson;
    }

    @Override
    public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
      return new Writer(this);
    }
  }

  private static final class Writer implements DataWriter<InternalRow> {
    private final AutoCloseable attempt;
    private final BufferAllocator allocator;
    private final VectorSchemaRoot root;
    private final ArrowWriter arrow;
    private final DistributedWrite.FragmentSink sink;
    private int buffered;

    Writer(Factory f) {
      attempt = f.journal.attempt(TaskContext.get());
      allocator = new RootAllocator();
      try {
        root = VectorSchemaRoot.create(Schema.fromJSON(f.rowsJson), allocator);
      } catch (IOException e) {
        allocator.close();
        closeQuietly(attempt);
        throw new UncheckedIOException(e);
      }
      arrow = ArrowWriter.create(root);
      sink = DistributedWrite.fragmentSink(f.journal.recordingStore(), DistributedWrite.schemaFromBytes(f.schema),
          f.fileVersion, WriteParams.defaults());
    }

    @Override
    public void write(InternalRow row) {
      arrow.write(row);
      if (++buffered == BATCH_ROWS) {
        flush();
      }
    }

    private void flush() {
      if (buffered > 0) {
        arrow.finish();
        sink.write(root);
        arrow.reset();
        buffered = 0;
      }
    }

    @Override
    public WriterCommitMessage commit() {
      flush();
      DistributedWrite.Written w = sink.finish();
      FailureInjection.maybeFail("write", TaskContext.get());
      return new Message(w);
    }

    @Override
    public void abort() {
      sink.close();
    }

    @Override
    public void close() {
      try {
        sink.close();
        root.close();
        allocator.close();
      } finally {
        closeQuietly(attempt);
      }
    }

    private static void closeQuietly(AutoCloseable c) {
      try {
        c.close();
      } catch (Exception e) {
        // The driver waits for this mark only up to a bound.
      }
    }
  }
}
