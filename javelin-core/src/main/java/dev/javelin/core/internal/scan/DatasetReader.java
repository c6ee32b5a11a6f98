package dev.javelin.core.internal.scan;

import dev.javelin.common.Tasks;
import dev.javelin.core.internal.overlay.OverlayApplier;
import dev.javelin.format.Gather;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.schema.LanceField;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.Fragment;
import dev.javelin.table.deletion.Deletes;
import dev.javelin.table.exceptions.TableErrors;
import dev.javelin.table.rowids.RowVersionSequence;
import java.io.IOException;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.roaringbitmap.RoaringBitmap;

/**
 * Streams the live rows of a list of fragments, in order, through the {@link ArrowReader}
 * interface. One fragment's files are open at a time; a batch never spans two fragments. Each
 * fragment's deletion vector is read once when it is opened, and deleted rows are left out of
 * its batches (so a batch may hold fewer rows than the batch size, and never zero).
 */
public final class DatasetReader extends ArrowReader {
  /** The stable row id column (equal to the row address while stable row ids are off). */
  static final String ROW_ID = "_rowid";
  /** The row address column: {@code fragment_id << 32 | physical offset}. */
  public static final String ROW_ADDR = "_rowaddr";
  /** The version that last updated each row (stable row ids only). */
  static final String ROW_LAST_UPDATED_AT_VERSION = "_row_last_updated_at_version";
  /** The version that created each row (stable row ids only). */
  static final String ROW_CREATED_AT_VERSION = "_row_created_at_version";

  /** A column computed from the fragment, not read from its data files; all are non-null UInt64. */
  public enum Meta {
    ROW_ID(DatasetReader.ROW_ID),
    ROW_ADDR(DatasetReader.ROW_ADDR),
    LAST_UPDATED_AT(ROW_LAST_UPDATED_AT_VERSION),
    CREATED_AT(ROW_CREATED_AT_VERSION);

    public final String column;

    Meta(String column) {
      this.column = column;
    }
  }

  private final ObjectStore store;
  private final String location;
  private final List<Fragment> fragments;
  private final List<LanceField> fields;
  private final int batchSize;
  private final Schema schema;
  private final List<Meta> metas;
  // Whether _rowid comes from the fragments' row id sequences (else it is the row address).
  private final boolean stableRowIds;
  private int nextFragment;
  // The open fragment's id, deleted rows, physical offset of its next batch and end of the rows read.
  private long fragmentId;
  private long fragmentEnd;
  private RoaringBitmap deleted = new RoaringBitmap();
  private long position;
  private boolean open;
  // The open fragment's sequences, loaded when a meta column needs them (indexed by physical row).
  private long[] rowIds;
  private RowVersionSequence lastUpdated;
  private RowVersionSequence createdAt;
  // The open fragment (closed with it unless shared), and its streams of batches, one per data file.
  private Opened current;
  private final List<ArrowReader> streams = new ArrayList<>();
  private List<FragmentFiles.Part> parts = List.of();
  // The open fragment's data overlays holding a wanted field (null: none).
  private OverlayApplier overlays;
  // A reader of one row range of a fragment opened by someone else (see ParallelScanReader).
  private final Opened shared;
  private final long sharedStart;
  private final long sharedEnd;
  private boolean started;
  // Where data files' metadata is kept between reads (null: parsed per open).
  private DataFileCache dataFiles;

  public DatasetReader(ObjectStore store, String location, List<Fragment> fragments, List<LanceField> fields,
      int batchSize, BufferAllocator allocator) {
    this(store, location, fragments, fields, batchSize, false, false, allocator);
  }

  public DatasetReader(ObjectStore store, String location, List<Fragment> fragments, List<LanceField> fields,
      int batchSize, boolean rowId, boolean rowAddr, BufferAllocator allocator) {
    this(store, location, fragments, fields, batchSize, metas(rowId, rowAddr), false, allocator);
  }

  /**
   * @param metas the meta columns to add after the fields, in this order
   * @param stableRowIds whether the dataset has stable row ids: {@code _rowid} then comes from each
   *     fragment's row id sequence, and the version columns may be asked for
   */
  public DatasetReader(ObjectStore store, String location, List<Fragment> fragments, List<LanceField> fields,
      int batchSize, List<Meta> metas, boolean stableRowIds, BufferAllocator allocator) {
    super(allocator);
    this.metas = List.copyOf(metas);
    this.stableRowIds = stableRowIds;
    this.store = store;
    this.location = location;
    this.fragments = fragments;
    this.fields = fields;
    this.batchSize = batchSize;
    this.schema = schemaOf(fields, metas);
    this.shared = null;
    this.sharedStart = 0;
    this.sharedEnd = 0;
  }

