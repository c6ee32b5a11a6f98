package dev.javelin.core.internal.scan;

import dev.javelin.common.Tasks;
import dev.javelin.core.expr.BoundExpression;
import dev.javelin.format.Gather;
import dev.javelin.format.schema.LanceField;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.Fragment;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;

/**
 * The batches a {@link DatasetReader} over the same fragments returns, in the same order and with
 * the same boundaries, decoded on a few threads. The fragments are cut into units (a fragment's
 * physical rows, a whole number of batches at a time); up to {@code parallelism + 1} units are
 * decoded at once, each by a {@link DatasetReader} over its row range, and their batches are handed
 * over in unit order. Memory stays bounded: a unit holds at most {@link #UNIT_BATCHES} batches (or
 * {@link #UNIT_ROWS} rows when batches are small), so at most that many times the window are in
 * flight. A fragment's files are opened once for all its units and closed after its last one.
 */
public final class ParallelScanReader extends ArrowReader {
  static final int UNIT_BATCHES = 4;
  static final int UNIT_ROWS = 32 * 1024;
  private static final Object DONE = new Object();
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final ObjectStore store;
  // Where data files' metadata is kept between reads (null: parsed per open).
  private DataFileCache dataFiles;
  // Opens the next fragments and fetches their first rows ahead, from a remote store (null: off).
  private ExecutorService lookAhead;
  private final List<Future<?>> lookAheads = new ArrayList<>();
  private int lookedAhead;
  /** Fragments opened and fetched ahead of the units decoding, from a remote store. */
  static final int LOOK_AHEAD_FRAGMENTS = 4;
  private final String location;
  private final List<LanceField> fields;
  private final int batchSize;
  private final List<DatasetReader.Meta> metas;
  private final boolean stableRowIds;
  private final Schema schema;
  // Whether the unfiltered batches would have no column (then there are no batches at all).
  private final boolean noColumns;
  // Applied by the workers to each decoded batch (see the filtering constructor); null: none.
  private final BoundExpression filter;
  private final int[] outputs;
  // How a filtered scan of local files reads the columns the filter does not need (null: with the rest).
  private final LateColumns late;
  private final int window;
  private final List<Unit> units = new ArrayList<>();
  private final List<Slot> slots = new ArrayList<>();
  private final long unitRows;
  private final Deque<Unit> inFlight = new ArrayDeque<>();
  private ThreadPoolExecutor pool;
  private Unit head;
  private int nextUnit;
  private volatile boolean closed;

  public ParallelScanReader(ObjectStore store, String location, List<Fragment> fragments, List<LanceField> fields,
      int batchSize, List<DatasetReader.Meta> metas, boolean stableRowIds, int parallelism,
      BufferAllocator allocator) {
    this(store, location, fragments, fields, batchSize, metas, stableRowIds, parallelism, unitRows(batchSize),
        null, null, allocator);
  }

  /**
   * Also filters on the worker threads: each decoded batch keeps only the rows for which
   * {@code filter} is TRUE and only the {@code outputs} columns (indices into the unfiltered
   * batch's columns, as {@link FilteredReader} takes them); batches left without rows are dropped.
   * Rows and their order are those of a {@link FilteredReader} over the unfiltered reader, but the
   * filter (and the copy of the selected rows) runs in parallel with the decoding.
   */
  public ParallelScanReader(ObjectStore store, String location, List<Fragment> fragments, List<LanceField> fields,
      int batchSize, List<DatasetReader.Meta> metas, boolean stableRowIds, int parallelism,
      BoundExpression filter, int[] outputs, BufferAllocator allocator) {
    this(store, location, fragments, fields, batchSize, metas, stableRowIds, parallelism, unitRows(batchSize),
        filter, outputs, allocator);
  }

  public ParallelScanReader(ObjectStore store, String location, List<Fragment> fragments, List<LanceField> fields,
      int batchSize, List<DatasetReader.Meta> metas, boolean stableRowIds, int parallelism, long unitRows,
      BufferAllocator allocator) {
    this(store, location, fragments, fields, batchSize, metas, stableRowIds, parallelism, unitRows, null, null,
        allocator);
  }

