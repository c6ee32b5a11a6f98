package dev.javelin.core.internal.write;

import dev.javelin.core.exceptions.MergeInsertException;
import dev.javelin.format.schema.LanceSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The source of a merge insert, read once from its stream: its rows, copied into Arrow batches of
 * the dataset's schema (off-heap, in a child allocator the merge closes), and its key set on the
 * heap, key to row number. The source is the small side of the merge: the target is only ever
 * streamed past this key set. Every attempt of the merge reuses it.
 */
public final class MergeSource implements AutoCloseable {
  /** Rows per batch handed to a writer. */
  private static final int WRITE_BATCH = 8192;

  private final BufferAllocator allocator;
  private final Schema schema;
  private final List<VectorSchemaRoot> batches = new ArrayList<>();
  private int[] firstRow = new int[16];
  private final int[] keyColumns;
  private final Map<Object, Integer> keys = new HashMap<>();
  // A single integer key column is also kept in a primitive map, so the target's keys are looked
  // up without boxing (the lookup runs once per target row).
  private final LongIntMap longKeys;
  private int rows;

  private MergeSource(BufferAllocator allocator, Schema schema, int[] keyColumns) {
    this.allocator = allocator;
    this.schema = schema;
    this.keyColumns = keyColumns;
    this.longKeys = keyColumns.length == 1 && schema.getFields().get(keyColumns[0]).getType() instanceof ArrowType.Int
        ? new LongIntMap() : null;
  }

  /**
   * Reads the whole source stream (not closed) into memory of {@code parent}.
   *
   * @throws dev.javelin.table.exceptions.SchemaMismatchException if the source's columns are not the dataset's
   * @throws MergeInsertException if two source rows have the same key
   */
  public static MergeSource read(ArrowReader source, LanceSchema dataset, List<String> on, BufferAllocator parent,
      String location) {
    Schema target = dataset.toArrow();
    int[] keyColumns = keyColumns(target, on, location);
    BufferAllocator allocator = parent.newChildAllocator("merge insert source " + location, 0, Long.MAX_VALUE);
    MergeSource s = new MergeSource(allocator, target, keyColumns);
    try {
      VectorSchemaRoot in = source.getVectorSchemaRoot();
      int[] order = SchemaCheck.align(target, in.getSchema(), location);
      while (source.loadNextBatch()) {
        s.add(in, order, location);
      }
      return s;
    } catch (IOException e) {
      s.close();
      throw new UncheckedIOException("Could not read the merge insert source: " + location, e);
    } catch (RuntimeException e) {
      s.close();
      throw e;
    }
  }

  /**
   * The positions of the key columns in the dataset's schema.
   *
   * @throws MergeInsertException if there is none, or one is missing, repeated or nested
   */
  public static int[] keyColumns(Schema target, List<String> on, String location) {
    if (on == null || on.isEmpty()) {
      throw new MergeInsertException("A merge insert needs key columns (on(...)): " + location);
    }
    int[] out = new int[on.size()];
    List<Field> fields = target.getFields();
    for (int k = 0; k < on.size(); k++) {
      String name = on.get(k);
      int at = -1;
      for (int i = 0; i < fields.size(); i++) {
        if (fields.get(i).getName().equals(name)) {
          at = i;
        }
      }
      if (at < 0) {
        throw new MergeInsertException("Key column '" + name + "' does not exist in the dataset: " + location);
      }
      ArrowType t = fields.get(at).getType();
      if (t instanceof ArrowType.Struct || t instanceof ArrowType.List || t instanceof ArrowType.LargeList
          || t instanceof ArrowType.FixedSizeList || t instanceof ArrowType.Map) {
        throw new MergeInsertException("Key column '" + name + "' is a " + t + " column; keys must be scalar: "
            + location);
      }
      for (int j = 0; j < k; j++) {
        if (out[j] == at) {
          throw new MergeInsertException("Key column '" + name + "' is named twice: " + location);
        }
      }
      out[k] = at;
    }
    return out;
  }

