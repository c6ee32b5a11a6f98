package dev.javelin.index.internal.labellist;

import dev.javelin.format.LanceFileReader;
import dev.javelin.index.RowAddressMap;
import dev.javelin.index.internal.bitmap.BitmapIndex;
import dev.javelin.index.internal.bitmap.BitmapIndexWriter;
import dev.javelin.index.internal.bitmap.RowIdTreeMaps;
import dev.javelin.index.internal.btree.ScalarQuery;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * An open label list index: for each distinct list element, the rows whose list holds it (Lance
 * stores it as a bitmap index over the unnested elements). Held in the heap; thread-safe.
 */
public final class LabelListIndex {
  private final BitmapIndex labels;

  private LabelListIndex(BitmapIndex labels) {
    this.labels = labels;
  }

  /**
   * Reads the label list index in {@code directory} of {@code store}.
   *
   * @throws IOException if its file cannot be read or is not one
   */
  public static LabelListIndex open(ObjectStore store, String directory, BufferAllocator allocator)
      throws IOException {
    return new LabelListIndex(BitmapIndex.open(store, directory, allocator));
  }

  /**
   * The rows whose list is null, as the label list in {@code directory} of {@code store} records
   * them (empty for a file that does not: lance-core before 7.0.0 recorded none).
   *
   * @throws IOException if its file cannot be read or the record is not a row set
   */
  public static Roaring64NavigableMap nullLists(ObjectStore store, String directory, BufferAllocator allocator)
      throws IOException {
    String path = directory + "/" + BitmapIndex.FILE_NAME;
    try (LanceFileReader r = LanceFileReader.open(store.open(path), allocator)) {
      String buffer = r.schema().getCustomMetadata().get(LabelListWriter.NULLS_KEY);
      if (buffer == null) {
        return new Roaring64NavigableMap();
      }
      try {
        ByteBuffer b = r.readGlobalBuffer(Integer.parseInt(buffer));
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        return RowIdTreeMaps.read(bytes);
      } catch (NumberFormatException e) {
        throw new IOException("Not a global buffer index in " + path + ": " + LabelListWriter.NULLS_KEY + "="
            + buffer, e);
      }
    }
  }

  /**
   * Writes a copy of the label list in {@code from}'s {@code oldDirectory} to {@code to}'s
   * {@code newDirectory} with every row at the address {@code map} gives it (deleted rows left
   * out), in the old file's layout (its null lists too when it records them).
   *
   * @return the new file's size in bytes
   * @throws IOException if the old file cannot be read or the new one written
   */
  public static long remap(ObjectStore from, String oldDirectory, ObjectStore to, String newDirectory,
      RowAddressMap map, BufferAllocator allocator) throws IOException {
    boolean recordsNulls;
    try (LanceFileReader r = LanceFileReader.open(from.open(oldDirectory + "/" + BitmapIndex.FILE_NAME), allocator)) {
      recordsNulls = r.schema().getCustomMetadata().containsKey(LabelListWriter.NULLS_KEY);
    }
    if (!recordsNulls) {
      return BitmapIndexWriter.remap(from, oldDirectory, to, newDirectory, map, Map.of(), List.of(), allocator);
    }
    Roaring64NavigableMap nulls = new Roaring64NavigableMap();
    nullLists(from, oldDirectory, allocator).forEach(a -> {
      long moved = map.map(a);
      if (moved != RowAddressMap.DELETED) {
        nulls.addLong(moved);
      }
    });
    return BitmapIndexWriter.remap(from, oldDirectory, to, newDirectory, map, Map.of(LabelListWriter.NULLS_KEY, "1"),
        List.of(RowIdTreeMaps.write(nulls)), allocator);
  }

  /** The type of the list elements. */
  public ArrowType labelType() {
    return labels.valueType();
  }

  /**
   * The rows whose list holds at least one of {@code values} (non-null, in the form
   * {@link ScalarQuery} takes).
   *
   * @throws IllegalArgumentException if a value cannot be compared with the elements
   */
  public Roaring64NavigableMap hasAny(List<Object> values) {
    return labels.search(ScalarQuery.in(values)).rows();
  }

  /**
   * The rows whose list holds every one of {@code values} (at least one).
   *
   * @throws IllegalArgumentException if {@code values} is empty or a value cannot be compared
   */
  public Roaring64NavigableMap hasAll(List<Object> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("array_has_all needs at least one label to search a label list index");
    }
    Roaring64NavigableMap out = null;
    for (Object v : values) {
      Roaring64NavigableMap rows = labels.search(ScalarQuery.equalTo(v)).rows();
      if (out == null) {
        out = rows;
      } else {
        out.and(rows);
      }
      if (out.isEmpty()) {
        break;
      }
    }
    return out;
  }
}
