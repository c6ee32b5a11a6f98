package dev.javelin.spark;

import dev.javelin.core.Dataset;
import dev.javelin.core.DistributedWrite;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.schema.LanceSchema;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.CatalystTypeConverters;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.execution.arrow.ArrowWriter;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import scala.Function1;

/**
 * Adds a column computed on Spark executors from existing columns, one Spark task per fragment
 * (each writes one new data file for its fragment), committed once on the driver as a
 * {@code Merge}, as {@code Dataset.addColumns} does in one process. Repack afterwards with
 * {@link SparkCompaction} if the new column should share files with others.
 */
public final class SparkBackfill {
  private SparkBackfill() {}

  /** The function computing the new column's value from a row of the columns it reads. */
  @FunctionalInterface
  public interface RowFunction extends Serializable {
    /** The value for one row, as Spark's {@link Row} getters give values of the type (null allowed). */
    Object apply(Row row);
  }

  /**
   * Adds nullable column {@code name} of Spark type {@code type}, whose value for each row is
   * {@code function} of the {@code reads} columns. Returns the new version.
   *
   * The dataset's store is opened with the storage options of {@code spark}'s session config
   * ({@code spark.javelin.storage.<key>}).
   *
   * @throws dev.javelin.core.exceptions.SchemaEvolutionException if the column exists
   */
  public static long addColumn(SparkSession spark, String uri, String name, DataType type, List<String> reads,
      RowFunction function) {
    return addColumn(spark, uri, Map.of(), name, type, reads, function);
  }

  /**
   * As {@link #addColumn(SparkSession, String, String, DataType, List, RowFunction)}, with storage
   * options (Lance's key names, over those of the session config) for the driver and every
   * executor.
   */
  public static long addColumn(SparkSession spark, String uri, Map<String, String> storageOptions, String name,
      DataType type, List<String> reads, RowFunction function) {
    Map<String, String> storage = ConnectorOptions.merge(ConnectorOptions.fromSession(spark), storageOptions);
    BufferAllocator allocator = ArrowUtils.rootAllocator();
    Dataset ds = Dataset.builder(uri).storageOptions(storage).allocator(allocator).load();
    StructType out = new StructType(new StructField[] {new StructField(name, type, true,
        org.apache.spark.sql.types.Metadata.empty())});
    Schema arrow = ArrowUtils.toArrowSchema(out, "UTC", true, false);
    LanceSchema added = DistributedWrite.newColumns(ds, arrow);
    List<Long> ids = new ArrayList<>();
    ds.manifest().fragments().forEach(f -> ids.add(f.id()));
    JobJournal journal = new JobJournal(uri, storage);
    List<DistributedWrite.Written> written;
    try {
      written = ids.isEmpty() ? List.of() : JavaSparkContext.fromSparkContext(spark.sparkContext())
          .parallelize(ids, ids.size())
          .map(new Task(journal, ds.version(), DistributedWrite.schemaBytes(added), out.json(), List.copyOf(reads),
              function))
          .collect();
    } catch (Exception e) {
      // Spark's job failure is a checked SparkException that Scala does not declare: catch it too.
      journal.reconcile(List.of());
      throw e;
    }
    List<String> keep = new ArrayList<>();
    written.forEach(w -> keep.addAll(w.keys()));
    try {
      return DistributedWrite.commitColumns(ds, added, written).version();
    } finally {
      journal.reconcile(keep);
    }
  }

  /** One fragment: read its columns, apply the function row by row, write the new file. */
  static final class Task implements Function<Long, DistributedWrite.Written> {
    private static final long serialVersionUID = 1L;
    private final JobJournal journal;
    private final long version;
    private final byte[] added;
    private final String outJson;
    private final List<String> reads;
    private final RowFunction function;

    Task(JobJournal journal, long version, byte[] added, String outJson, List<String> reads, RowFunction function) {
      this.journal = journal;
      this.version = version;
      this.added = added;
      this.outJson = outJson;
      this.reads = reads;
      this.function = function;
    }

    @Override
    public DistributedWrite.Written call(Long fragmentId) throws Exception {
      StructType out = (StructType) DataType.fromJson(outJson);
      try (AutoCloseable attempt = journal.attempt(TaskContext.get());
          BufferAllocator allocator = new RootAllocator()) {
        Dataset ds = Dataset.open(journal.recordingStore(), allocator).checkout(version);
        StructType in = ArrowUtils.fromArrowSchema(new Schema(ds.schema().toArrow().getFields().stream()
            .filter(f -> reads.contains(f.getName())).toList()));
        // Rows in the order of `reads`, whatever the schema's order.
        List<String> order = new ArrayList<>();
        for (StructField f : in.fields()) {
          order.add(f.name());
        }
        Function1<Object, Object> toRow = CatalystTypeConverters.createToScalaConverter(in);
        Function1<Object, Object> toCatalyst = CatalystTypeConverters.createToCatalystConverter(out.fields()[0]
            .dataType());
        java.util.function.Function<VectorSchemaRoot, VectorSchemaRoot> compute = batch -> {
          ColumnVector[] cols = new ColumnVector[order.size()];
          for (int i = 0; i < cols.length; i++) {
            cols[i] = new ArrowColumnVector(batch.getVector(order.get(i)));
          }
          ColumnarBatch cb = new ColumnarBatch(cols, batch.getRowCount());
          ArrowWriter w = ArrowWriter.create(out, "UTC", true, false);
          try {
            Iterator<InternalRow> rows = cb.rowIterator();
            while (rows.hasNext()) {
              Row r = (Row) toRow.apply(rows.next().copy());
              Object v = function.apply(r);
              w.write(new GenericInternalRow(new Object[] {toCatalyst.apply(v)}));
            }
            w.finish();
            return w.root();
          } catch (RuntimeException e) {
            w.root().close();
            throw e;
          }
        };
        DistributedWrite.Written result = DistributedWrite.writeColumnFile(ds, fragmentId,
            DistributedWrite.schemaFromBytes(added), reads, compute, ReadOptions.DEFAULT_BATCH_SIZE);
        FailureInjection.maybeFail("backfill", TaskContext.get());
        return result;
      }
    }
  }
}