  /** @param unitRows rows per unit, a multiple of {@code batchSize} (so batches are the sequential ones) */
  public ParallelScanReader(ObjectStore store, String location, List<Fragment> fragments, List<LanceField> fields,
      int batchSize, List<DatasetReader.Meta> metas, boolean stableRowIds, int parallelism, long unitRows,
      BoundExpression filter, int[] outputs, BufferAllocator allocator) {
    super(allocator);
    this.filter = filter;
    this.store = store;
    this.location = location;
    this.fields = fields;
    this.batchSize = batchSize;
    this.metas = List.copyOf(metas);
    this.stableRowIds = stableRowIds;
    this.window = parallelism + 1;
    // Same schema as the sequential reader's (then only the outputs, when filtering).
    Schema all = DatasetReader.schemaOf(fields, metas);
    this.noColumns = all.getFields().isEmpty();
    if (outputs == null) {
      outputs = new int[all.getFields().size()];
      for (int i = 0; i < outputs.length; i++) {
        outputs[i] = i;
      }
    }
    this.outputs = outputs.clone();
    // Reading late costs a second decoder per batch that keeps rows: worth it where decoding is
    // the cost, on local files. (A remote scan fetches whole windows of pages anyway.)
    this.late = store.remote() ? null : LateColumns.of(fields, metas, filter);
    List<Field> kept = new ArrayList<>();
    for (int c : this.outputs) {
      kept.add(all.getFields().get(c));
    }
    this.schema = new Schema(kept);
    this.unitRows = unitRows;
    for (Fragment f : fragments) {
      Slot slot = new Slot(f);
      slots.add(slot);
      long rows = f.physicalRows();
      for (long start = 0; start < rows; start += unitRows) {
        units.add(new Unit(slot, start, Math.min(rows, start + unitRows)));
        slot.remaining++;
      }
    }
  }

  /**
   * Opens data files of a remote store with their metadata from {@code cache} (see
   * {@link DatasetReader#dataFiles}).
   */
  public ParallelScanReader dataFiles(DataFileCache cache) {
    this.dataFiles = cache;
    return this;
  }

  /**
   * From a remote store: opens the fragments after the ones being decoded and fetches their first
   * rows ahead on {@code io}, so that their requests overlap the decoding (a scan of many
   * fragments would otherwise wait a round trip per fragment).
   */
  public ParallelScanReader lookAhead(ExecutorService io) {
    this.lookAhead = io;
    return this;
  }

  static long unitRows(int batchSize) {
    return (long) batchSize * Math.max(UNIT_BATCHES, (UNIT_ROWS + batchSize - 1) / batchSize);
  }

  /** One fragment, opened by the first of its units to run and closed after the last. */
  private final class Slot {
    final Fragment fragment;
    int remaining;
    private DatasetReader.Opened opened;
    // With late columns: the fragment opened for the filter's fields, and for the rest.
    private DatasetReader.Opened filterOpened;
    private DatasetReader.Opened restOpened;
    private boolean closedSlot;

    Slot(Fragment fragment) {
      this.fragment = fragment;
    }

    synchronized DatasetReader.Opened get() throws IOException {
      if (closedSlot) {
        throw new IOException("Scan closed: " + location);
      }
      if (opened == null) {
        opened = DatasetReader.Opened.open(store, location, fragment, fields, metas, stableRowIds, dataFiles,
            lookAhead, allocator);
      }
      return opened;
    }

    /** Whether this fragment's units read late columns (not through data overlays: rare, read whole). */
    boolean readsLate() {
      return late != null && fragment.overlays().isEmpty();
    }

    synchronized DatasetReader.Opened filterOpened() throws IOException {
      if (closedSlot) {
        throw new IOException("Scan closed: " + location);
      }
      if (filterOpened == null) {
        filterOpened = DatasetReader.Opened.open(store, location, fragment, late.filterFields, late.filterMetas,
            stableRowIds, dataFiles, lookAhead, allocator);
      }
      return filterOpened;
    }

