package dev.javelin.core.internal.write;

import dev.javelin.common.Tasks;
import dev.javelin.core.Dataset;
import dev.javelin.core.ScanBuilder;
import dev.javelin.core.expr.BoundExpression;
import dev.javelin.core.expr.Expression;
import dev.javelin.core.internal.SessionState;
import dev.javelin.core.internal.scan.DatasetReader;
import dev.javelin.core.internal.scan.IndexedScan;
import dev.javelin.format.ReadOptions;
import dev.javelin.table.Fragment;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.roaringbitmap.RoaringBitmap;

/**
 * Finds the rows a delete's filter selects, as physical offsets per fragment id. Fragments are
 * scanned independently, several at a time (on the CPU pool of the dataset's session), reading
 * only the filter's columns; in a fragment without deletions a row's offset is its position in
 * the scan, so row addresses are only read where rows were deleted before. A filter an index can
 * answer, or one naming no column, goes through an ordinary scan instead.
 */
public final class DeleteScan {
  private DeleteScan() {}

  public static Map<Long, RoaringBitmap> rows(Dataset ds, Expression where) {
    BoundExpression filter = where.bindFilter(ds.schema());
    if (filter.columns().isEmpty() || IndexedScan.plan(ds, where, ds.allocator()).usesIndex()) {
      return byScan(ds, where);
    }
    List<Fragment> fragments = ds.manifest().fragments();
    List<RoaringBitmap> found;
    try {
      found = Tasks.foreach(fragments).executeWith(SessionState.of(ds).pools().cpu())
          .run(f -> scan(ds, f, filter));
    } catch (InterruptedIOException e) {
      throw new UncheckedIOException(new InterruptedIOException("Interrupted while finding rows to delete: "
          + ds.location()));
    } catch (IOException e) {
      throw new UncheckedIOException("Delete failed while finding rows: " + ds.location(), e);
    }
    Map<Long, RoaringBitmap> out = new HashMap<>();
    for (int i = 0; i < fragments.size(); i++) {
      if (!found.get(i).isEmpty()) {
        out.put(fragments.get(i).id(), found.get(i));
      }
    }
    return out;
  }

  private static RoaringBitmap scan(Dataset ds, Fragment f, BoundExpression filter) throws IOException {
    boolean hasDeletions = f.deletionFile().isPresent();
    List<DatasetReader.Meta> metas = hasDeletions ? List.of(DatasetReader.Meta.ROW_ADDR) : List.of();
    RoaringBitmap out = new RoaringBitmap();
    int[] offsets = new int[0];
    long position = 0;
    try (ArrowReader r = new DatasetReader(ds.store(), ds.location(), List.of(f), ds.fields(filter.columns()),
        ReadOptions.DEFAULT_BATCH_SIZE, metas, ds.hasStableRowIds(), ds.allocator())) {
      VectorSchemaRoot root = r.getVectorSchemaRoot();
      while (r.loadNextBatch()) {
        int[] selected = filter.select(root);
        if (offsets.length < selected.length) {
          offsets = new int[Math.max(selected.length, 2 * offsets.length)];
        }
        if (hasDeletions) {
          ArrowBuf addresses = ((UInt8Vector) root.getVector(root.getFieldVectors().size() - 1)).getDataBuffer();
          for (int k = 0; k < selected.length; k++) {
            offsets[k] = (int) addresses.getLong((long) selected[k] * 8);
          }
        } else {
          for (int k = 0; k < selected.length; k++) {
            offsets[k] = (int) (position + selected[k]);
          }
        }
        out.addN(offsets, 0, selected.length);
        position += root.getRowCount();
      }
    }
    return out;
  }

  // Through the scanner (which may use an index), collecting row addresses.
  private static Map<Long, RoaringBitmap> byScan(Dataset ds, Expression where) {
    Map<Long, RoaringBitmap> rows = new HashMap<>();
    ScanBuilder scan = ds.newScan().columns(List.of()).filter(where).withRowAddress();
    try (ArrowReader r = scan.build()) {
      VectorSchemaRoot root = r.getVectorSchemaRoot();
      // Addresses come in runs of one fragment: add each run to its bitmap at once.
      int[] offsets = new int[0];
      while (r.loadNextBatch()) {
        int n = root.getRowCount();
        if (offsets.length < n) {
          offsets = new int[n];
        }
        ArrowBuf data = ((UInt8Vector) root.getVector(0)).getDataBuffer();
        int i = 0;
        while (i < n) {
          long fragment = data.getLong((long) i * 8) >>> 32;
          int k = 0;
          for (; i < n; i++) {
            long a = data.getLong((long) i * 8);
            if (a >>> 32 != fragment) {
              break;
            }
            offsets[k++] = (int) a;
          }
          rows.computeIfAbsent(fragment, id -> new RoaringBitmap()).addN(offsets, 0, k);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Delete failed while finding rows: " + ds.location(), e);
    }
    return rows;
  }
}
