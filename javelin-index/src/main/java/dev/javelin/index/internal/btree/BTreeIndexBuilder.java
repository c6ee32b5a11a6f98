package dev.javelin.index.internal.btree;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.WriteOptions;
import dev.javelin.io.LocalOutputFile;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.PendingFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Builds a BTree index from (value, row address) batches in any order: an external sort. Rows are
 * gathered in Arrow vectors (off heap, no object per row) and sorted through an {@code int}
 * permutation; above the memory budget a sorted run is spilled to a temporary Lance file, and the
 * runs are merged at the end. Ties are ordered by row address, so the output is deterministic.
 *
 * <pre>{@code
 * try (BTreeIndexBuilder b = new BTreeIndexBuilder(valueField, BTreeIndexBuilder.Options.defaults(), allocator)) {
 *   b.add(values, rowAddresses);   // any number of times
 *   b.finish(store, "_indices/" + uuid);
 * }
 * }</pre>
 */
public final class BTreeIndexBuilder implements AutoCloseable {
  /** Build options. */
  public static final class Options {
    /** Lance's default page size, in rows. */
    public static final int DEFAULT_BATCH_SIZE = 4096;
    /** Default bytes of sort buffer before a run is spilled. */
    public static final long DEFAULT_MEMORY_BUDGET = 64L << 20;

    private final int batchSize;
    private final long memoryBudget;
    private final Path spillDirectory;

    private Options(int batchSize, long memoryBudget, Path spillDirectory) {
      if (batchSize < 1) {
        throw new IllegalArgumentException("batchSize must be positive, got " + batchSize);
      }
      this.batchSize = batchSize;
      this.memoryBudget = memoryBudget;
      this.spillDirectory = spillDirectory;
    }

    public static Options defaults() {
      return new Options(DEFAULT_BATCH_SIZE, DEFAULT_MEMORY_BUDGET, null);
    }

    /** Rows per index page. */
    public Options batchSize(int rows) {
      return new Options(rows, memoryBudget, spillDirectory);
    }

    /** Bytes of values and addresses held before a sorted run is spilled to disk. */
    public Options memoryBudget(long bytes) {
      return new Options(batchSize, bytes, spillDirectory);
    }

    /** Where spilled runs go (a fresh temporary directory under it); default: the system's. */
    public Options spillDirectory(Path dir) {
      return new Options(batchSize, memoryBudget, dir);
    }

    public int batchSize() {
      return batchSize;
    }
  }

  private final Field valueField;
  private final Keys keys;
  private final Options options;
  private final BufferAllocator allocator;
  private FieldVector values;
  private UInt8Vector ids;
  private int count;
  private final List<Path> runs = new ArrayList<>();
  private Path spillDir;
  private int spilledRuns;

  /**
   * @param valueField the indexed column's field (its type decides the ordering)
   * @throws IllegalArgumentException if a BTree cannot index the type
   */
  public BTreeIndexBuilder(Field valueField, Options options, BufferAllocator allocator) {
    this.valueField = new Field("values", FieldType.nullable(valueField.getType()), null);
    this.keys = Keys.forType(valueField.getType());
    this.options = options;
    this.allocator = allocator;
    newBuffer();
  }

  private void newBuffer() {
    values = valueField.createVector(allocator);
    ids = new UInt8Vector("ids", allocator);
    count = 0;
  }

  /** Rows spilled to disk so far, as sorted runs (for tests and progress). */
  public int spilledRuns() {
    return spilledRuns;
  }

  /**
   * Adds rows: {@code values[i]} is at row address {@code addresses[i]}. The vectors stay the
   * caller's.
   */
  public void add(ValueVector batchValues, long[] addresses) throws IOException {
    add(batchValues, addresses, 0, addresses.length);
  }

  /** Adds {@code length} rows from position {@code offset} of both. */
  public void add(ValueVector batchValues, long[] addresses, int offset, int length) throws IOException {
    if (!batchValues.getField().getType().equals(valueField.getType())) {
      throw new IllegalArgumentException("Values of type " + batchValues.getField().getType()
          + " added to a BTree of " + valueField.getType());
    }
    for (int k = 0; k < length; k++) {
      values.copyFromSafe(offset + k, count, batchValues);
      ids.setSafe(count, addresses[offset + k]);
      count++;
    }
    values.setValueCount(count);
    ids.setValueCount(count);
    if (values.getBufferSize() + ids.getBufferSize() >= options.memoryBudget) {
      spill();
    }
  }

  /** Adds one row: value {@code index} of {@code batchValues} at {@code address}. */
  void addOne(ValueVector batchValues, int index, long address) throws IOException {
    values.copyFromSafe(index, count, batchValues);
    ids.setSafe(count, address);
    count++;
    values.setValueCount(count);
    ids.setValueCount(count);
    if (values.getBufferSize() + ids.getBufferSize() >= options.memoryBudget) {
      spill();
    }
  }

