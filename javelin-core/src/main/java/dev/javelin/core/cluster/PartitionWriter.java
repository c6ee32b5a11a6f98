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
    int columns = batch.getFieldVectors().size();
    for (int j = 0; j < batch.getRowCount(); j++) {
      int d = dest[first + j];
      Slot s = slots[d];
      if (s.file != null) {
        throw new IllegalStateException("Destination " + d + " got more than its " + counts[d] + " rows");
      }
      if (s.buffer == null) {
        s.buffer = VectorSchemaRoot.create(batch.getSchema(), allocator);
        // Sized for the rows it will take, so row-by-row copies do not regrow its buffers.
        long rows = Math.min(batchSize, counts[d] - s.written);
        for (org.apache.arrow.vector.FieldVector v : s.buffer.getFieldVectors()) {
          v.setInitialCapacity((int) rows);
        }
        s.buffer.allocateNew();
      }
      for (int c = 0; c < columns; c++) {
        s.buffer.getVector(c).copyFromSafe(j, s.buffered, batch.getVector(c));
      }
      s.buffered++;
      buffered++;
      peakBuffered = Math.max(peakBuffered, buffered);
      if (s.buffered == batchSize || s.written + s.buffered == counts[d]) {
        flush(s);
        if (s.written == counts[d]) {
          finish(s);
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
