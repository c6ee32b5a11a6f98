package dev.javelin.core.internal.write;

import dev.javelin.core.exceptions.MergeInsertException;
import dev.javelin.format.schema.LanceSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;

/**
 * The source of a merge insert, read once from its stream: its key set on the heap (key to row
 * number), and its rows spilled as they arrive to a temporary Arrow IPC file, one record batch per
 * incoming batch, so a source of any size is merged in memory bounded by its key set and one
 * batch. Rows are read back from the file in row-number order, a batch at a time. Every attempt of
 * the merge reuses the file; {@link #close()} deletes it (also when reading the source fails).
 */
public final class MergeSource implements AutoCloseable {
  /** Rows per batch handed to a writer. */
  private static final int WRITE_BATCH = 8192;

  private final BufferAllocator allocator;
  private final Schema schema;
  private final Path spill;
  private int[] firstRow = new int[16];
  private int batchCount;
  private final int[] keyColumns;
  // Composite keys, as lists of values.
  private final Map<Object, Integer> keys = new HashMap<>();
  // A single integer key column in a primitive map instead, so the target's keys are looked up
  // without boxing (the lookup runs once per target row).
  private final LongIntMap longKeys;
  // A single string or binary key column: its keys' bytes in a map hashed from the Arrow bytes,
  // so neither side's keys become objects.
  private final BytesIntMap bytesKeys;
  private final boolean textKeys;
  private long minKey = Long.MAX_VALUE;
  private long maxKey = Long.MIN_VALUE;
  private int rows;
  private FileChannel channel;
  private ArrowFileReader reader;
  private int loaded = -1;

  private MergeSource(BufferAllocator allocator, Schema schema, int[] keyColumns, Path spill) {
    this.allocator = allocator;
    this.schema = schema;
    this.keyColumns = keyColumns;
    this.spill = spill;
    ArrowType single = keyColumns.length == 1 ? schema.getFields().get(keyColumns[0]).getType() : null;
    this.longKeys = single instanceof ArrowType.Int ? new LongIntMap() : null;
    this.textKeys = single instanceof ArrowType.Utf8 || single instanceof ArrowType.LargeUtf8;
    this.bytesKeys = textKeys || single instanceof ArrowType.Binary || single instanceof ArrowType.LargeBinary
        ? new BytesIntMap() : null;
  }