  private void add(VectorSchemaRoot in, int[] order, String location) {
    int n = in.getRowCount();
    if (n == 0) {
      return;
    }
    VectorSchemaRoot copy = VectorSchemaRoot.create(schema, allocator);
    batches.add(copy); // closed with the source from here on
    for (int c = 0; c < order.length; c++) {
      FieldVector from = in.getVector(order[c]);
      FieldVector to = copy.getVector(c);
      to.setInitialCapacity(n);
      to.allocateNew();
      for (int i = 0; i < n; i++) {
        to.copyFromSafe(i, i, from);
      }
      to.setValueCount(n);
    }
    copy.setRowCount(n);
    if (batches.size() > firstRow.length) {
      firstRow = Arrays.copyOf(firstRow, firstRow.length * 2);
    }
    firstRow[batches.size() - 1] = rows;
    List<FieldVector> keyVectors = keyVectors(copy);
    for (int i = 0; i < n; i++) {
      Object key = key(keyVectors, i);
      if (key == null) {
        continue; // a NULL key matches nothing, as in SQL
      }
      Integer before = keys.putIfAbsent(key, rows + i);
      if (before == null && longKeys != null) {
        longKeys.put(((BaseIntVector) keyVectors.get(0)).getValueAsLong(i), rows + i);
      }
      if (before != null) {
        throw new MergeInsertException("The source has two rows with key " + describe(keyVectors, i)
            + " (rows " + before + " and " + (rows + i) + "); each key may appear once in a merge insert's source: "
            + location);
      }
    }
    rows = Math.addExact(rows, n);
  }

  /** The vectors of the key columns in a batch of the dataset's columns (or a scan naming them). */
  public List<FieldVector> keyVectors(VectorSchemaRoot batch) {
    List<FieldVector> out = new ArrayList<>(keyColumns.length);
    for (int c : keyColumns) {
      out.add(batch.getVector(schema.getFields().get(c).getName()));
    }
    return out;
  }

  /** The key columns' names, in the order of {@code on}. */
  public List<String> keyNames() {
    List<String> out = new ArrayList<>();
    for (int c : keyColumns) {
      out.add(schema.getFields().get(c).getName());
    }
    return out;
  }

  /**
   * The key of row {@code i} as a value with content equality, or null if any key column is NULL
   * there.
   */
  public static Object key(List<FieldVector> keyVectors, int i) {
    if (keyVectors.size() == 1) {
      return value(keyVectors.get(0), i);
    }
    List<Object> parts = new ArrayList<>(keyVectors.size());
    for (FieldVector v : keyVectors) {
      Object x = value(v, i);
      if (x == null) {
        return null;
      }
      parts.add(x);
    }
    return parts;
  }

  private static Object value(ValueVector v, int i) {
    if (v.isNull(i)) {
      return null;
    }
    Object x = v.getObject(i);
    // byte[] compares by identity; a ByteBuffer by content.
    return x instanceof byte[] b ? ByteBuffer.wrap(b) : x;
  }

  /** The key of row {@code i} for messages: {@code id=7} or {@code (a=1, b='x')}. */
  public static String describe(List<FieldVector> keyVectors, int i) {
    List<String> parts = new ArrayList<>();
    for (FieldVector v : keyVectors) {
      Object x = v.isNull(i) ? null : v.getObject(i);
      String shown = x == null ? "NULL" : x instanceof byte[] b ? Arrays.toString(b)
          : v.getField().getType() instanceof ArrowType.Utf8 || v.getField().getType() instanceof ArrowType.LargeUtf8
              ? "'" + x + "'" : String.valueOf(x);
      parts.add(v.getField().getName() + "=" + shown);
    }
    return parts.size() == 1 ? parts.get(0) : "(" + String.join(", ", parts) + ")";
  }

  /**
   * The source row whose key is the key of row {@code i} of {@code keyVectors} (a batch of the
   * target, see {@link #keyVectors}), or -1 (also for a NULL key).
   */
  public int find(List<FieldVector> keyVectors, int i) {
    if (longKeys != null) {
      BaseIntVector v = (BaseIntVector) keyVectors.get(0);
      return v.isNull(i) ? -1 : longKeys.get(v.getValueAsLong(i));
    }
    return find(key(keyVectors, i));
  }