  /**
   * Opens data files of a remote store with their metadata from {@code cache} (parsed, and its
   * tail read, once per session) instead of reading it on every open; local files read as before.
   */
  public DatasetReader dataFiles(DataFileCache cache) {
    this.dataFiles = cache;
    return this;
  }

  /**
   * Reads physical rows [start, end) of an already opened fragment; batches start at {@code start}
   * (so with start a multiple of the batch size they are the batches a whole-fragment read makes).
   * The caller keeps ownership of {@code fragment}.
   */
  public DatasetReader(Opened fragment, long start, long end, int batchSize, BufferAllocator allocator) {
    super(allocator);
    this.metas = fragment.metas;
    this.stableRowIds = fragment.stableRowIds;
    this.store = fragment.store;
    this.location = fragment.location;
    this.fragments = List.of();
    this.fields = fragment.fields;
    this.batchSize = batchSize;
    this.schema = fragment.schema();
    this.shared = fragment;
    this.sharedStart = start;
    this.sharedEnd = end;
  }

  /** The batches' schema: the fields, then the meta columns. */
  static Schema schemaOf(List<LanceField> fields, List<Meta> metas) {
    List<Field> arrow = new ArrayList<>();
    for (LanceField f : fields) {
      arrow.add(f.toArrow());
    }
    for (Meta m : metas) {
      arrow.add(metaField(m.column));
    }
    return new Schema(arrow);
  }

  public static List<Meta> metas(boolean rowId, boolean rowAddr) {
    List<Meta> out = new ArrayList<>();
    if (rowId) {
      out.add(Meta.ROW_ID);
    }
    if (rowAddr) {
      out.add(Meta.ROW_ADDR);
    }
    return out;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    ensureInitialized();
    if (schema.getFields().isEmpty()) {
      return false;
    }
    if (shared != null) {
      if (!started) {
        started = true;
        adopt(shared, sharedStart, sharedEnd, false);
      }
      if (open && loadFromOpenFragment()) {
        return true;
      }
      closeFragment();
      return false;
    }
    while (true) {
      if (open && loadFromOpenFragment()) {
        return true;
      }
      closeFragment();
      if (nextFragment >= fragments.size()) {
        return false;
      }
      openFragment(fragments.get(nextFragment++));
    }
  }

  // Loads the next batch of the open fragment holding at least one live row; false at its end.
  private boolean loadFromOpenFragment() throws IOException {
    while (true) {
      FieldVector[] out = new FieldVector[fields.size()];
      int rows = readPhysical(out);
      if (rows < 0) {
        return false;
      }
      long start = position;
      position += rows;
      int[] keep = null;
      if (!deleted.isEmpty() && deleted.rangeCardinality(start, start + rows) > 0) {
        keep = live(start, rows);
        if (keep.length == 0) {
          continue;
        }
      }
      // Fields this fragment's files lack (added as all-null) or hold in an older shape.
      List<FieldVector> made = FragmentFiles.complete(out, parts, fields, rows, allocator);
      try {
        if (overlays != null) {
          made.addAll(overlays.apply(out, start, rows));
        }
        publish(out, rows, start, keep);
      } finally {
        made.forEach(FieldVector::close);
      }
      return true;
    }
  }

  // Fills out[] with the next physical batch of every data file; returns its rows, or -1 at the end.
  private int readPhysical(FieldVector[] out) throws IOException {
    if (streams.isEmpty()) {
      // Only row id / address columns: count rows off the fragment's length.
      long left = fragmentEnd - position;
      return left <= 0 ? -1 : (int) Math.min(batchSize, left);
    }
    int rows = -1;
    for (int i = 0; i < streams.size(); i++) {
      ArrowReader s = streams.get(i);
      if (!s.loadNextBatch()) {
        return -1;
      }
      VectorSchemaRoot root = s.getVectorSchemaRoot();
      if (rows >= 0 && root.getRowCount() != rows) {
        throw new IllegalStateException("Data files of one fragment returned batches of " + rows + " and "
            + root.getRowCount() + " rows: " + location);
      }
      rows = root.getRowCount();
      for (var e : parts.get(i).outputs.entrySet()) {
        out[e.getKey()] = root.getVector(e.getValue());
      }
    }
    return rows;
  }

  // The in-batch indices of the live rows of physical rows [start, start + rows).
  private int[] live(long start, int rows) {
    int[] keep = new int[rows];
    int n = 0;
    for (int i = 0; i < rows; i++) {
      if (!deleted.contains((int) (start + i))) {
        keep[n++] = i;
      }
    }
    return Arrays.copyOf(keep, n);
  }

