package dev.javelin.spark;

import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.arrow.ArrowWriter;
import scala.collection.Iterator;

/** Spark rows as Arrow batches of {@code schema}, batch by batch: a MERGE's source streamed into merge_insert. */
final class RowsReader extends ArrowReader {
  private static final int BATCH_ROWS = 8192;
  private final Iterator<InternalRow> rows;
  private final Schema schema;
  private ArrowWriter writer;

  RowsReader(Iterator<InternalRow> rows, Schema schema, BufferAllocator allocator) {
    super(allocator);
    this.rows = rows;
    this.schema = schema;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    VectorSchemaRoot root = getVectorSchemaRoot();
    if (writer == null) {
      writer = ArrowWriter.create(root);
    }
    writer.reset();
    int n = 0;
    while (n < BATCH_ROWS && rows.hasNext()) {
      writer.write(rows.next());
      n++;
    }
    writer.finish();
    return n > 0;
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() {}

  @Override
  protected Schema readSchema() {
    return schema;
  }
}
