package dev.javelin.format;

import dev.javelin.common.Tasks;
import dev.javelin.format.internal.encoding.FieldDecoder;
import dev.javelin.format.internal.encoding.RowRanges;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Streams row range batches of a file through the {@link ArrowReader} interface. With a
 * parallelism above 1 the columns are split into that many groups decoded at once on a small
 * pool, and the next batch is decoded while the caller works on the current one (so at most two
 * batches are in memory). A decoder is only ever used by one task at a time, batch after batch:
 * the tasks of a batch are submitted after those of the previous one have finished.
 */
final class BatchReader extends ArrowReader {
  private static final AtomicInteger THREADS = new AtomicInteger();
  /** Rows of the first prefetch window. */
  static final int FIRST_WINDOW_ROWS = 64 * 1024;
  /** The bytes a prefetch window aims at; later windows are sized from the first's bytes per row. */
  static final long WINDOW_BYTES = 16L << 20;
  private static final int MAX_WINDOW_ROWS = 1 << 20;

  /** Fetches the bytes the decoders will read for a window of rows (dropping the last window's). */
  @FunctionalInterface
  interface Prefetch {
    /** Fetches rows from {@code from} to at least {@code to}. */
    Window window(long from, long to) throws IOException;
  }

  /** What a prefetch did: the bytes it read, and the row its window ends at (at least the one asked). */
  record Window(long bytes, long end) {}

  private final List<FieldDecoder> decoders;
  private final long end;
  private final int batchSize;
  private final Schema schema;
  private final int parallelism;
  private long next;
  private ThreadPoolExecutor pool;
  // The batch being decoded ahead: its row count and one task per column group.
  private List<Future<FieldVector[]>> pending;
  private int pendingRows;

  private final String location;
  private final Prefetch prefetch;
  // The end of the rows fetched ahead, and the rows the next window takes.
  private long windowEnd;
  private long windowRows = FIRST_WINDOW_ROWS;

  BatchReader(String location, BufferAllocator allocator, List<FieldDecoder> decoders, long start, long end,
      int batchSize, int parallelism, Prefetch prefetch) {
    super(allocator);
    this.prefetch = decoders.isEmpty() ? null : prefetch;
    this.windowEnd = start;
    this.location = location;
    this.decoders = decoders;
    this.next = start;
    this.end = end;
    this.batchSize = batchSize;
    this.parallelism = parallelism;
    List<Field> fields = new ArrayList<>();
    for (FieldDecoder d : decoders) {
      fields.add(d.field().toArrow());
    }
    this.schema = new Schema(fields);
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    ensureInitialized();
    FieldVector[] vectors;
    int rows;
    if (parallelism > 1 && !decoders.isEmpty()) {
      if (pending == null) {
        if (next >= end) {
          return false;
        }
        submitNext();
      }
      rows = pendingRows;
      vectors = collect();
      try {
        if (next < end) {
          submitNext(); // decode the next batch while the caller works on this one
        }
      } catch (RuntimeException e) {
        closeAll(vectors);
        throw e;
      }
    } else {
      if (next >= end) {
        return false;
      }
      long stop = Math.min(end, next + batchSize);
      rows = (int) (stop - next);
      fetchAhead(stop);
      vectors = decodeGroup(RowRanges.of(next, stop), 0, 1);
      next = stop;
    }
    try {
      // Hand the buffers to the reader's own root without copying them: a transfer moves them
      // (an unload and load round trip would cost more per batch).
      VectorSchemaRoot root = getVectorSchemaRoot();
      for (int i = 0; i < vectors.length; i++) {
        vectors[i].makeTransferPair(root.getVector(i)).transfer();
      }
      root.setRowCount(rows);
    } finally {
      closeAll(vectors);
    }
    return true;
  }

  // Before decoding rows up to `stop`: when they pass the rows fetched ahead, fetches the next
  // window, sized so that it holds about WINDOW_BYTES (from the last window's bytes per row).
  private void fetchAhead(long stop) throws IOException {
    if (prefetch == null || stop <= windowEnd) {
      return;
    }
    long from = next;
    long to = Math.min(end, Math.max(stop, from + windowRows));
    Window w = prefetch.window(from, to);
    windowEnd = Math.min(end, w.end());
    long perRow = Math.max(1, w.bytes() / Math.max(1, windowEnd - from));
    windowRows = Math.max(batchSize, Math.min(MAX_WINDOW_ROWS, WINDOW_BYTES / perRow));
  }

  // Decodes the columns i with i % groups == group; entries of other columns stay null.
  private FieldVector[] decodeGroup(RowRanges rows, int group, int groups) throws IOException {
    FieldVector[] out = new FieldVector[decoders.size()];
    try {
      for (int i = group; i < decoders.size(); i += groups) {
        out[i] = LanceFileReader.decode(location, decoders.get(i), rows, allocator);
      }
      return out;
    } catch (IOException | RuntimeException | Error e) {
      closeAll(out);
      throw e;
    }
  }

  private void submitNext() {
    if (pool == null) {
      pool = new ThreadPoolExecutor(parallelism, parallelism, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
          r -> {
            Thread t = new Thread(r, "javelin-decode-" + THREADS.incrementAndGet());
            t.setDaemon(true);
            return t;
          });
      // Idle workers end, so a reader nobody closes leaves no threads behind.
      pool.allowCoreThreadTimeOut(true);
    }
    long stop = Math.min(end, next + batchSize);
    RowRanges rows = RowRanges.of(next, stop);
    try {
      fetchAhead(stop); // no decode task runs now: the last batch's were collected
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    int groups = Math.min(parallelism, decoders.size());
    List<Future<FieldVector[]>> tasks = new ArrayList<>();
    for (int g = 0; g < groups; g++) {
      int group = g;
      tasks.add(pool.submit(() -> decodeGroup(rows, group, groups)));
    }
    pending = tasks;
    pendingRows = (int) (stop - next);
    next = stop;
  }

  // Waits for the pending batch and merges its groups; on failure closes what was decoded.
  private FieldVector[] collect() throws IOException {
    List<Future<FieldVector[]>> tasks = pending;
    pending = null;
    FieldVector[] out = new FieldVector[decoders.size()];
    Throwable failure = null;
    for (Future<FieldVector[]> f : tasks) {
      try {
        FieldVector[] part = waitFor(f);
        for (int i = 0; i < part.length; i++) {
          if (part[i] != null) {
            out[i] = part[i];
          }
        }
      } catch (Throwable t) {
        failure = failure == null ? t : failure;
      }
    }
    if (failure != null) {
      closeAll(out);
      throw Tasks.rethrow(failure, "decoding " + location);
    }
    return out;
  }

  private static FieldVector[] waitFor(Future<FieldVector[]> f) throws Throwable {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return f.get();
        } catch (InterruptedException e) {
          interrupted = true; // the task must finish before its decoder may be used again
        } catch (ExecutionException e) {
          throw e.getCause();
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static void closeAll(FieldVector[] vectors) {
    for (FieldVector v : vectors) {
      if (v != null) {
        v.close();
      }
    }
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() {
    try {
      if (pending != null) {
        try {
          closeAll(collect());
        } catch (IOException | RuntimeException e) {
          // The batch being decoded ahead was never asked for: its failure does not matter.
        }
      }
    } finally {
      if (pool != null) {
        pool.shutdown();
      }
      decoders.forEach(FieldDecoder::close);
    }
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }
}
