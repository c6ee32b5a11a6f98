package dev.javelin.core.internal.overlay;

import dev.javelin.core.internal.scan.DatasetReader;
import dev.javelin.core.internal.scan.FragmentFiles;
import dev.javelin.core.internal.scan.Take;
import dev.javelin.format.Gather;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.schema.LanceField;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.Fragment;
import dev.javelin.table.Overlay;
import dev.javelin.table.exceptions.TableErrors;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Applies a fragment's data overlays to the vectors read from its base files: for each wanted
 * field, a row takes its value from the newest overlay holding that row and field, and keeps the
 * base value otherwise. The overlays holding any wanted field are read whole when this is opened
 * (an overlay holds only the rows it changed); {@link #close} frees them.
 *
 * <p>The seam for readers: {@link DatasetReader} calls {@link #apply(FieldVector[], long, int)}
 * per batch of physical rows, {@link Take} calls {@link #apply(FieldVector[], long[])} for the
 * rows it took. Both run before deleted rows are dropped, so deletions apply as always.
 */
public final class OverlayApplier implements AutoCloseable {
  /** One overlay's rows and the values it holds for the wanted fields (null where it holds none). */
  private static final class Layer {
    final long[] offsets;
    final FieldVector[] values;

    Layer(long[] offsets, FieldVector[] values) {
      this.offsets = offsets;
      this.values = values;
    }
  }

  // Newest first.
  private final List<Layer> layers;
  private final List<AutoCloseable> owned;
  private final BufferAllocator allocator;

  private OverlayApplier(List<Layer> layers, List<AutoCloseable> owned, BufferAllocator allocator) {
    this.layers = layers;
    this.owned = owned;
    this.allocator = allocator;
  }

  /**
   * The applier of the fragment's overlays that hold one of {@code fields}, or null when none does
   * (the common case, which costs nothing).
   */
  public static OverlayApplier open(ObjectStore store, String location, Fragment fragment, List<LanceField> fields,
      BufferAllocator allocator) throws IOException {
    List<Overlay> overlays = fragment.overlays();
    if (overlays.isEmpty()) {
      return null;
    }
    Set<Integer> wanted = new HashSet<>();
    fields.forEach(f -> f.flatten().forEach(x -> wanted.add(x.id())));
    List<Layer> layers = new ArrayList<>();
    List<AutoCloseable> owned = new ArrayList<>();
    try {
      for (int k = overlays.size() - 1; k >= 0; k--) {
        Overlay o = overlays.get(k);
        if (o.fieldIds().stream().noneMatch(wanted::contains)) {
          continue;
        }
        layers.add(read(store, location, fragment, o, fields, owned, allocator));
      }
    } catch (IOException | RuntimeException e) {
      closeAll(owned);
      throw e;
    }
    return layers.isEmpty() ? null : new OverlayApplier(layers, owned, allocator);
  }

  // Reads one overlay whole: its row offsets and, per wanted field it holds, the values.
  private static Layer read(ObjectStore store, String location, Fragment fragment, Overlay o, List<LanceField> fields,
      List<AutoCloseable> owned, BufferAllocator allocator) throws IOException {
    // The overlay file lists its fields as a data file does, so the fragment-file planning
    // (matching by field id, renamed or pruned fields) applies to it as to a one-file fragment.
    List<FragmentFiles.Part> parts = FragmentFiles.plan(Fragment.of(o.file(), o.numRows()), fields, location);
    FragmentFiles.Part part = parts.get(0);
    try (LanceFileReader reader = FragmentFiles.open(store, part, allocator)) {
      if (reader.numRows() != o.numRows()) {
        throw TableErrors.corrupt(location, "Overlay file " + o.path() + " has " + reader.numRows() + " rows but "
            + o.numRows() + " are recorded for fragment " + fragment.id());
      }
      long[] all = new long[(int) o.numRows()];
      Arrays.setAll(all, i -> i);
      List<String> names = new ArrayList<>(FragmentFiles.columnNames(reader, part, location));
      names.add(Overlay.ROW_OFFSET);
      VectorSchemaRoot got = reader.take(all, names);
      owned.add(got);
      FieldVector[] values = new FieldVector[fields.size()];
      for (var e : part.outputs.entrySet()) {
        values[e.getKey()] = got.getVector(e.getValue());
      }
      // Fields whose file shape is older than the dataset's are brought up to date; the slots
      // the overlay does not hold stay null (complete() would fill them with nulls).
      FieldVector[] shaped = values.clone();
      List<FieldVector> made = FragmentFiles.complete(shaped, List.of(part), fields, all.length, allocator);
      owned.add(() -> made.forEach(FieldVector::close));
      for (var e : part.outputs.entrySet()) {
        values[e.getKey()] = shaped[e.getKey()];
      }
      UInt4Vector rows = (UInt4Vector) got.getVector(Overlay.ROW_OFFSET);
      long[] offsets = new long[all.length];
      for (int i = 0; i < offsets.length; i++) {
        offsets[i] = Integer.toUnsignedLong(rows.get(i));
        if (offsets[i] >= fragment.physicalRows() || (i > 0 && offsets[i] <= offsets[i - 1])) {
          throw TableErrors.corrupt(location, "Overlay file " + o.path() + " has row offset " + offsets[i] + " at "
              + i + ", not ascending within the " + fragment.physicalRows() + " rows of fragment " + fragment.id());
        }
      }
      return new Layer(offsets, values);
    }
  }

  /**
   * Overlays physical rows [start, start + rows) held in {@code out} (one vector per wanted field,
   * replaced where an overlay holds a row). Returns the vectors made, which the caller closes.
   */
  public List<FieldVector> apply(FieldVector[] out, long start, int rows) {
    List<FieldVector> made = new ArrayList<>();
    try {
      for (int c = 0; c < out.length; c++) {
        int[] source = null;
        int[] row = null;
        List<FieldVector> srcs = new ArrayList<>();
        srcs.add(out[c]);
        for (Layer l : layers) {
          if (l.values[c] == null) {
            continue;
          }
          int lo = lowerBound(l.offsets, start);
          int hi = lowerBound(l.offsets, start + rows);
          if (lo == hi) {
            continue;
          }
          if (source == null) {
            source = new int[rows];
            row = identity(rows);
          }
          srcs.add(l.values[c]);
          for (int j = lo; j < hi; j++) {
            int r = (int) (l.offsets[j] - start);
            if (source[r] == 0) { // a newer layer did not claim it
              source[r] = srcs.size() - 1;
              row[r] = j;
            }
          }
        }
        if (source != null) {
          out[c] = gather(srcs, source, row, made);
        }
      }
      return made;
    } catch (RuntimeException e) {
      made.forEach(FieldVector::close);
      throw e;
    }
  }

  /**
   * Overlays the given physical rows, {@code out[c]} holding their values in this order. Returns
   * the vectors made, which the caller closes.
   */
  public List<FieldVector> apply(FieldVector[] out, long[] rows) {
    List<FieldVector> made = new ArrayList<>();
    try {
      for (int c = 0; c < out.length; c++) {
        int[] source = null;
        int[] row = null;
        List<FieldVector> srcs = new ArrayList<>();
        srcs.add(out[c]);
        for (Layer l : layers) {
          if (l.values[c] == null) {
            continue;
          }
          int slot = -1;
          for (int i = 0; i < rows.length; i++) {
            int j = Arrays.binarySearch(l.offsets, rows[i]);
            if (j < 0) {
              continue;
            }
            if (source == null) {
              source = new int[rows.length];
              row = identity(rows.length);
            }
            if (slot < 0) {
              srcs.add(l.values[c]);
              slot = srcs.size() - 1;
            }
            if (source[i] == 0) {
              source[i] = slot;
              row[i] = j;
            }
          }
        }
        if (source != null) {
          out[c] = gather(srcs, source, row, made);
        }
      }
      return made;
    } catch (RuntimeException e) {
      made.forEach(FieldVector::close);
      throw e;
    }
  }

  private FieldVector gather(List<FieldVector> srcs, int[] source, int[] row, List<FieldVector> made) {
    FieldVector v = Gather.gather(srcs.toArray(new FieldVector[0]), source, row, allocator);
    made.add(v);
    return v;
  }

  private static int[] identity(int n) {
    int[] out = new int[n];
    Arrays.setAll(out, i -> i);
    return out;
  }

  // The first index whose offset is >= value.
  private static int lowerBound(long[] sorted, long value) {
    int i = Arrays.binarySearch(sorted, value);
    return i >= 0 ? i : -i - 1;
  }

  @Override
  public void close() {
    closeAll(owned);
  }

  private static void closeAll(List<AutoCloseable> owned) {
    for (int i = owned.size() - 1; i >= 0; i--) {
      try {
        owned.get(i).close();
      } catch (Exception e) {
        throw new IllegalStateException("Could not free overlay vectors", e);
      }
    }
    owned.clear();
  }
}