  // Makes the batch (rows kept: all, or those in keep) the reader's current batch.
  private void publish(FieldVector[] physical, int rows, long start, int[] keep) {
    List<FieldVector> vectors = new ArrayList<>();
    // Vectors made here (filtered copies, meta columns) are ours to close once loaded; the file
    // readers own the others and refill them.
    List<FieldVector> made = new ArrayList<>();
    int count = keep == null ? rows : keep.length;
    try {
      for (FieldVector v : physical) {
        if (keep == null) {
          vectors.add(v);
        } else {
          FieldVector g = Gather.gather(v, keep, allocator);
          made.add(g);
          vectors.add(g);
        }
      }
      for (Meta m : metas) {
        UInt8Vector col = new UInt8Vector(metaField(m.column), allocator);
        made.add(col);
        col.allocateNew(count);
        // Computed into an array and stored in bulk: a checked set per row costs more than the values.
        long[] values = new long[count];
        if (m == Meta.ROW_ADDR || (m == Meta.ROW_ID && rowIds == null)) {
          long base = fragmentId << 32;
          for (int i = 0; i < count; i++) {
            values[i] = base | (start + (keep == null ? i : keep[i]));
          }
        } else {
          for (int i = 0; i < count; i++) {
            values[i] = metaValue(m, start + (keep == null ? i : keep[i]));
          }
        }
        if (count > 0) {
          col.getDataBuffer().nioBuffer(0, count * 8).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().put(values);
          // Every row is valid; bits past the last row stay clear.
          ArrowBuf validity = col.getValidityBuffer();
          validity.setOne(0, count / 8);
          if (count % 8 != 0) {
            validity.setByte(count / 8, (1 << (count % 8)) - 1);
          }
        }
        col.setValueCount(count);
        vectors.add(col);
      }
      List<Field> fs = new ArrayList<>();
      for (FieldVector v : vectors) {
        fs.add(v.getField());
      }
      // Unload into our root (sharing buffers); the wrapper is never closed.
      VectorSchemaRoot wrapper = new VectorSchemaRoot(fs, vectors, count);
      try (ArrowRecordBatch records = new VectorUnloader(wrapper).getRecordBatch()) {
        loadRecordBatch(records);
      }
    } finally {
      made.forEach(FieldVector::close);
    }
  }

  // The meta column's value for physical row `row` of the open fragment: sequences are indexed by
  // physical row, deleted rows included, so the deletion mask applies to them as to the data.
  private long metaValue(Meta m, long row) {
    switch (m) {
      case ROW_ID:
        return rowIds == null ? fragmentId << 32 | row : rowIds[(int) row];
      case ROW_ADDR:
        return fragmentId << 32 | row;
      case LAST_UPDATED_AT:
        return lastUpdated.get(row);
      default:
        return createdAt.get(row);
    }
  }

  static Field metaField(String name) {
    return new Field(name, FieldType.notNullable(new ArrowType.Int(64, false)), null);
  }

  private void openFragment(Fragment fragment) throws IOException {
    adopt(Opened.open(store, location, fragment, fields, metas, stableRowIds, dataFiles, null, allocator), 0,
        fragment.physicalRows(), true);
  }

  // Makes `f` the open fragment, reading its physical rows [start, end); closes it with the
  // fragment when `owned`.
  private void adopt(Opened f, long start, long end, boolean owned) throws IOException {
    fragmentId = f.fragment.id();
    fragmentEnd = end;
    position = start;
    deleted = f.deleted;
    rowIds = f.rowIds;
    lastUpdated = f.lastUpdated;
    createdAt = f.createdAt;
    parts = f.parts;
    current = owned ? f : null;
    open = true;
    try {
      overlays = OverlayApplier.open(store, location, f.fragment, fields, allocator);
      for (int i = 0; i < f.files.size(); i++) {
        LanceFileReader r = f.files.get(i);
        streams.add(r.read(ReadOptions.builder().columns(FragmentFiles.columnNames(r, f.parts.get(i), location))
            .rows(start, end).batchSize(batchSize).build()));
      }
    } catch (IOException | RuntimeException e) {
      closeFragment();
      throw e;
    }
  }

  /**
   * One fragment opened for reading: its data files, deleted rows and the sequences the meta
   * columns need. Its file readers may serve several {@link DatasetReader}s at once (each read
   * makes its own decoders; files are read with positional reads).
   */
  static final class Opened implements AutoCloseable {
    final ObjectStore store;
    final String location;
    final Fragment fragment;
    final List<LanceField> fields;
    final List<Meta> metas;
    final boolean stableRowIds;
    final List<LanceFileReader> files = new ArrayList<>();
    List<FragmentFiles.Part> parts = List.of();
    RoaringBitmap deleted = new RoaringBitmap();
    long[] rowIds;
    RowVersionSequence lastUpdated;
    RowVersionSequence createdAt;

