package dev.javelin.core.internal.scan;

import dev.javelin.common.Tasks;
import dev.javelin.core.Dataset;
import dev.javelin.core.internal.SessionState;
import dev.javelin.core.internal.index.RowIdIndex;
import dev.javelin.core.internal.overlay.OverlayApplier;
import dev.javelin.core.internal.write.SchemaCheck;
import dev.javelin.format.FloatVectorReader;
import dev.javelin.format.Gather;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.schema.LanceField;
import dev.javelin.table.Fragment;
import dev.javelin.table.Overlay;
import dev.javelin.table.deletion.Deletes;
import dev.javelin.table.exceptions.TableErrors;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.roaringbitmap.RoaringBitmap;

/**
 * Reads rows by logical offset (position among live rows, in scan order) or by row address
 * ({@code fragment_id << 32 | physical offset}) or stable row id.
 */
public final class Take {
  private Take() {}

  public static VectorSchemaRoot take(Dataset ds, long[] offsets, List<LanceField> fields, BufferAllocator allocator)
      throws IOException {
    List<Fragment> fragments = ds.manifest().fragments();
    long[] starts = new long[fragments.size() + 1];
    for (int i = 0; i < fragments.size(); i++) {
      starts[i + 1] = starts[i] + fragments.get(i).liveRows();
    }
    long total = starts[fragments.size()];
    RoaringBitmap[] deleted = new RoaringBitmap[fragments.size()];
    // Which fragment each requested row lives in, and its physical offset there.
    int[] fragOf = new int[offsets.length];
    long[] rowOf = new long[offsets.length];
    for (int i = 0; i < offsets.length; i++) {
      long o = offsets[i];
      if (o < 0 || o >= total) {
        throw new IndexOutOfBoundsException("Row offset " + o + " is out of range for a dataset of " + total
            + " rows (version " + ds.version() + "): " + ds.location());
      }
      int f = Arrays.binarySearch(starts, o);
      f = f >= 0 ? f : -f - 2;
      while (starts[f + 1] == o) {
        f++; // skip empty fragments
      }
      fragOf[i] = f;
      if (deleted[f] == null) {
        deleted[f] = Deletes.deletedRows(ds.store(), fragments.get(f), allocator);
      }
      rowOf[i] = physical(deleted[f], o - starts[f]);
    }
    return gather(ds, fragments, fragOf, rowOf, fields, allocator);
  }

  public static VectorSchemaRoot takeRows(Dataset ds, long[] addresses, List<LanceField> fields, BufferAllocator allocator)
      throws IOException {
    List<Fragment> fragments = ds.manifest().fragments();
    Map<Long, Integer> index = new HashMap<>();
    for (int i = 0; i < fragments.size(); i++) {
      index.put(fragments.get(i).id(), i);
    }
    RoaringBitmap[] deleted = new RoaringBitmap[fragments.size()];
    int[] fragOf = new int[addresses.length];
    long[] rowOf = new long[addresses.length];
    // Rows come mostly grouped by fragment: the last fragment found is tried first (no boxing).
    long lastId = -1;
    int last = -1;
    for (int i = 0; i < addresses.length; i++) {
      long a = addresses[i];
      int f;
      if (last >= 0 && a >>> 32 == lastId) {
        f = last;
      } else {
        Integer found = index.get(a >>> 32);
        if (found == null) {
          throw TableErrors.rowNotFound(ds.location(), ds.version(), a, "names no fragment");
        }
        f = found;
        lastId = a >>> 32;
        last = f;
      }
      long row = a & 0xFFFFFFFFL;
      if (row >= fragments.get(f).physicalRows()) {
        throw TableErrors.rowNotFound(ds.location(), ds.version(), a,
            "is past the " + fragments.get(f).physicalRows() + " rows of its fragment");
      }
      if (deleted[f] == null) {
        deleted[f] = Deletes.deletedRows(ds.store(), fragments.get(f), allocator);
      }
      if (deleted[f].contains((int) row)) {
        throw TableErrors.rowNotFound(ds.location(), ds.version(), a, "is deleted");
      }
      fragOf[i] = f;
      rowOf[i] = row;
    }
    return gather(ds, fragments, fragOf, rowOf, fields, allocator);
  }

  /** Reads rows by stable row id, through the dataset version's {@link RowIdIndex}. */
  public static VectorSchemaRoot takeRowIds(Dataset ds, long[] rowIds, List<LanceField> fields, BufferAllocator allocator)
      throws IOException {
    List<Fragment> fragments = ds.manifest().fragments();
    RowIdIndex index = ds.rowIdIndex();
    int[] fragOf = new int[rowIds.length];
    long[] rowOf = new long[rowIds.length];
    for (int i = 0; i < rowIds.length; i++) {
      long at = index.lookup(rowIds[i]);
      if (at < 0) {
        throw TableErrors.rowIdNotFound(ds.location(), ds.version(), rowIds[i], at == RowIdIndex.DELETED);
      }
      fragOf[i] = (int) (at >>> 32);
      rowOf[i] = at & 0xFFFFFFFFL;
    }
    return gather(ds, fragments, fragOf, rowOf, fields, allocator);
  }

