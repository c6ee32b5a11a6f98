package dev.javelin.core.cluster;

import dev.javelin.common.ProgressStage;
import dev.javelin.table.Fragment;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.Future;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * A clustering's pass 2: streams every column of the sources' live rows, in source order, into
 * their destinations ({@link PartitionWriter}), holding a few batches of row data besides the
 * writers' page buffers. A failure deletes every file written.
 */
final class DataPass {
  private DataPass() {}

  /**
   * Writes the rows of {@code r} (whose first batch {@code firstBatch} loads, started while the
   * keys were sorted) through {@code w} and returns the destinations, in order.
   */
  static List<Fragment> rewrite(String location, PartitionWriter w, List<Fragment> sources, int[] dest,
      ArrowReader r, Future<Boolean> firstBatch, ProgressStage progress) throws IOException {
    try (w) {
      int first = 0;
      boolean more = Clustering.join(firstBatch, location);
      VectorSchemaRoot root = r.getVectorSchemaRoot();
      while (more) {
        w.accept(root, dest, first);
        first += root.getRowCount();
        progress.advance(root.getRowCount());
        more = r.loadNextBatch();
      }
      if (first != dest.length) {
        throw new IllegalStateException("The second read of fragments " + Clustering.ids(sources) + " returned "
            + first + " rows, the first " + dest.length + ": " + location);
      }
      return w.fragments();
    } catch (IOException | RuntimeException e) {
      w.deleteAll();
      throw e;
    }
  }
}