    private Opened(ObjectStore store, String location, Fragment fragment, List<LanceField> fields, List<Meta> metas,
        boolean stableRowIds) {
      this.store = store;
      this.location = location;
      this.fragment = fragment;
      this.fields = fields;
      this.metas = metas;
      this.stableRowIds = stableRowIds;
    }

    /** Fetches ahead what reading physical rows [start, end) of the fragment's files will need. */
    void prefetch(long start, long end) throws IOException {
      for (int i = 0; i < files.size(); i++) {
        LanceFileReader r = files.get(i);
        r.prefetch(FragmentFiles.columnNames(r, parts.get(i), location), start, end);
      }
    }

    /**
     * Opens the fragment's files; with {@code io} (a remote store's scans) all at once on it, so
     * that a fragment of many files costs one round trip, not one per file.
     */
    static Opened open(ObjectStore store, String location, Fragment fragment, List<LanceField> fields,
        List<Meta> metas, boolean stableRowIds, DataFileCache dataFiles, ExecutorService io,
        BufferAllocator allocator) throws IOException {
      Opened o = new Opened(store, location, fragment, fields, metas, stableRowIds);
      try {
        o.deleted = Deletes.deletedRows(store, fragment, allocator);
        o.loadSequences();
        o.parts = FragmentFiles.plan(fragment, fields, location);
        boolean cached = dataFiles != null && store.remote();
        Tasks.Work<FragmentFiles.Part, LanceFileReader, IOException> openPart = p -> cached
            ? FragmentFiles.openCached(dataFiles, store, p, allocator)
            : FragmentFiles.open(store, p, allocator);
        if (io != null && o.parts.size() > 1) {
          o.files.addAll(Tasks.foreach(o.parts).executeWith(io).callerRuns().run(openPart, LanceFileReader::close));
        } else {
          for (FragmentFiles.Part p : o.parts) {
            o.files.add(openPart.apply(p));
          }
        }
        for (int i = 0; i < o.parts.size(); i++) {
          LanceFileReader r = o.files.get(i);
          FragmentFiles.Part p = o.parts.get(i);
          if (r.numRows() != fragment.physicalRows()) {
            throw TableErrors.corrupt(location, "Data file " + p.file.path() + " has "
                + r.numRows() + " rows but the manifest gives fragment " + fragment.id() + " "
                + fragment.physicalRows());
          }
        }
        return o;
      } catch (IOException | RuntimeException e) {
        try {
          o.close();
        } catch (IOException suppressed) {
          e.addSuppressed(suppressed);
        }
        throw e;
      }
    }

    Schema schema() {
      return schemaOf(fields, metas);
    }

    private void loadSequences() {
      if (!stableRowIds || fragment.physicalRows() == 0) {
        return;
      }
      for (Meta m : metas) {
        switch (m) {
          case ROW_ID:
            rowIds = fragment.rowIdSequence(store).orElseThrow(() -> TableErrors.corrupt(location, "Fragment "
                + fragment.id() + " has no row id sequence in a dataset with stable row ids")).toArray();
            break;
          case LAST_UPDATED_AT:
            lastUpdated = fragment.lastUpdatedAtVersions(store).orElseThrow(() -> noVersions(m));
            break;
          case CREATED_AT:
            createdAt = fragment.createdAtVersions(store).orElseThrow(() -> noVersions(m));
            break;
          default:
            break;
        }
      }
    }

    // Lance 7.0.0 answers 1 for every row then; a made-up version is refused here instead.
    private UnsupportedOperationException noVersions(Meta m) {
      return new UnsupportedOperationException("Fragment " + fragment.id() + " records no " + m.column
          + " (written before Lance tracked row versions): " + location);
    }

    @Override
    public void close() throws IOException {
      IOException first = null;
      for (LanceFileReader f : files) {
        try {
          f.close();
        } catch (IOException e) {
          first = first == null ? e : first;
        }
      }
      files.clear();
      if (first != null) {
        throw first;
      }
    }
  }

  private void closeFragment() throws IOException {
    IOException first = null;
    for (ArrowReader s : streams) {
      try {
        s.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    streams.clear();
    if (current != null) {
      try {
        current.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
      current = null;
    }
    if (overlays != null) {
      overlays.close();
      overlays = null;
    }
    open = false;
    if (first != null) {
      throw first;
    }
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() throws IOException {
    closeFragment();
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }
}
