package dev.javelin.index.internal.labellist;

import dev.javelin.index.internal.bitmap.BitmapIndexWriter;
import dev.javelin.index.internal.bitmap.RowIdTreeMaps;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Collects (list, row address) pairs and writes a label list index: each element of a row's list
 * goes to the bitmap of that element (a null or empty list adds nothing), as Lance unnests a list
 * column before building its bitmap.
 */
public final class LabelListWriter implements AutoCloseable {
  /**
   * The index version lance-core 7.0.0 gives the label lists it builds: the file also records
   * the rows whose list is null, in the global buffer {@link #NULLS_KEY} names in its schema.
   */
  public static final int INDEX_VERSION = 1;
  /** The schema metadata key naming the global buffer of a version 1 file's null-list rows. */
  public static final String NULLS_KEY = "lance:label_list_nulls";

  private final boolean recordsNulls;
  private final Roaring64NavigableMap nullLists = new Roaring64NavigableMap();

  private final BitmapIndexWriter labels;
  private long rows;

  /**
   * @param labelType the type of the list elements
   * @param indexVersion 0 (lance-core before 7.0.0: no null lists recorded) or {@link #INDEX_VERSION}
   * @throws IllegalArgumentException if elements of that type cannot be indexed
   */
  public LabelListWriter(ArrowType labelType, int indexVersion, BufferAllocator allocator) {
    this.labels = new BitmapIndexWriter(labelType, allocator);
    this.recordsNulls = indexVersion >= INDEX_VERSION;
  }

  /**
   * Adds {@code n} rows of a list column with their row addresses.
   *
   * @throws IllegalArgumentException if {@code lists} is not a list or large list vector
   */
  public void add(FieldVector lists, long[] addresses, int n) {
    if (lists instanceof ListVector l) {
      FieldVector elements = l.getDataVector();
      for (int i = 0; i < n; i++) {
        if (l.isNull(i)) {
          nullLists.addLong(addresses[i]);
        } else {
          addRange(elements, l.getElementStartIndex(i), l.getElementEndIndex(i), addresses[i]);
        }
      }
    } else if (lists instanceof LargeListVector l) {
      FieldVector elements = l.getDataVector();
      for (int i = 0; i < n; i++) {
        if (l.isNull(i)) {
          nullLists.addLong(addresses[i]);
        } else {
          addRange(elements, Math.toIntExact(l.getElementStartIndex(i)), Math.toIntExact(l.getElementEndIndex(i)),
              addresses[i]);
        }
      }
    } else {
      throw new IllegalArgumentException("A label list index takes a list column, not " + lists.getField());
    }
    rows += n;
  }

  private void addRange(FieldVector elements, int start, int end, long address) {
    for (int j = start; j < end; j++) {
      labels.add(elements, j, address);
    }
  }

  /**
   * Adds the rows of {@code rows} that {@code keep} accepts as holding the label {@code values[i]}
   * (an existing index's entry carried over).
   *
   * @return how many it did not accept
   */
  public long addAll(FieldVector values, int i, Roaring64NavigableMap rows, LongPredicate keep) {
    return labels.addAll(values, i, rows, keep);
  }

  /**
   * Adds the rows of {@code rows} that {@code keep} accepts as holding a null list (an existing
   * index's carried over).
   *
   * @return how many it did not accept
   */
  public long addNullLists(Roaring64NavigableMap rows, LongPredicate keep) {
    long dropped = 0;
    for (var it = rows.getLongIterator(); it.hasNext(); ) {
      long address = it.next();
      if (keep.test(address)) {
        nullLists.addLong(address);
      } else {
        dropped++;
      }
    }
    return dropped;
  }

  /** List rows added by {@link #add} (null and empty lists included). */
  public long rows() {
    return rows;
  }

  /**
   * Writes the index's file under {@code directory} in {@code store} as lance-core 7.0.0 writes
   * one: null list elements under the null key and, from version 1 on, the null lists' rows in
   * global buffer 1.
   *
   * @return the file's size in bytes
   */
  public long write(ObjectStore store, String directory) throws IOException {
    if (!recordsNulls) {
      return labels.write(store, directory);
    }
    return labels.write(store, directory, Map.of(NULLS_KEY, "1"), List.of(RowIdTreeMaps.write(nullLists)));
  }

  @Override
  public void close() {
    labels.close();
  }
}