  /**
   * Reads the whole source stream (not closed), spilling its rows to a new file in
   * {@code spillDirectory} and keeping its keys.
   *
   * @throws dev.javelin.table.exceptions.SchemaMismatchException if the source's columns are not the dataset's
   * @throws MergeInsertException if two source rows have the same key
   */
  public static MergeSource read(ArrowReader source, LanceSchema dataset, List<String> on, BufferAllocator parent,
      Path spillDirectory, String location) {
    Schema target = dataset.toArrow();
    int[] keyColumns = keyColumns(target, on, location);
    Path spill;
    try {
      Files.createDirectories(spillDirectory);
      spill = Files.createTempFile(spillDirectory, "javelin-merge-source-", ".arrow");
    } catch (IOException e) {
      throw new UncheckedIOException("Could not create the merge insert's spill file in " + spillDirectory, e);
    }
    BufferAllocator allocator;
    try {
      allocator = parent.newChildAllocator("merge insert source " + location, 0, Long.MAX_VALUE);
    } catch (RuntimeException e) {
      deleteQuietly(spill, e);
      throw e;
    }
    MergeSource s = new MergeSource(allocator, target, keyColumns, spill);
    try {
      VectorSchemaRoot in = source.getVectorSchemaRoot();
      int[] order = SchemaCheck.align(target, in.getSchema(), location);
      // The incoming columns in the dataset's order, written as they are (their types are the
      // dataset's, checked above): no copy of the batch is made.
      List<FieldVector> ordered = new ArrayList<>(order.length);
      for (int c : order) {
        ordered.add(in.getVector(c));
      }
      VectorSchemaRoot view = new VectorSchemaRoot(target.getFields(), ordered, 0);
      List<FieldVector> keyVectors = s.keyVectors(view);
      try (FileChannel out = FileChannel.open(spill, StandardOpenOption.WRITE);
          ArrowFileWriter writer = new ArrowFileWriter(view, null, out)) {
        writer.start();
        while (source.loadNextBatch()) {
          int n = in.getRowCount();
          if (n == 0) {
            continue;
          }
          view.setRowCount(n);
          s.addKeys(keyVectors, n, location);
          writer.writeBatch();
          s.addBatch(n);
        }
        writer.end();
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

  // Adds the keys of the next n source rows, failing on one seen before.
  private void addKeys(List<FieldVector> keyVectors, int n, String location) {
    for (int i = 0; i < n; i++) {
      int row = rows + i;
      int before;
      if (longKeys != null) {
        BaseIntVector v = (BaseIntVector) keyVectors.get(0);
        if (v.isNull(i)) {
          continue; // a NULL key matches nothing, as in SQL
        }
        long k = v.getValueAsLong(i);
        before = longKeys.putIfAbsent(k, row);
        minKey = Math.min(minKey, k);
        maxKey = Math.max(maxKey, k);
      } else if (bytesKeys != null) {
        ValueVector v = keyVectors.get(0);
        if (v.isNull(i)) {
          continue;
        }
        before = bytesKeys.putIfAbsent(v, i, row);
      } else {
        Object key = key(keyVectors, i);
        if (key == null) {
          continue;
        }
        Integer was = keys.putIfAbsent(key, row);
        before = was == null ? -1 : was;
      }
      if (before >= 0) {
        throw new MergeInsertException("The source has two rows with key " + describe(keyVectors, i)
            + " (rows " + before + " and " + row + "); each key may appear once in a merge insert's source: "
            + location);
      }
    }
  }

  // Records that the next n rows are the spill file's next record batch.
  private void addBatch(int n) {
    if (batchCount == firstRow.length) {
      firstRow = Arrays.copyOf(firstRow, firstRow.length * 2);
    }
    firstRow[batchCount++] = rows;
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
   * The source rows of the first {@code n} rows of a batch of the target ({@code keyVectors}, see
   * {@link #keyVectors}): for each target row whose key a source row has, in order, the target
   * row goes to {@code tRows} and the source row to {@code sRows}.
   *
   * @return how many target rows matched
   */
  public int match(List<FieldVector> keyVectors, int n, int[] tRows, int[] sRows) {
    int m = 0;
    if (longKeys != null) {
      // Most target rows match nothing: a range check and a filter that fits in cache turn
      // them away before the map (a random memory access per row) is probed.
      FieldVector v = keyVectors.get(0);
      boolean nulls = v.getNullCount() > 0;
      if (v instanceof BigIntVector big && !nulls) {
        ArrowBuf data = big.getDataBuffer();
        for (int i = 0; i < n; i++) {
          long k = data.getLong((long) i << 3);
          if (k >= minKey && k <= maxKey && longKeys.mayContain(k)) {
            int s = longKeys.get(k);
            if (s >= 0) {
              tRows[m] = i;
              sRows[m++] = s;
            }
          }
        }
        return m;
      }
      BaseIntVector ints = (BaseIntVector) v;
      for (int i = 0; i < n; i++) {
        if (nulls && v.isNull(i)) {
          continue;
        }
        long k = ints.getValueAsLong(i);
        if (k >= minKey && k <= maxKey && longKeys.mayContain(k)) {
          int s = longKeys.get(k);
          if (s >= 0) {
            tRows[m] = i;
            sRows[m++] = s;
          }
        }
      }
      return m;
    }
    if (bytesKeys != null) {
      ValueVector v = keyVectors.get(0);
      boolean nulls = v.getNullCount() > 0;
      for (int i = 0; i < n; i++) {
        if (nulls && v.isNull(i)) {
          continue;
        }
        int s = bytesKeys.get(v, i);
        if (s >= 0) {
          tRows[m] = i;
          sRows[m++] = s;
        }
      }
      return m;
    }
    for (int i = 0; i < n; i++) {
      int s = find(key(keyVectors, i));
      if (s >= 0) {
        tRows[m] = i;
        sRows[m++] = s;
      }
    }
    return m;
  }

  /** The source row with this key (as {@link #key} makes it), or -1. */
  public int find(Object key) {
    if (key == null) {
      return -1;
    }
    if (longKeys != null) {
      return longKeys.get(((Number) key).longValue());
    }
    if (bytesKeys != null) {
      ByteBuffer b = key instanceof Text t ? ByteBuffer.wrap(t.copyBytes()) : (ByteBuffer) key;
      return bytesKeys.get(bytes(b));
    }
    Integer at = keys.get(key);
    return at == null ? -1 : at;
  }

  /** How many rows the source has. */
  public int rows() {
    return rows;
  }

  /**
   * The distinct non-null keys of a single key column, as an index lookup takes them: numbers
   * (ascending) or strings.
   */
  public List<Object> sortedKeys() {
    List<Object> out = new ArrayList<>(keyCount());
    if (longKeys != null) {
      long[] all = new long[longKeys.size];
      int[] n = {0};
      longKeys.forEachKey(k -> all[n[0]++] = k);
      Arrays.sort(all);
      for (long k : all) {
        out.add(k);
      }
      return out;
    }
    if (bytesKeys != null) {
      bytesKeys.forEachKey(k -> out.add(textKeys ? new String(k, StandardCharsets.UTF_8) : k));
      return out;
    }
    for (Object k : keys.keySet()) {
      out.add(k instanceof Text t ? t.toString() : k instanceof ByteBuffer b ? bytes(b) : k);
    }
    return out;
  }

  /**
   * The ranges [low, high] that a single integer key's values fall into, if at most
   * {@code maxRuns} ranges hold them all and the ranges hold at most twice as many values as there
   * are keys; else null.
   */
  public List<long[]> keyRuns(int maxRuns) {
    if (longKeys == null || longKeys.size == 0) {
      return null;
    }
    List<Object> sorted = sortedKeys();
    List<long[]> runs = new ArrayList<>();
    long low = (Long) sorted.get(0);
    long high = low;
    long width = 0;
    for (int i = 1; i < sorted.size(); i++) {
      long k = (Long) sorted.get(i);
      if (k - high > 4 || k - high < 0) { // (< 0: the difference overflowed)
        runs.add(new long[] {low, high});
        width += high - low + 1;
        if (runs.size() >= maxRuns) {
          return null;
        }
        low = k;
      }
      high = k;
    }
    runs.add(new long[] {low, high});
    width += high - low + 1;
    for (long[] r : runs) {
      if (r[1] - r[0] < 0) {
        return null; // a run wider than a long counts
      }
    }
    return width > 0 && width <= 2L * sorted.size() ? runs : null;
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  /** How many rows have a non-null key. */
  public int keyCount() {
    return longKeys != null ? longKeys.size : bytesKeys != null ? bytesKeys.size : keys.size();
  }

  /** The spill file's record batch holding source row {@code row}. */
  private int batchOf(int row) {
    int b = Arrays.binarySearch(firstRow, 0, batchCount, row);
    return b >= 0 ? b : -b - 2;
  }

  // The spill file's record batch b, loaded into the reader's root (the one batch held).
  private VectorSchemaRoot load(int b) throws IOException {
    if (reader == null) {
      channel = FileChannel.open(spill, StandardOpenOption.READ);
      reader = new ArrowFileReader(channel, allocator);
    }
    if (loaded != b) {
      loaded = -1;
      if (!reader.loadRecordBatch(reader.getRecordBlocks().get(b))) {
        throw new IOException("The merge insert's spill file " + spill + " has no record batch " + b);
      }
      loaded = b;
    }
    return reader.getVectorSchemaRoot();
  }

  /**
   * Copies source row {@code row} into row {@code at} of vectors of the dataset's columns. Rows
   * are read a batch of the spill file at a time: callers go in ascending row order where they
   * can, so each batch is read once.
   */
  public void copyRow(int row, List<FieldVector> into, int at) throws IOException {
    int b = batchOf(row);
    VectorSchemaRoot batch = load(b);
    int offset = row - firstRow[b];
    for (int c = 0; c < into.size(); c++) {
      into.get(c).copyFromSafe(offset, at, batch.getVector(c));
    }
  }

  /** The dataset's schema, which the source's batches are held in. */
  public Schema schema() {
    return schema;
  }

  /** The allocator the source's batches are read into (closed with it). */
  public BufferAllocator allocator() {
    return allocator;
  }

  /** A sink of batches of source rows. */
  @FunctionalInterface
  public interface BatchSink {
    void write(VectorSchemaRoot batch) throws IOException;
  }

  /**
   * Hands the given source rows to {@code sink} in batches of the dataset's schema, each from one
   * batch of the spill file and no larger (the sink does not keep them). {@code sourceRows} must
   * be ascending (repeats allowed), so the spill file is read once, front to back.
   */
  public void write(int[] sourceRows, int count, BatchSink sink) throws IOException {
    int start = 0;
    while (start < count) {
      int b = batchOf(sourceRows[start]);
      int first = firstRow[b];
      int end = b + 1 < batchCount ? firstRow[b + 1] : rows;
      int n = 1;
      boolean contiguous = true;
      while (start + n < count && n < WRITE_BATCH && sourceRows[start + n] < end) {
        contiguous &= sourceRows[start + n] == sourceRows[start + n - 1] + 1;
        n++;
      }
      VectorSchemaRoot batch = load(b);
      int offset = sourceRows[start] - first;
      if (contiguous && offset == 0 && n == batch.getRowCount()) {
        sink.write(batch); // a whole batch (all of an insert-only source's): no copy
      } else if (contiguous) {
        try (VectorSchemaRoot slice = batch.slice(offset, n)) {
          sink.write(slice);
        }
      } else {
        try (VectorSchemaRoot out = VectorSchemaRoot.create(schema, allocator)) {
          List<FieldVector> vectors = out.getFieldVectors();
          final int rowsOut = n;
          vectors.forEach(v -> {
            v.setInitialCapacity(rowsOut);
            v.allocateNew();
          });
          for (int i = 0; i < n; i++) {
            int from = sourceRows[start + i] - first;
            for (int c = 0; c < vectors.size(); c++) {
              vectors.get(c).copyFromSafe(from, i, batch.getVector(c));
            }
          }
          vectors.forEach(v -> v.setValueCount(rowsOut));
          out.setRowCount(n);
          sink.write(out);
        }
      }
      start += n;
    }
  }

  /** The spill file (for tests: it is gone once the source is closed). */
  Path spillFile() {
    return spill;
  }

  /**
   * An open-addressing map from byte strings (keys of a string or binary column, read from the
   * Arrow buffers) to a non-negative int (-1: absent): the keys' bytes in one array, each slot
   * holding its entry's hash and number, so a lookup hashes the target's bytes in place and
   * compares bytes only on equal hashes.
   */
  private static final class BytesIntMap {
    private int[] slots = new int[1024]; // entry number + 1; 0: empty
    private int[] slotHashes = new int[1024];
    private byte[] data = new byte[4096];
    private long[] starts = new long[256]; // entry -> offset in data
    private int[] lengths = new int[256];
    private int[] values = new int[256];
    private int dataSize;
    private int size;
    private byte[] scratch = new byte[64];

    /** Adds the key at row i of v with this value unless it is there: then returns its value (else -1). */
    int putIfAbsent(ValueVector v, int i, int value) {
      int len = load(v, i);
      int h = hash(scratch, len);
      int at = probe(scratch, len, h);
      if (slots[at] != 0) {
        return values[slots[at] - 1];
      }
      if (size == starts.length) {
        starts = Arrays.copyOf(starts, size * 2);
        lengths = Arrays.copyOf(lengths, size * 2);
        values = Arrays.copyOf(values, size * 2);
      }
      if (dataSize + len > data.length) {
        data = Arrays.copyOf(data, Math.max(dataSize + len, data.length * 2));
      }
      System.arraycopy(scratch, 0, data, dataSize, len);
      starts[size] = dataSize;
      lengths[size] = len;
      values[size] = value;
      dataSize += len;
      slots[at] = ++size;
      slotHashes[at] = h;
      if (size * 2 > slots.length) {
        grow();
      }
      return -1;
    }

    /** The value of the key at row i of v, or -1. */
    int get(ValueVector v, int i) {
      int len = load(v, i);
      int at = probe(scratch, len, hash(scratch, len));
      return slots[at] == 0 ? -1 : values[slots[at] - 1];
    }

    int get(byte[] key) {
      int at = probe(key, key.length, hash(key, key.length));
      return slots[at] == 0 ? -1 : values[slots[at] - 1];
    }

    void forEachKey(Consumer<byte[]> to) {
      for (int e = 0; e < size; e++) {
        to.accept(Arrays.copyOfRange(data, (int) starts[e], (int) starts[e] + lengths[e]));
      }
    }

    // Copies the bytes of row i of a variable-width vector into scratch; returns their length.
    private int load(ValueVector v, int i) {
      long start;
      long end;
      if (v instanceof BaseVariableWidthVector w) {
        start = w.getStartOffset(i);
        end = w.getEndOffset(i);
      } else {
        ArrowBuf offsets = ((BaseLargeVariableWidthVector) v).getOffsetBuffer();
        start = offsets.getLong((long) i * BaseLargeVariableWidthVector.OFFSET_WIDTH);
        end = offsets.getLong((long) (i + 1) * BaseLargeVariableWidthVector.OFFSET_WIDTH);
      }
      int len = Math.toIntExact(end - start);
      if (len > scratch.length) {
        scratch = new byte[Math.max(len, scratch.length * 2)];
      }
      v.getDataBuffer().getBytes(start, scratch, 0, len);
      return len;
    }

    // The slot holding this key, or the empty slot where it would go.
    private int probe(byte[] key, int len, int h) {
      int mask = slots.length - 1;
      int at = mix(h) & mask;
      while (slots[at] != 0) {
        if (slotHashes[at] == h) {
          int e = slots[at] - 1;
          int from = (int) starts[e];
          if (lengths[e] == len && Arrays.equals(data, from, from + len, key, 0, len)) {
            return at;
          }
        }
        at = (at + 1) & mask;
      }
      return at;
    }

    private static int hash(byte[] b, int len) {
      int h = 0x9747b28c ^ len;
      for (int i = 0; i < len; i++) {
        h = (h ^ b[i]) * 0x01000193;
      }
      return h;
    }

    private static int mix(int h) {
      h ^= h >>> 16;
      h *= 0x85ebca6b;
      return h ^ (h >>> 13);
    }

    private void grow() {
      int[] oldSlots = slots;
      int[] oldHashes = slotHashes;
      slots = new int[oldSlots.length * 2];
      slotHashes = new int[oldSlots.length * 2];
      int mask = slots.length - 1;
      for (int j = 0; j < oldSlots.length; j++) {
        if (oldSlots[j] != 0) {
          int at = mix(oldHashes[j]) & mask;
          while (slots[at] != 0) {
            at = (at + 1) & mask;
          }
          slots[at] = oldSlots[j];
          slotHashes[at] = oldHashes[j];
        }
      }
    }
  }

  /**
   * An open-addressing map from long to a non-negative int (-1: absent), with a bit filter of
   * about 16 bits per key (one hash bit each) that answers most misses from a small array.
   */
  private static final class LongIntMap {
    private long[] keys = new long[1024];
    private int[] values = new int[1024];
    private boolean[] used = new boolean[1024];
    private int size;
    private long[] filter = new long[(1024 * 8) >>> 6];
    private int filterShift = 64 - Integer.numberOfTrailingZeros(1024 * 8);

    boolean mayContain(long key) {
      int bit = (int) ((key * 0x9E3779B97F4A7C15L) >>> filterShift);
      return (filter[bit >>> 6] & (1L << bit)) != 0;
    }

    private void addToFilter(long key) {
      int bit = (int) ((key * 0x9E3779B97F4A7C15L) >>> filterShift);
      filter[bit >>> 6] |= 1L << bit;
    }

    /** Adds the key with this value unless it is there: then returns its value (else -1). */
    int putIfAbsent(long key, int value) {
      if ((size + 1) * 2 > keys.length) {
        grow();
      }
      int mask = keys.length - 1;
      int at = slot(key) & mask;
      while (used[at]) {
        if (keys[at] == key) {
          return values[at];
        }
        at = (at + 1) & mask;
      }
      used[at] = true;
      size++;
      addToFilter(key);
      keys[at] = key;
      values[at] = value;
      return -1;
    }

    void forEachKey(LongConsumer to) {
      for (int i = 0; i < keys.length; i++) {
        if (used[i]) {
          to.accept(keys[i]);
        }
      }
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
      // Eight filter bits per slot: 16 or more per key at the map's load of at most a half.
      int bits = keys.length * 8;
      filter = new long[bits >>> 6];
      filterShift = 64 - Integer.numberOfTrailingZeros(bits);
      size = 0;
      for (int i = 0; i < oldKeys.length; i++) {
        if (oldUsed[i]) {
          putIfAbsent(oldKeys[i], oldValues[i]);
        }
      }
    }
  }

  @Override
  public void close() {
    RuntimeException failure = null;
    try {
      if (reader != null) {
        reader.close(); // closes the channel and frees the loaded batch
      } else if (channel != null) {
        channel.close();
      }
    } catch (IOException | RuntimeException e) {
      failure = e instanceof RuntimeException re ? re
          : new UncheckedIOException("Could not close the merge insert's spill file " + spill, (IOException) e);
    }
    reader = null;
    channel = null;
    try {
      allocator.close();
    } catch (RuntimeException e) {
      if (failure == null) {
        failure = e;
      } else {
        failure.addSuppressed(e);
      }
    }
    try {
      Files.deleteIfExists(spill);
    } catch (IOException e) {
      UncheckedIOException u = new UncheckedIOException("Could not delete the merge insert's spill file " + spill, e);
      if (failure == null) {
        failure = u;
      } else {
        failure.addSuppressed(u);
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private static void deleteQuietly(Path file, Exception cause) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      cause.addSuppressed(e);
    }
  }
}
