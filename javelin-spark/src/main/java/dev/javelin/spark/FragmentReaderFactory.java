package dev.javelin.spark;

import dev.javelin.core.Dataset;
import dev.javelin.core.ScanBuilder;
import dev.javelin.table.Fragment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/** Reads a fragment with Javelin's scan and hands its Arrow batches to Spark as columnar batches. */
final class FragmentReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    throw new UnsupportedOperationException("The javelin source reads columnar batches only");
  }

  @Override
  public boolean supportColumnarReads(InputPartition partition) {
    return true;
  }

  @Override
  public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
    return new Reader((FragmentPartition) partition);
  }

  private static final class Reader implements PartitionReader<ColumnarBatch> {
    private final BufferAllocator allocator = new RootAllocator();
    private final ArrowReader scan;
    private final boolean noColumns;
    private ColumnarBatch batch;

    Reader(FragmentPartition p) {
      try {
        Dataset ds = Dataset.builder(p.uri()).storageOptions(p.storage()).version(p.version()).allocator(allocator)
            .load();
        Fragment fragment = ds.manifest().fragments().stream().filter(f -> f.id() == p.fragmentId()).findFirst()
            .orElseThrow(() -> new IllegalStateException("Fragment " + p.fragmentId() + " is not in version "
                + p.version() + ": " + p.uri()));
        // A count needs rows but no values: read the narrowest thing there is, the first column.
        noColumns = p.columns().isEmpty();
        List<String> columns = noColumns ? List.of(ds.schema().fields().get(0).name()) : p.columns();
        ScanBuilder b = ds.newScan().fragments(List.of(fragment)).columns(columns).parallelism(1);
        if (p.filter() != null) {
          b.filter(p.filter());
        }
        scan = b.build();
      } catch (RuntimeException e) {
        allocator.close();
        throw e;
      }
    }

    @Override
    public boolean next() throws IOException {
      if (!scan.loadNextBatch()) {
        return false;
      }
      VectorSchemaRoot root = scan.getVectorSchemaRoot();
      List<ColumnVector> cols = new ArrayList<>();
      if (!noColumns) {
        root.getFieldVectors().forEach(v -> cols.add(new ArrowColumnVector(v)));
      }
      batch = new ColumnarBatch(cols.toArray(new ColumnVector[0]), root.getRowCount());
      return true;
    }

    @Override
    public ColumnarBatch get() {
      return batch;
    }

    @Override
    public void close() {
      try {
        scan.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        allocator.close();
      }
    }
  }
}
