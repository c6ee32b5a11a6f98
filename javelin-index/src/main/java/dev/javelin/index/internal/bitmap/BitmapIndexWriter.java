package dev.javelin.index.internal.bitmap;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.WriteOptions;
import dev.javelin.index.RowAddressMap;
import dev.javelin.index.internal.scalar.ScalarValues;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import java.util.function.LongPredicate;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.longlong.LongIterator;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Collects (value, row address) pairs and writes a bitmap index's file: one row per distinct value
 * in ascending order, the null value first, each with its serialized row set.
 */
public final class BitmapIndexWriter implements AutoCloseable {
  // Keys per written batch: bounds one batch's binary column.
  private static final int KEYS_PER_BATCH = 1024;

  private final Field keyField;
  // One copy of each distinct value, at the slot its entry names (the writer copies keys from it,
  // which works for every column type without a setter per type).
  private final FieldVector distinct;
  private final TreeMap<Object, Slot> byValue = new TreeMap<>(ScalarValues.ORDER);
  private TreeMap<Integer, RoaringBitmap> nulls;
  private int slots;
  private long rows;

  private record Slot(int index, TreeMap<Integer, RoaringBitmap> rows) {}

  /**
   * @param valueType the indexed column's type
   * @throws IllegalArgumentException if values of that type cannot be indexed
   */
  public BitmapIndexWriter(ArrowType valueType, BufferAllocator allocator) {
    if (!ScalarValues.supports(valueType)) {
      throw new IllegalArgumentException("A bitmap index cannot be built on a column of type " + valueType);
    }
    this.keyField = new Field("keys", FieldType.nullable(valueType), null);
    this.distinct = keyField.createVector(allocator);
  }

  /** Adds the row at {@code address} holding {@code values[i]} (null or not). */
  public void add(FieldVector values, int i, long address) {
    set(values, i).computeIfAbsent((int) (address >>> 32), k -> new RoaringBitmap()).add((int) address);
    rows++;
  }

  /** Adds {@code n} rows: their values and row addresses. */
  public void add(FieldVector values, long[] addresses, int n) {
    for (int i = 0; i < n; i++) {
      add(values, i, addresses[i]);
    }
  }

  /**
   * Adds the rows of {@code rows} that {@code keep} accepts as holding {@code values[i]}.
   *
   * @return how many it did not accept
   */
  public long addAll(FieldVector values, int i, Roaring64NavigableMap rows, LongPredicate keep) {
    TreeMap<Integer, RoaringBitmap> set = set(values, i);
    long dropped = 0;
    LongIterator it = rows.getLongIterator();
    while (it.hasNext()) {
      long address = it.next();
      if (keep.test(address)) {
        set.computeIfAbsent((int) (address >>> 32), k -> new RoaringBitmap()).add((int) address);
        this.rows++;
      } else {
        dropped++;
      }
    }
    return dropped;
  }

  /**
   * Adds the rows of {@code rows}, at the addresses {@code map} gives them (deleted ones left out),
   * as holding {@code values[i]}.
   */
  public void addMapped(FieldVector values, int i, Roaring64NavigableMap rows, RowAddressMap map) {
    TreeMap<Integer, RoaringBitmap> set = set(values, i);
    LongIterator it = rows.getLongIterator();
    while (it.hasNext()) {
      long address = map.map(it.next());
      if (address != RowAddressMap.DELETED) {
        set.computeIfAbsent((int) (address >>> 32), k -> new RoaringBitmap()).add((int) address);
        this.rows++;
      }
    }
  }