    synchronized DatasetReader.Opened restOpened() throws IOException {
      if (closedSlot) {
        throw new IOException("Scan closed: " + location);
      }
      if (restOpened == null) {
        restOpened = DatasetReader.Opened.open(store, location, fragment, late.restFields, LateColumns.REST_METAS,
            stableRowIds, dataFiles, lookAhead, allocator);
      }
      return restOpened;
    }

    synchronized void release() throws IOException {
      if (--remaining == 0) {
        close();
      }
    }

    synchronized void close() throws IOException {
      closedSlot = true;
      List<DatasetReader.Opened> open = new ArrayList<>();
      for (DatasetReader.Opened o : new DatasetReader.Opened[] {opened, filterOpened, restOpened}) {
        if (o != null) {
          open.add(o);
        }
      }
      opened = null;
      filterOpened = null;
      restOpened = null;
      IOException first = null;
      for (DatasetReader.Opened o : open) {
        try {
          o.close();
        } catch (IOException e) {
          if (first == null) {
            first = e;
          } else {
            first.addSuppressed(e);
          }
        }
      }
      if (first != null) {
        throw first;
      }
    }
  }

  /** Physical rows [start, end) of one fragment; its batches (then DONE, or a failure) queue up. */
  private final class Unit implements Runnable {
    final Slot slot;
    final long start;
    final long end;
    final BlockingQueue<Object> out = new LinkedBlockingQueue<>();

    Unit(Slot slot, long start, long end) {
      this.slot = slot;
      this.start = start;
      this.end = end;
    }

    @Override
    public void run() {
      try {
        if (!closed) {
          long from = slot.readsLate() && late.pays() ? runLate() : start;
          if (from < end) {
            runWhole(from);
          }
        }
      } catch (Throwable t) {
        out.add(t);
      } finally {
        try {
          slot.release();
        } catch (Throwable t) {
          out.add(t);
        }
        out.add(DONE);
      }
    }

    // Every column of physical rows [from, end), batch by batch, filtered.
    private void runWhole(long from) throws IOException {
      DatasetReader.Opened o = slot.get();
      try (DatasetReader r = new DatasetReader(o, from, end, batchSize, allocator)) {
        while (!closed && r.loadNextBatch()) {
          VectorSchemaRoot root = r.getVectorSchemaRoot();
          if (filter == null) {
            // Move the buffers out of the reader's root, which it refills.
            out.add(Batch.takeFrom(root, outputs, allocator));
            continue;
          }
          int[] selected = filter.select(root);
          if (selected.length == root.getRowCount()) {
            out.add(Batch.takeFrom(root, outputs, allocator));
          } else if (selected.length > 0) {
            out.add(Batch.gather(root, outputs, selected, allocator));
          }
        }
      }
    }

    /**
     * The filter's columns batch by batch; the rest only for batches that keep rows, from the first
     * kept row to the last. Stops after a batch whose kept rows spread over most of it once such
     * batches are the rule (then reading every column at once costs less) and returns the
     * physical row to go on from; else returns {@code end}.
     */
    private long runLate() throws IOException {
      DatasetReader.Opened restOpened = slot.restOpened();
      try (DatasetReader r = new DatasetReader(slot.filterOpened(), start, end, batchSize, allocator)) {
        while (!closed && r.loadNextBatch()) {
          VectorSchemaRoot root = r.getVectorSchemaRoot();
          int[] selected = filter.select(root);
          UInt8Vector addresses = (UInt8Vector) root.getVector(late.filterAddress);
          if (selected.length == 0) {
            late.record(0, batchSize);
            continue;
          }
          long first = addresses.get(selected[0]) & 0xFFFFFFFFL;
          long last = addresses.get(selected[selected.length - 1]) & 0xFFFFFFFFL;
          // Read before the batch's vectors move out (the addresses may be an output).
          long lastRow = addresses.get(root.getRowCount() - 1) & 0xFFFFFFFFL;
          try (DatasetReader rest = new DatasetReader(restOpened, first, last + 1, (int) (last + 1 - first),
              allocator)) {
            if (!rest.loadNextBatch()) {
              throw new IllegalStateException("No rows in [" + first + ", " + (last + 1) + ") of fragment "
                  + slot.fragment.id() + " for the columns the filter does not read: " + location);
            }
            VectorSchemaRoot restRoot = rest.getVectorSchemaRoot();
            out.add(Batch.late(root, selected, restRoot, rowsOf(addresses, selected, restRoot), late.source, outputs,
                allocator));
          }
          if (!late.record(last + 1 - first, batchSize)) {
            // Batches are physical ranges of batchSize rows from start: go on after this one.
            return start + ((lastRow - start) / batchSize + 1) * batchSize;
          }
        }
      }
      return end;
    }