  // The physical offset of the k-th (0-based) live row: the smallest p with k + 1 live rows in
  // [0, p], found by binary search since live(p) = p + 1 - deleted(<= p) never decreases.
  static long physical(RoaringBitmap deleted, long k) {
    if (deleted.isEmpty()) {
      return k;
    }
    long lo = k;
    long hi = k + deleted.getLongCardinality();
    while (lo < hi) {
      long mid = (lo + hi) >>> 1;
      long live = mid + 1 - deleted.rankLong((int) mid);
      if (live >= k + 1) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  // Reads fragments.get(fragOf[i]) physical row rowOf[i] for every i, in that order.
  private static VectorSchemaRoot gather(Dataset ds, List<Fragment> fragments, int[] fragOf, long[] rowOf,
      List<LanceField> fields, BufferAllocator allocator) throws IOException {
    long[] offsets = rowOf;
    // Take each fragment's rows first: variable-width vectors must be filled in index order, so
    // rows are copied into the result afterwards, one output row after another.
    List<VectorSchemaRoot> opened = new ArrayList<>();
    FieldVector[][] sources = new FieldVector[fragments.size()][];
    List<FieldVector> out = new ArrayList<>();
    try {
      // Each fragment's rows, in the order asked (one pass over the rows, not one per fragment).
      int[] counts = new int[fragments.size()];
      for (int i = 0; i < offsets.length; i++) {
        counts[fragOf[i]]++;
      }
      long[][] rowsOf = new long[fragments.size()][];
      for (int frag = 0; frag < fragments.size(); frag++) {
        rowsOf[frag] = new long[counts[frag]];
        counts[frag] = 0;
      }
      for (int i = 0; i < offsets.length; i++) {
        rowsOf[fragOf[i]][counts[fragOf[i]]++] = rowOf[i];
      }
      takeFromFragments(ds, fragments, fields, rowsOf, sources, opened, allocator);
      // Gather buffer by buffer: Arrow's copyFromSafe cannot copy every nesting.
      int[] slot = new int[fragments.size()];
      int used = 0;
      for (int frag = 0; frag < fragments.size(); frag++) {
        slot[frag] = sources[frag] == null ? -1 : used++;
      }
      int[] from = new int[offsets.length];
      int[] local = new int[offsets.length];
      int[] next = new int[fragments.size()];
      for (int i = 0; i < offsets.length; i++) {
        from[i] = slot[fragOf[i]];
        local[i] = next[fragOf[i]]++;
      }
      for (int c = 0; c < fields.size(); c++) {
        if (offsets.length == 0) {
          FieldVector v = fields.get(c).toArrow().createVector(allocator);
          v.allocateNew();
          v.setValueCount(0);
          out.add(v);
          continue;
        }
        FieldVector[] srcs = new FieldVector[used];
        for (int frag = 0; frag < fragments.size(); frag++) {
          if (slot[frag] >= 0) {
            srcs[slot[frag]] = sources[frag][c];
          }
        }
        out.add(Gather.gather(srcs, from, local, allocator));
      }
      return asDataset(out, fields, allocator);
    } catch (IOException | RuntimeException e) {
      out.forEach(FieldVector::close);
      throw e;
    } finally {
      opened.forEach(VectorSchemaRoot::close);
    }
  }

  // The gathered vectors carry the names and nullability the data files had; the dataset's
  // (after renames or nullability changes) are applied by moving the buffers, by position, into
  // vectors of the dataset's fields. Consumes the gathered vectors.
  private static VectorSchemaRoot asDataset(List<FieldVector> gathered, List<LanceField> fields,
      BufferAllocator allocator) {
    List<Field> want = new ArrayList<>();
    fields.forEach(f -> want.add(f.toArrow()));
    VectorSchemaRoot result = VectorSchemaRoot.create(new Schema(want), allocator);
    try (VectorSchemaRoot from = new VectorSchemaRoot(gathered);
        ArrowRecordBatch batch =
            new VectorUnloader(from).getRecordBatch()) {
      new VectorLoader(result).load(batch);
      return result;
    } catch (RuntimeException e) {
      result.close();
      throw e;
    }
  }

  /** Receives the rows {@code [from, to)} of a block of vectors read by {@link #forEachFloatVector}. */
  public interface VectorBlock {
    void accept(int from, int to) throws IOException;
  }

  /**
   * Reads the vectors of a {@code fixed_size_list<float32, dim>} field at the fragment's rows
   * (physical offsets, sorted and distinct) block by block into {@code out}, straight from the
   * data file's pages with no Arrow vector: each block, as many rows as {@code out} holds, row
   * {@code rows[from + i]} at {@code out[i * dim]}, is passed to {@code block}. Only when one data
   * file holds the field as plain floats without nulls and no overlay changes it (see
   * {@link LanceFileReader#floatVectors}); returns false, with nothing read, otherwise: the
   * caller then uses {@link #takeFromFragment}.
   */
  public static boolean forEachFloatVector(Dataset ds, Fragment fragment, LanceField field, long[] rows, float[] out,
      VectorBlock block, BufferAllocator allocator) throws IOException {
    Set<Integer> ids = new HashSet<>();
    field.flatten().forEach(f -> ids.add(f.id()));
    for (Overlay o : fragment.overlays()) {
      if (o.fieldIds().stream().anyMatch(ids::contains)) {
        return false;
      }
    }
    List<FragmentFiles.Part> parts = FragmentFiles.plan(fragment, List.of(field), ds.location());
    if (parts.size() != 1 || parts.get(0).rowsOnly) {
      return false; // not held: all nulls
    }
    FragmentFiles.Part part = parts.get(0);
    DataFileCache cache = SessionState.of(ds).dataFiles();
    try (LanceFileReader reader = FragmentFiles.openCached(cache, ds.store(), part, allocator)) {
      String name = FragmentFiles.columnNames(reader, part, ds.location()).get(0);
      // The file must hold the dataset's type (same dimension), as it does unless altered.
      boolean same = reader.lanceSchema().fields().stream().anyMatch(f -> f.name().equals(name)
          && SchemaCheck.sameType(f.toArrow(), field.toArrow()));
      if (!same) {
        return false;
      }
      try (FloatVectorReader vectors = reader.floatVectors(name)) {
        if (vectors == null) {
          return false;
        }
        int n = Math.max(1, out.length / vectors.dimension());
        for (int from = 0; from < rows.length; from += n) {
          int to = Math.min(rows.length, from + n);
          vectors.read(rows, from, to, out);
          block.accept(from, to);
        }
        return true;
      }
    }
  }

  // takeFromFragment for every fragment with rows, into sources. From a remote store the fragments'
  // takes run at once on the session's I/O threads (each waits on its requests); the caller runs
  // those no I/O thread has started, so takes nested in I/O tasks cannot starve the pool.
  private static void takeFromFragments(Dataset ds, List<Fragment> fragments, List<LanceField> fields,
      long[][] rowsOf, FieldVector[][] sources, List<VectorSchemaRoot> opened, BufferAllocator allocator)
      throws IOException {
    List<Integer> wanted = new ArrayList<>();
    for (int frag = 0; frag < fragments.size(); frag++) {
      if (rowsOf[frag].length > 0) {
        wanted.add(frag);
      }
    }
    if (wanted.size() <= 1 || !ds.store().remote()) {
      for (int frag : wanted) {
        sources[frag] = takeFromFragment(ds, fragments.get(frag), fields, rowsOf[frag], opened, allocator);
      }
      return;
    }
    List<List<VectorSchemaRoot>> openedBy = new ArrayList<>();
    for (int k = 0; k < wanted.size(); k++) {
      openedBy.add(Collections.synchronizedList(new ArrayList<>()));
    }
    List<Integer> order = new ArrayList<>();
    for (int k = 0; k < wanted.size(); k++) {
      order.add(k);
    }
    try {
      List<FieldVector[]> got = Tasks.foreach(order).executeWith(SessionState.of(ds).pools().io()).callerRuns()
          .run(k -> takeFromFragment(ds, fragments.get(wanted.get(k)), fields, rowsOf[wanted.get(k)],
              openedBy.get(k), allocator));
      for (int k = 0; k < wanted.size(); k++) {
        sources[wanted.get(k)] = got.get(k);
      }
    } finally {
      // Every take has ended, whether or not all succeeded: the caller closes what they opened.
      openedBy.forEach(opened::addAll);
    }
  }

  // Returns, per wanted field, a vector holding the fragment's rows in the order asked; the
  // vectors belong to the roots added to opened, which the caller closes. (Vector search's
  // refine calls it directly, rows sorted, to skip the reordering gather.)
  public static FieldVector[] takeFromFragment(Dataset ds, Fragment fragment, List<LanceField> fields, long[] rows,
      List<VectorSchemaRoot> opened, BufferAllocator allocator) throws IOException {
    FieldVector[] cols = new FieldVector[fields.size()];
    List<FragmentFiles.Part> parts = FragmentFiles.plan(fragment, fields, ds.location());
    DataFileCache cache = SessionState.of(ds).dataFiles();
    for (FragmentFiles.Part part : parts) {
      try (LanceFileReader reader = FragmentFiles.openCached(cache, ds.store(), part, allocator)) {
        VectorSchemaRoot got = reader.take(rows, FragmentFiles.columnNames(reader, part, ds.location()));
        opened.add(got);
        for (var e : part.outputs.entrySet()) {
          cols[e.getKey()] = got.getVector(e.getValue());
        }
      }
    }
    List<FieldVector> nulls = FragmentFiles.complete(cols, parts, fields, rows.length, allocator);
    if (!nulls.isEmpty()) {
      opened.add(new VectorSchemaRoot(nulls));
    }
    try (OverlayApplier overlays = OverlayApplier.open(ds.store(), ds.location(), fragment, fields, allocator)) {
      if (overlays != null) {
        opened.add(new VectorSchemaRoot(overlays.apply(cols, rows)));
      }
    }
    return cols;
  }
}
