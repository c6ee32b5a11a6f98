package dev.javelin.core.cluster;

import dev.javelin.format.Gather;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.WriteOptions;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.PendingFiles;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pass 2 of a clustering: takes the sources' rows batch by batch, in source order, and appends
 * each row to its destination's file (one file per destination fragment), so each destination
 * gets its rows in source order. A batch's rows for one destination are gathered column by
 * column into a piece that goes to the destination's writer at once (the writer shreds pieces
 * into pages). With more than one destination and processor, pieces are encoded and written on
 * a few writing threads, a destination always on the same one (so its pieces stay in order),
 * while the caller gathers the next batch: the caller's thread alone was the limit of this pass.
 * Memory is bounded by the destinations, not the data: besides the writers' page buffers, the
 * pieces not yet written hold at most {@code min(2 x threads, destinations) x batchSize} rows
 * (two batches a writing thread, so a thread descheduled for a while on a busy machine does not
 * stop the caller at once, and never more than a batch per destination); nothing ever holds a
 * whole fragment. Files are created under {@code data/} and remembered, so {@link #deleteAll}
 * removes them.
 */
final class PartitionWriter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PartitionWriter.class);
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final ObjectStore store;
  private final LanceSchema schema;
  private final LanceFileVersion version;
  private final BufferAllocator allocator;
  private final long[] counts;
  private final Slot[] slots;
  private final PendingFiles keys;
  // One single-threaded executor per writing thread (none: the caller writes).
  private final ExecutorService[] lanes;
  private final Semaphore room;
  private final int roomRows;
  private final AtomicLong buffered = new AtomicLong();
  private final AtomicLong peakBuffered = new AtomicLong();
  private volatile Throwable failure;
  // Per destination, while a batch is routed: its row count, then its next position (else 0).
  private int[] perDestination;

  /** {@code counts[d]}: how many rows destination d receives in all (each at least one). */
  PartitionWriter(ObjectStore store, LanceSchema schema, LanceFileVersion version, BufferAllocator allocator,
      long[] counts, int batchSize) {
    this(store, schema, version, allocator, counts, batchSize, Runtime.getRuntime().availableProcessors());
  }

  PartitionWriter(ObjectStore store, LanceSchema schema, LanceFileVersion version, BufferAllocator allocator,
      long[] counts, int batchSize, int threads) {
    this.store = store;
    this.keys = new PendingFiles(store);
    this.schema = schema;
    this.version = version;
    this.allocator = allocator;
    this.counts = counts.clone();
    this.slots = new Slot[counts.length];
    for (int d = 0; d < counts.length; d++) {
      slots[d] = new Slot(counts[d]);
    }
    int n = Math.min(threads, counts.length);
    this.lanes = new ExecutorService[n > 1 ? n : 0];
    for (int i = 0; i < lanes.length; i++) {
      lanes[i] = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "javelin-cluster-write-" + THREADS.incrementAndGet());
        t.setDaemon(true);
        return t;
      });
    }
    this.roomRows = Math.max(1, Math.min(2 * lanes.length, counts.length)) * batchSize;
    this.room = new Semaphore(roomRows);
  }

  /** Routes the rows of {@code batch}: row j goes to destination {@code dest[first + j]}. */
  void accept(VectorSchemaRoot batch, int[] dest, int first) throws IOException {
    checkFailure();
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
    }
    for (int t = 0; t < nTouched; t++) {
      int d = touched[t];
      Slot s = slots[d];
      int k = starts[t + 1] - starts[t];
      if (s.routed + k > counts[d]) {
        throw new IllegalStateException("Destination " + d + " got more than its " + counts[d] + " rows");
      }
      s.routed += k;
      boolean last = s.routed == counts[d];
      int permits = Math.min(k, roomRows);
      acquire(permits);
      VectorSchemaRoot piece;
      try {
        piece = gather(batch, Arrays.copyOfRange(rows, starts[t], starts[t + 1]), columns);
      } catch (RuntimeException e) {
        room.release(permits);
        throw e;
      }
      peakBuffered.accumulateAndGet(buffered.addAndGet(k), Math::max);
      Runnable write = () -> {
        try (piece) {
          if (failure == null) {
            write(s, piece, last);
          }
        } catch (IOException | RuntimeException | Error e) {
          if (failure == null) {
            failure = e;
          }
        } finally {
          buffered.addAndGet(-k);
          room.release(permits);
        }
      };
      if (lanes.length == 0) {
        write.run();
        checkFailure();
      } else {
        lanes[d % lanes.length].execute(write);
      }
    }
  }

  private VectorSchemaRoot gather(VectorSchemaRoot batch, int[] idx, int columns) {
    List<FieldVector> piece = new ArrayList<>(columns);
    try {
      for (int c = 0; c < columns; c++) {
        piece.add(Gather.gather(batch.getVector(c), idx, allocator));
      }
      VectorSchemaRoot root = new VectorSchemaRoot(piece);
      root.setRowCount(idx.length);
      return root;
    } catch (RuntimeException e) {
      piece.forEach(FieldVector::close);
      throw e;
    }
  }

  private void acquire(int permits) throws IOException {
    try {
      room.acquire(permits);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted while clustering into " + store.location());
    }
  }

  // On the destination's writing thread (or the caller's when there is none).
  private void write(Slot s, VectorSchemaRoot rows, boolean last) throws IOException {
    if (s.writer == null) {
      s.name = UUID.randomUUID() + ".lance";
      String key = "data/" + s.name;
      keys.add(key);
      // Destinations are written in parallel: a writer encoding its columns on threads too
      // would only add hand-offs.
      // The exact row count is known: page buffers are sized once, not regrown piece by piece.
      WriteOptions.Builder options = WriteOptions.builder().version(version).expectedRows(s.rows);
      if (lanes.length > 0) {
        options.parallelism(1);
      }
      s.writer = LanceFileWriter.create(store.newOutputFile(key), schema, options.build());
    }
    s.writer.write(rows);
    if (last) {
      finish(s);
    }
  }

  private void finish(Slot s) throws IOException {
    s.writer.close();
    long size = s.writer.fileSize();
    s.file = DataFile.of(s.name, s.writer.fieldColumnIndices(), version, size);
    s.writer = null;
  }

  private void checkFailure() throws IOException {
    Throwable f = failure;
    if (f instanceof IOException io) {
      throw io;
    }
    if (f instanceof RuntimeException re) {
      throw re;
    }
    if (f instanceof Error err) {
      throw err;
    }
  }

  // Waits until every piece handed to a writing thread is written (or has failed).
  private void drain() throws IOException {
    for (ExecutorService lane : lanes) {
      lane.shutdown();
    }
    for (ExecutorService lane : lanes) {
      try {
        while (!lane.awaitTermination(1, TimeUnit.MINUTES)) {
          LOG.debug("Waiting for a clustering writer of " + store.location());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("Interrupted while clustering into " + store.location());
      }
    }
  }

  /** The destination fragments (ids unset), in destination order, once every row has arrived. */
  List<Fragment> fragments() throws IOException {
    drain();
    checkFailure();
    List<Fragment> out = new ArrayList<>();
    for (int d = 0; d < slots.length; d++) {
      if (slots[d].file == null) {
        throw new IllegalStateException("Destination " + d + " received " + slots[d].routed
            + " of its " + counts[d] + " rows");
      }
      out.add(Fragment.of(slots[d].file, counts[d]));
    }
    return out;
  }

  /** The keys of every file created. */
  List<String> keys() {
    return keys.keys();
  }

  /** The most rows gathered and not yet written at once (see the class comment for the bound). */
  long peakBufferedRows() {
    return peakBuffered.get();
  }

  /** Stops the writing threads, aborts open writers and deletes every file created. */
  void deleteAll() {
    if (failure == null) {
      failure = new IllegalStateException("The clustering was abandoned");
    }
    try {
      drain();
    } catch (IOException e) {
      LOG.warn("Interrupted while stopping the writers of a failed clustering in " + store.location(), e);
    }
    for (Slot s : slots) {
      if (s.writer != null) {
        s.writer.abort();
        s.writer = null;
      }
    }
    keys.close();
  }

  /** Stops the writing threads once their pieces are written (files stay: see {@link #deleteAll}). */
  @Override
  public void close() {
    try {
      drain();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static final class Slot {
    final long rows;
    // Rows routed here so far (the caller's thread).
    long routed;
    // The writing thread's (happens-before through the executor and its termination).
    String name;
    LanceFileWriter writer;
    DataFile file;

    Slot(long rows) {
      this.rows = rows;
    }
  }
}