    // The rows of `rest` (live rows of a physical range, in order) that hold the selected rows.
    private int[] rowsOf(UInt8Vector addresses, int[] selected, VectorSchemaRoot rest) {
      UInt8Vector restAddresses = (UInt8Vector) rest.getVector(rest.getFieldVectors().size() - 1);
      int n = rest.getRowCount();
      int[] rows = new int[selected.length];
      int j = 0;
      for (int k = 0; k < selected.length; k++) {
        long want = addresses.get(selected[k]);
        while (j < n && restAddresses.get(j) != want) {
          j++;
        }
        if (j == n) {
          throw new IllegalStateException("Row " + (want & 0xFFFFFFFFL) + " of fragment " + slot.fragment.id()
              + " is missing from the read of the columns the filter does not read: " + location);
        }
        rows[k] = j;
      }
      return rows;
    }

    // Closes batches nobody will load.
    void drain() {
      for (Object o : out) {
        if (o instanceof Batch b) {
          b.close();
        }
      }
      out.clear();
    }
  }

  /** One batch's vectors, moved out of a unit reader's root (a transfer, not a copy). */
  private static final class Batch implements AutoCloseable {
    final FieldVector[] vectors;
    final int rows;

    private Batch(FieldVector[] vectors, int rows) {
      this.vectors = vectors;
      this.rows = rows;
    }

    static Batch takeFrom(VectorSchemaRoot root, int[] columns, BufferAllocator allocator) {
      FieldVector[] vectors = new FieldVector[columns.length];
      for (int i = 0; i < vectors.length; i++) {
        TransferPair tp = root.getVector(columns[i]).getTransferPair(allocator);
        tp.transfer();
        vectors[i] = (FieldVector) tp.getTo();
      }
      return new Batch(vectors, root.getRowCount());
    }

    // Copies rows `idx` of the columns into new vectors.
    static Batch gather(VectorSchemaRoot root, int[] columns, int[] idx, BufferAllocator allocator) {
      FieldVector[] vectors = new FieldVector[columns.length];
      try {
        for (int i = 0; i < vectors.length; i++) {
          vectors[i] = Gather.gather(root.getVector(columns[i]), idx, allocator);
        }
      } catch (RuntimeException e) {
        for (FieldVector v : vectors) {
          if (v != null) {
            v.close();
          }
        }
        throw e;
      }
      return new Batch(vectors, idx.length);
    }