  /** Sorts the buffered rows: a permutation ordered by (value, address). */
  private int[] sortBuffer() {
    int[] perm = new int[count];
    for (int i = 0; i < count; i++) {
      perm[i] = i;
    }
    long[] addr = new long[count];
    for (int i = 0; i < count; i++) {
      addr[i] = ids.get(i);
    }
    if (keys.hasLongKeys()) {
      // Fixed-width values: sort on primitive copies of the keys, which is several times faster
      // than reading both vectors per comparison. Nulls get a flag that sorts them first.
      long[] k = new long[count];
      boolean[] isNull = new boolean[count];
      for (int i = 0; i < count; i++) {
        isNull[i] = values.isNull(i);
        k[i] = isNull[i] ? 0 : keys.longKey(values, i);
      }
      IntSort.sort(perm, (a, b) -> {
        if (isNull[a] != isNull[b]) {
          return isNull[a] ? -1 : 1;
        }
        int c = Long.compare(k[a], k[b]);
        return c != 0 ? c : Long.compareUnsigned(addr[a], addr[b]);
      });
    } else {
      IntSort.sort(perm, (a, b) -> {
        int c = keys.compare(values, a, values, b);
        return c != 0 ? c : Long.compareUnsigned(addr[a], addr[b]);
      });
    }
    return perm;
  }

  private void spill() throws IOException {
    if (count == 0) {
      return;
    }
    if (spillDir == null) {
      spillDir = options.spillDirectory == null ? Files.createTempDirectory("javelin-btree-")
          : Files.createTempDirectory(options.spillDirectory, "javelin-btree-");
    }
    int[] perm = sortBuffer();
    Path run = spillDir.resolve("run-" + runs.size() + ".lance");
    runs.add(run);
    try (VectorSchemaRoot out = VectorSchemaRoot.create(PageSink.dataSchema(valueField), allocator);
        LanceFileWriter w = LanceFileWriter.create(new LocalOutputFile(run), out.getSchema(),
            WriteOptions.builder().compression(false).build())) {
      int chunk = 8192;
      for (int start = 0; start < count; start += chunk) {
        int n = Math.min(chunk, count - start);
        out.clear();
        out.allocateNew();
        UInt8Vector outIds = (UInt8Vector) out.getVector(1);
        for (int k = 0; k < n; k++) {
          int r = perm[start + k];
          out.getVector(0).copyFromSafe(r, k, values);
          outIds.setSafe(k, ids.get(r));
        }
        out.setRowCount(n);
        w.write(out);
      }
    }
    spilledRuns++;
    values.close();
    ids.close();
    newBuffer();
  }

  /**
   * Sorts what was added and writes {@code page_data.lance} and {@code page_lookup.lance} under
   * {@code directory} (a key prefix of {@code store}, e.g. {@code _indices/{uuid}}). On failure
   * the files are deleted.
   */
  public void finish(ObjectStore store, String directory) throws IOException {
    String dataKey = directory + "/" + PageSink.PAGE_DATA;
    String lookupKey = directory + "/" + PageSink.PAGE_LOOKUP;
    boolean done = false;
    try (PageSink sink = new PageSink(valueField, options.batchSize, store.newOutputFile(dataKey),
        store.newOutputFile(lookupKey), allocator)) {
      try {
        if (runs.isEmpty()) {
          int[] perm = sortBuffer();
          for (int r : perm) {
            sink.add(values, r, ids.get(r));
          }
        } else {
          spill();
          merge(sink);
        }
        sink.finish();
        done = true;
      } finally {
        if (!done) {
          sink.abort();
        }
      }
    } finally {
      if (!done) {
        PendingFiles.deleteAll(store, List.of(dataKey, lookupKey));
      }
    }
  }

  /** One spilled run being read: its current batch and position. */
  private static final class Run implements AutoCloseable {
    final LanceFileReader reader;
    final ArrowReader batches;
    VectorSchemaRoot root;
    int pos;

    Run(Path file, BufferAllocator allocator) throws IOException {
      reader = LanceFileReader.open(file, allocator);
      batches = reader.read(ReadOptions.builder().batchSize(8192).build());
    }

    /** Moves to the next row; false at the end. */
    boolean advance() throws IOException {
      pos++;
      while (root == null || pos >= root.getRowCount()) {
        if (!batches.loadNextBatch()) {
          return false;
        }
        root = batches.getVectorSchemaRoot();
        pos = 0;
      }
      return true;
    }

    @Override
    public void close() throws IOException {
      batches.close();
      reader.close();
    }
  }

  private void merge(PageSink sink) throws IOException {
    List<Run> open = new ArrayList<>();
    try {
      Comparator<Run> order = (a, b) -> {
        int c = keys.compare(a.root.getVector(0), a.pos, b.root.getVector(0), b.pos);
        return c != 0 ? c : Long.compareUnsigned(ids(a), ids(b));
      };
      PriorityQueue<Run> heap = new PriorityQueue<>(order);
      for (Path p : runs) {
        Run r = new Run(p, allocator);
        open.add(r);
        r.pos = -1;
        if (r.advance()) {
          heap.add(r);
        }
      }
      while (!heap.isEmpty()) {
        Run r = heap.poll();
        sink.add(r.root.getVector(0), r.pos, ids(r));
        if (r.advance()) {
          heap.add(r);
        }
      }
    } finally {
      for (Run r : open) {
        r.close();
      }
    }
  }

  private static long ids(Run r) {
    return ((UInt8Vector) r.root.getVector(1)).get(r.pos);
  }

  /** Frees the sort buffer and deletes spilled runs. */
  @Override
  public void close() {
    values.close();
    ids.close();
    if (spillDir != null) {
      try (Stream<Path> files = Files.list(spillDir)) {
        for (Path p : (Iterable<Path>) files::iterator) {
          Files.deleteIfExists(p);
        }
        Files.deleteIfExists(spillDir);
      } catch (IOException e) {
        throw new UncheckedIOException("Could not delete spilled runs in " + spillDir, e);
      }
    }
  }
}
