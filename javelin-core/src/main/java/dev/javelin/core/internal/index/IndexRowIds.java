package dev.javelin.core.internal.index;

import dev.javelin.core.Dataset;
import dev.javelin.core.internal.scan.DatasetReader;
import dev.javelin.format.schema.LanceField;
import dev.javelin.table.Fragment;
import dev.javelin.table.deletion.Deletes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.roaringbitmap.RoaringBitmap;

/**
 * How an index names a dataset's rows, as Lance does: by stable row id when the dataset has stable
 * row ids, otherwise by row address ({@code fragment_id << 32 | physical offset}). Every index
 * build reads the rows it indexes through {@link #scan}, so every kind stores the same ids.
 */
final class IndexRowIds {
  /** Rows read for an index build, in batches of at most this many. */
  static final int BATCH_ROWS = 8192;

  /** Receives a batch: the column's values of {@code n} rows (nulls included) and their index row ids. */
  interface Sink {
    void accept(FieldVector values, long[] ids, int n) throws IOException;
  }

  private IndexRowIds() {}

  /**
   * Streams the live rows of {@code fragments} (in order; deleted rows left out, overlays applied,
   * a column the fragment's files lack read as nulls) as {@code field}'s values with the id the
   * index stores for each row. The vectors are valid during the call only.
   */
  static void scan(Dataset ds, List<Fragment> fragments, LanceField field, BufferAllocator allocator, Sink sink)
      throws IOException {
    if (fragments.isEmpty()) {
      return;
    }
    long[] ids = new long[0];
    try (DatasetReader in = new DatasetReader(ds.store(), ds.location(), fragments, List.of(field), BATCH_ROWS,
        List.of(DatasetReader.Meta.ROW_ID), ds.hasStableRowIds(), allocator)) {
      while (in.loadNextBatch()) {
        VectorSchemaRoot batch = in.getVectorSchemaRoot();
        int n = batch.getRowCount();
        if (ids.length < n) {
          ids = new long[n];
        }
        UInt8Vector rowIds = (UInt8Vector) batch.getVector(1);
        for (int i = 0; i < n; i++) {
          ids[i] = rowIds.get(i);
        }
        sink.accept(batch.getVector(0), ids, n);
      }
    }
  }

  /**
   * Which index row ids still name a live row of one of {@code fragments} in {@code ds}'s version
   * (rows of other fragments, of retired fragments and deleted rows are rejected). With stable row
   * ids a row is found where it lives now, so an index row of a row that an update moved to a
   * fragment outside {@code fragments} is rejected too (the moved copy is indexed with its new
   * fragment).
   */
  static LongPredicate liveIn(Dataset ds, RoaringBitmap fragments, BufferAllocator allocator) throws IOException {
    List<Fragment> live = ds.manifest().fragments();
    if (ds.hasStableRowIds()) {
      RowIdIndex index = ds.rowIdIndex();
      return id -> {
        long at;
        try {
          at = index.lookup(id);
        } catch (IOException e) {
          throw new UncheckedIOException("Reading a deletion file failed: " + ds.location(), e);
        }
        return at >= 0 && fragments.contains((int) live.get((int) (at >>> 32)).id());
      };
    }
    Map<Long, RoaringBitmap> deleted = new HashMap<>();
    for (Fragment f : live) {
      if (f.id() <= 0xFFFFFFFFL && fragments.contains((int) f.id())) {
        deleted.put(f.id(), Deletes.deletedRows(ds.store(), f, allocator));
      }
    }
    return address -> {
      RoaringBitmap d = deleted.get(address >>> 32);
      return d != null && !d.contains((int) (address & 0xFFFFFFFFL));
    };
  }
}