    /**
     * Copies the kept rows of a late read: output column {@code c} comes from the filter read's
     * {@code rows} (its {@code selected} rows) or from the rest read's {@code restRows}, as
     * {@code source} says (see {@link LateColumns#source}).
     */
    static Batch late(VectorSchemaRoot filterRead, int[] selected, VectorSchemaRoot restRead, int[] restRows,
        int[] source, int[] outputs, BufferAllocator allocator) {
      FieldVector[] vectors = new FieldVector[outputs.length];
      // Where every row is kept (rows in order, so the counts tell), the buffers move instead.
      boolean allFiltered = selected.length == filterRead.getRowCount();
      boolean allRest = restRows.length == restRead.getRowCount();
      try {
        for (int i = 0; i < vectors.length; i++) {
          int from = source[outputs[i]];
          FieldVector v = from >= 0 ? filterRead.getVector(from) : restRead.getVector(-1 - from);
          if (from >= 0 ? allFiltered : allRest) {
            TransferPair tp = v.getTransferPair(allocator);
            tp.transfer();
            vectors[i] = (FieldVector) tp.getTo();
          } else {
            vectors[i] = Gather.gather(v, from >= 0 ? selected : restRows, allocator);
          }
        }
      } catch (RuntimeException e) {
        for (FieldVector v : vectors) {
          if (v != null) {
            v.close();
          }
        }
        throw e;
      }
      return new Batch(vectors, selected.length);
    }

    // Moves the vectors into `root`, of the same schema.
    void moveTo(VectorSchemaRoot root) {
      try {
        for (int i = 0; i < vectors.length; i++) {
          vectors[i].makeTransferPair(root.getVector(i)).transfer();
        }
        root.setRowCount(rows);
      } finally {
        close();
      }
    }

    @Override
    public void close() {
      for (FieldVector v : vectors) {
        v.close();
      }
    }
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    ensureInitialized();
    if (noColumns) {
      return false;
    }
    while (true) {
      if (head == null) {
        fill();
        head = inFlight.poll();
        if (head == null) {
          return false;
        }
        fill();
      }
      Object item;
      try {
        item = head.out.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("Interrupted while scanning " + location, e);
      }
      if (item == DONE) {
        head = null;
        continue;
      }
      if (item instanceof Throwable t) {
        throw Tasks.rethrow(t, "scanning " + location);
      }
      ((Batch) item).moveTo(getVectorSchemaRoot());
      return true;
    }
  }

  // Starts units until the window is full.
  private void fill() {
    while (inFlight.size() < window && nextUnit < units.size()) {
      if (pool == null) {
        pool = new ThreadPoolExecutor(window - 1, window - 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, "javelin-scan-" + THREADS.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
        // Idle workers end, so a reader nobody closes leaves no threads behind.
        pool.allowCoreThreadTimeOut(true);
      }
      Unit u = units.get(nextUnit++);
      inFlight.add(u);
      pool.execute(u);
      lookAheadFrom(slots.indexOf(u.slot));
    }
  }

  // Fetches ahead the first rows of the LOOK_AHEAD_FRAGMENTS fragments after slot `current`.
  private void lookAheadFrom(int current) {
    if (lookAhead == null) {
      return;
    }
    int last = Math.min(slots.size() - 1, current + LOOK_AHEAD_FRAGMENTS);
    for (int s = Math.max(lookedAhead, current + 1); s <= last; s++) {
      Slot slot = slots.get(s);
      long rows = Math.min(slot.fragment.physicalRows(), unitRows);
      lookAheads.add(lookAhead.submit(() -> {
        try {
          if (!closed) {
            slot.get().prefetch(0, rows);
          }
        } catch (IOException | RuntimeException e) {
          // Only ahead of time: the unit that reads the fragment reads (and reports) it itself.
        }
      }));
    }
    lookedAhead = Math.max(lookedAhead, last + 1);
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() throws IOException {
    closed = true;
    if (pool != null) {
      pool.shutdown();
      try {
        // Workers stop at their next batch boundary.
        while (!pool.awaitTermination(10, TimeUnit.SECONDS)) {
          // keep waiting: their batches must be closed before the allocator is
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    for (Future<?> f : lookAheads) {
      try {
        f.get(); // a look-ahead must not open or read a fragment being closed
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (ExecutionException e) {
        // it catches its own failures
      }
    }
    if (head != null) {
      head.drain();
    }
    for (Unit u : inFlight) {
      u.drain();
    }
    IOException first = null;
    for (Slot s : slots) {
      try {
        s.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }
}