  /**
   * Writes a copy of the bitmap index in {@code from}'s {@code oldDirectory} to {@code to}'s
   * {@code newDirectory} with every row at the address {@code map} gives it (deleted rows left
   * out), and {@code metadata} and {@code buffers} as {@link #write(ObjectStore, String, Map, List)}
   * takes them.
   *
   * @return the new file's size in bytes
   * @throws IOException if the old file cannot be read or the new one written
   */
  public static long remap(ObjectStore from, String oldDirectory, ObjectStore to, String newDirectory,
      RowAddressMap map, Map<String, String> metadata, List<byte[]> buffers, BufferAllocator allocator)
      throws IOException {
    ArrowType type;
    try (LanceFileReader r = LanceFileReader.open(from.open(oldDirectory + "/" + BitmapIndex.FILE_NAME), allocator)) {
      type = r.schema().getFields().get(0).getType();
    }
    try (BitmapIndexWriter w = new BitmapIndexWriter(type, allocator)) {
      BitmapIndex.scan(from, oldDirectory, allocator, (keys, i, rows) -> w.addMapped(keys, i, rows, map));
      return w.write(to, newDirectory, metadata, buffers);
    }
  }

  // The row set of the value values[i], made empty on first sight.
  private TreeMap<Integer, RoaringBitmap> set(FieldVector values, int i) {
    Object key = ScalarValues.read(values, i);
    TreeMap<Integer, RoaringBitmap> set;
    if (key == null) {
      if (nulls == null) {
        nulls = new TreeMap<>(Integer::compareUnsigned);
      }
      set = nulls;
    } else {
      Slot slot = byValue.get(key);
      if (slot == null) {
        distinct.copyFromSafe(i, slots, values);
        slot = new Slot(slots++, new TreeMap<>(Integer::compareUnsigned));
        byValue.put(key, slot);
      }
      set = slot.rows();
    }
    return set;
  }

  /** Rows added. */
  public long rows() {
    return rows;
  }

  /**
   * Writes {@code directory/bitmap_page_lookup.lance} in {@code store}.
   *
   * @return the file's size in bytes
   */
  public long write(ObjectStore store, String directory) throws IOException {
    return write(store, directory, Map.of(), List.of());
  }

  /**
   * Writes {@code directory/bitmap_page_lookup.lance} in {@code store} with {@code metadata} in its
   * schema and {@code buffers} as its global buffers from 1 on (a label list records its null lists
   * so).
   *
   * @return the file's size in bytes
   */
  public long write(ObjectStore store, String directory, Map<String, String> metadata, List<byte[]> buffers)
      throws IOException {
    distinct.setValueCount(slots);
    String path = directory + "/" + BitmapIndex.FILE_NAME;
    Schema schema = new Schema(List.of(keyField, new Field("bitmaps", FieldType.nullable(ArrowType.Binary.INSTANCE),
        null)), metadata);
    LanceFileWriter w = LanceFileWriter.create(store.newOutputFile(path), schema, WriteOptions.defaults());
    try (w; VectorSchemaRoot batch = VectorSchemaRoot.create(schema, distinct.getAllocator())) {
      batch.allocateNew();
      FieldVector keys = batch.getVector(0);
      VarBinaryVector bitmaps = (VarBinaryVector) batch.getVector(1);
      List<Map.Entry<Object, Slot>> entries = new ArrayList<>(byValue.entrySet());
      int n = 0;
      if (nulls != null) {
        keys.setNull(0);
        bitmaps.setSafe(0, RowIdTreeMaps.write(nulls));
        n = 1;
      }
      for (Map.Entry<Object, Slot> e : entries) {
        keys.copyFromSafe(e.getValue().index(), n, distinct);
        bitmaps.setSafe(n, RowIdTreeMaps.write(e.getValue().rows()));
        if (++n == KEYS_PER_BATCH) {
          batch.setRowCount(n);
          w.write(batch);
          batch.clear();
          batch.allocateNew();
          keys = batch.getVector(0);
          bitmaps = (VarBinaryVector) batch.getVector(1);
          n = 0;
        }
      }
      if (n > 0) {
        batch.setRowCount(n);
        w.write(batch);
      }
      for (byte[] b : buffers) {
        w.addGlobalBuffer(java.nio.ByteBuffer.wrap(b));
      }
    }
    return w.fileSize();
  }

  @Override
  public void close() {
    distinct.close();
  }
}
