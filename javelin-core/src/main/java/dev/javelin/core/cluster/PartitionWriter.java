package dev.javelin.core.cluster;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.encoding.WriteOptions;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.io.ObjectInfo;
import dev.javelin.table.io.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Pass 2 of a clustering: takes the sources' rows batch by batch, in source order, and appends
 * each row to its destination's file (one file per destination fragment), so each destination
 * gets its rows in source order. Memory is bounded by the destinations, not the data: a
 * destination buffers at most {@code batchSize} rows before they go to its writer, and its
 * buffer is released once its last row is written; nothing ever holds a whole fragment.
 * Files are created under {@code data/} and remembered, so {@link #deleteAll} removes them.
 */
final class PartitionWriter implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(PartitionWriter.class.getName());

  private final ObjectStore store;
  private final LanceSchema schema;
  private final LanceFileVersion version;
  private final BufferAllocator allocator;
  private final long[] counts;
  private final int batchSize;
  private final Slot[] slots;
  private final List<String> keys = new ArrayList<>();
  private long buffered;
  private long peakBuffered;
  // Per destination, while a batch is routed: its row count, then its next position (else 0).
  private int[] perDestination;

  /** {@code counts[d]}: how many rows destination d receives in all (each at least one). */
  PartitionWriter(ObjectStore store, LanceSchema schema, LanceFileVersion version, BufferAllocator allocator,
      long[] counts, int batchSize) {
    this.store = store;
    this.schema = schema;
    this.version = version;
    this.allocator = allocator;
    this.counts = counts.clone();
    this.batchSize = batchSize;
    this.slots = new Slot[counts.length];
    for (int d = 0; d < counts.length; d++) {
      slots[d] = new Slot();
    }
  }

  /** Routes the rows of {@code batch}: row j goes to destination {@code dest[first + j]}. */
  void accept(VectorSchemaRoot batch, int[] dest, int first) throws IOException {
    int n = batch.getRowCount();
    int columns = batch.getFieldVectors().size();
    // Group the batch's rows by destination (a stable counting sort), then copy column by column:
    // row-by-row copies across all columns were the cost of this pass.
    if (perDestination == null) {
      perDestination = new int[slots.length];
    }
    int[] touched = new int[Math.min(n, slots.length)];
    int nTouched = 0;
    for (int j = 0; j < n; j++) {
      int d = dest[first + j];
      if (perDestination[d]++ == 0) {
        touched[nTouched++] = d;
      }
    }
    int[] starts = new int[nTouched + 1];
    for (int t = 0; t < nTouched; t++) {
      starts[t + 1] = starts[t] + perDestination[touched[t]];
      perDestination[touched[t]] = starts[t]; // now the next free position of its rows
    }
    int[] rows = new int[n];
    for (int j = 0; j < n; j++) {
      rows[perDestination[dest[first + j]]++] = j;
    }
    for (int t = 0; t < nTouched; t++) {
      int d = touched[t];
      perDestination[d] = 0;
      Slot s = slots[d];
      int pos = starts[t];
      int end = starts[t + 1];
      while (pos < end) {
        int k = Math.min(end - pos, batchSize - s.buffered);
        if (s.file != null || s.written + s.buffered + k > counts[d]) {
          throw new IllegalStateException("Destination " + d + " got more than its " + counts[d] + " rows");
        }
        if (s.buffer == null) {
          s.buffer = VectorSchemaRoot.create(batch.getSchema(), allocator);
          // Sized for the rows it will take, so the copies do not regrow its buffers.
          long size = Math.min(batchSize, counts[d] - s.written);
          for (FieldVector v : s.buffer.getFieldVectors()) {
            v.setInitialCapacity((int) size);
          }
          s.buffer.allocateNew();
        }
        for (int c = 0; c < columns; c++) {
          FieldVector to = s.buffer.getVector(c);
          FieldVector from = batch.getVector(c);
          for (int i = 0; i < k; i++) {
            to.copyFromSafe(rows[pos + i], s.buffered + i, from);
          }
        }
        s.buffered += k;
        buffered += k;
        peakBuffered = Math.max(peakBuffered, buffered);
        pos += k;
        if (s.buffered == batchSize || s.written + s.buffered == counts[d]) {
          flush(s);
          if (s.written == counts[d]) {
            finish(s);
          }
        }
      }
    }
  }

  private void flush(Slot s) throws IOException {
    if (s.writer == null) {
      s.name = UUID.randomUUID() + ".lance";
      String key = "data/" + s.name;
      keys.add(key);
      s.writer = LanceFileWriter.create(store.newOutputFile(key), schema,
          WriteOptions.builder().version(version).build());
    }
    s.buffer.setRowCount(s.buffered);
    s.writer.write(s.buffer);
    s.written += s.buffered;
    buffered -= s.buffered;
    s.buffered = 0;
    // Fresh buffers for the next rows: the writer may still refer to these until it encodes them.
    s.buffer.close();
    s.buffer = null;
  }

  private void finish(Slot s) throws IOException {
    s.writer.close();
    String key = "data/" + s.name;
    long size = 0;
    for (ObjectInfo o : store.list(key)) {
      if (o.key().equals(key)) {
        size = o.size();
      }
    }
    s.file = DataFile.of(s.name, s.writer.fieldColumnIndices(), version, size);
    s.writer = null;
  }

  /** The destination fragments (ids unset), in destination order, once every row has arrived. */
  List<Fragment> fragments() {
    List<Fragment> out = new ArrayList<>();
    for (int d = 0; d < slots.length; d++) {
      if (slots[d].file == null) {
        throw new IllegalStateException("Destination " + d + " received " + (slots[d].written + slots[d].buffered)
            + " of its " + counts[d] + " rows");
      }
      out.add(Fragment.of(slots[d].file, counts[d]));
    }
    return out;
  }

  /** The keys of every file created. */
  List<String> keys() {
    return List.copyOf(keys);
  }

  /** The most rows buffered at once, over all destinations (at most destinations x batchSize). */
  long peakBufferedRows() {
    return peakBuffered;
  }

  /** Aborts open writers and deletes every file created. */
  void deleteAll() {
    for (Slot s : slots) {
      if (s.writer != null) {
        s.writer.abort();
        s.writer = null;
      }
    }
    for (String key : keys) {
      try {
        store.delete(key);
      } catch (IOException | RuntimeException e) {
        LOG.log(Level.WARNING, "Could not delete " + key + " of a failed clustering in " + store.location(), e);
      }
    }
  }

  /** Releases the row buffers (files are left as they are: see {@link #deleteAll}). */
  @Override
  public void close() {
    for (Slot s : slots) {
      if (s.buffer != null) {
        s.buffer.close();
        s.buffer = null;
      }
    }
  }

  private static final class Slot {
    VectorSchemaRoot buffer;
    int buffered;
    long written;
    String name;
    LanceFileWriter writer;
    DataFile file;
  }
}