  /** The source row with this key, or -1. */
  public int find(Object key) {
    Integer at = key == null ? null : keys.get(key);
    return at == null ? -1 : at;
  }

  /** How many rows the source has. */
  public int rows() {
    return rows;
  }

  /** The distinct non-null keys. */
  public Iterable<Object> keys() {
    return keys.keySet();
  }

  /** How many rows have a non-null key. */
  public int keyCount() {
    return keys.size();
  }

  /** The batch and offset in it of source row {@code row}. */
  private int batchOf(int row) {
    int b = Arrays.binarySearch(firstRow, 0, batches.size(), row);
    return b >= 0 ? b : -b - 2;
  }

  /** Copies source row {@code row} into row {@code at} of vectors of the dataset's columns. */
  public void copyRow(int row, List<FieldVector> into, int at) {
    int b = batchOf(row);
    VectorSchemaRoot batch = batches.get(b);
    int offset = row - firstRow[b];
    for (int c = 0; c < into.size(); c++) {
      into.get(c).copyFromSafe(offset, at, batch.getVector(c));
    }
  }

  /** Copies source row {@code row}'s value of column {@code column} into row {@code at} of {@code into}. */
  public void copyValue(int row, int column, FieldVector into, int at) {
    int b = batchOf(row);
    into.copyFromSafe(row - firstRow[b], at, batches.get(b).getVector(column));
  }

  /** The dataset's schema, which the source's batches are held in. */
  public Schema schema() {
    return schema;
  }

  /** The allocator the source is held in (closed with it). */
  public BufferAllocator allocator() {
    return allocator;
  }

  /** A sink of batches of source rows. */
  @FunctionalInterface
  public interface BatchSink {
    void write(VectorSchemaRoot batch) throws IOException;
  }

  /**
   * Hands the given source rows, in order, to {@code sink} in batches of the dataset's schema
   * (each batch closed after the sink returns).
   */
  public void write(int[] sourceRows, int count, BatchSink sink) throws IOException {
    for (int start = 0; start < count; start += WRITE_BATCH) {
      int n = Math.min(WRITE_BATCH, count - start);
      try (VectorSchemaRoot out = VectorSchemaRoot.create(schema, allocator)) {
        List<FieldVector> vectors = out.getFieldVectors();
        vectors.forEach(v -> {
          v.setInitialCapacity(n);
          v.allocateNew();
        });
        for (int i = 0; i < n; i++) {
          copyRow(sourceRows[start + i], vectors, i);
        }
        vectors.forEach(v -> v.setValueCount(n));
        out.setRowCount(n);
        sink.write(out);
      }
    }
  }

  /** An open-addressing map from long to a non-negative int (-1: absent). */
  private static final class LongIntMap {
    private long[] keys = new long[1024];
    private int[] values = new int[1024];
    private boolean[] used = new boolean[1024];
    private int size;

    void put(long key, int value) {
      if ((size + 1) * 2 > keys.length) {
        grow();
      }
      int mask = keys.length - 1;
      int at = slot(key) & mask;
      while (used[at] && keys[at] != key) {
        at = (at + 1) & mask;
      }
      if (!used[at]) {
        used[at] = true;
        size++;
      }
      keys[at] = key;
      values[at] = value;
    }

    int get(long key) {
      int mask = keys.length - 1;
      int at = slot(key) & mask;
      while (used[at]) {
        if (keys[at] == key) {
          return values[at];
        }
        at = (at + 1) & mask;
      }
      return -1;
    }

    private static int slot(long key) {
      long h = key * 0x9E3779B97F4A7C15L;
      return (int) (h ^ (h >>> 32));
    }

    private void grow() {
      long[] oldKeys = keys;
      int[] oldValues = values;
      boolean[] oldUsed = used;
      keys = new long[oldKeys.length * 2];
      values = new int[oldKeys.length * 2];
      used = new boolean[oldKeys.length * 2];
      size = 0;
      for (int i = 0; i < oldKeys.length; i++) {
        if (oldUsed[i]) {
          put(oldKeys[i], oldValues[i]);
        }
      }
    }
  }

  @Override
  public void close() {
    batches.forEach(VectorSchemaRoot::close);
    batches.clear();
    allocator.close();
  }
}
