package dev.javelin.format;

import dev.javelin.format.exceptions.ColumnNotFoundException;
import dev.javelin.format.exceptions.CorruptFileException;
import dev.javelin.format.exceptions.LanceFormatException;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.format.internal.container.FileMetadata;
import dev.javelin.format.internal.encoding.ColumnSource;
import dev.javelin.format.internal.encoding.EncodingStrategy;
import dev.javelin.format.internal.encoding.FetchedBytes;
import dev.javelin.format.internal.encoding.FieldDecoder;
import dev.javelin.format.internal.encoding.PageCache;
import dev.javelin.format.internal.encoding.ReadPlan;
import dev.javelin.format.internal.encoding.RowRanges;
import dev.javelin.format.schema.LanceField;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.io.InputFile;
import dev.javelin.io.LocalInputFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Reads a Lance 2.0, 2.1 or 2.2 file into Arrow vectors.
 *
 * <p>{@link #read} streams batches through an {@link org.apache.arrow.vector.ipc.ArrowReader},
 * reading only the pages that hold the requested rows; {@link #take} reads given rows. The
 * reader owns its {@link InputFile} and closes it. Not safe for concurrent use; open one reader
 * per thread.
 */
public final class LanceFileReader implements AutoCloseable {
  private final InputFile file;
  private final BufferAllocator allocator;
  private final FileMetadata metadata;
  private final EncodingStrategy strategy;
  private final int[] firstColumn;
  /** What the scans of a remote file keep fetched ahead, at most: a few windows. */
  static final long SCAN_FETCH_BUDGET = 4 * BatchReader.WINDOW_BYTES;
  private FetchedBytes scanFetches;
  private final PageCache pages;

  private LanceFileReader(InputFile file, BufferAllocator allocator, FileMetadata metadata, PageCache pages) {
    this.file = file;
    this.allocator = allocator;
    this.metadata = metadata;
    this.pages = pages;
    this.strategy = EncodingStrategy.forVersion(metadata.version());
    List<LanceField> fields = metadata.schema().fields();
    this.firstColumn = new int[fields.size()];
    int c = 0;
    for (int i = 0; i < fields.size(); i++) {
      firstColumn[i] = c;
      c += strategy.numColumns(fields.get(i));
    }
  }

  /**
   * Opens a file, reading and checking its metadata. The reader takes ownership of the file.
   *
   * @throws CorruptFileException if the file is not a valid Lance file
   * @throws UnsupportedFormatException if it is of a version Javelin does not read
   */
  public static LanceFileReader open(InputFile file, BufferAllocator allocator) throws IOException {
    try {
      return new LanceFileReader(file, allocator, FileMetadata.read(file), null);
    } catch (IOException | RuntimeException e) {
      file.close();
      throw e;
    }
  }

  /**
   * Opens a file whose metadata was read before (by an earlier reader of the same, unchanged
   * file), skipping the metadata reads; its decoders find and keep page metadata in
   * {@code pages} (may be null). The reader takes ownership of the file.
   */
  public static LanceFileReader open(InputFile file, FileMetadata metadata, PageCache pages,
      BufferAllocator allocator) {
    return new LanceFileReader(file, allocator, metadata, pages);
  }

  /** Opens a local file. */
  public static LanceFileReader open(Path path, BufferAllocator allocator) throws IOException {
    try {
      return open(LocalInputFile.open(path), allocator);
    } catch (NoSuchFileException e) {
      throw new LanceFormatException(path.toString(), "File not found", e);
    }
  }

  public String location() {
    return file.location();
  }

  public LanceFileVersion version() {
    return metadata.version();
  }

  public long numRows() {
    return metadata.numRows();
  }

  /** The schema with Lance field ids. */
  public LanceSchema lanceSchema() {
    return metadata.schema();
  }

  /** The schema as Arrow sees it. */
  public Schema schema() {
    return metadata.schema().toArrow();
  }

  /** The bytes of global buffer {@code index} (0 is the schema). */
  public ByteBuffer readGlobalBuffer(int index) throws IOException {
    if (index < 0 || index >= metadata.numGlobalBuffers()) {
      throw new LanceFormatException(file.location(), "No global buffer " + index + " (the file has "
          + metadata.numGlobalBuffers() + ")");
    }
    long[] b = metadata.globalBuffer(index);
    return file.read(b[0], (int) b[1]);
  }

  /** Column and page layout, for {@code file info}. */
  public FileMetadata metadata() {
    return metadata;
  }

  /**
   * Streams the rows and columns the options select, in batches of {@code batchSize} rows.
   * The returned reader owns its {@link VectorSchemaRoot} and refills it on each
   * {@code loadNextBatch()}; close it when done.
   *
   * @throws ColumnNotFoundException if a column is not in the file
   * @throws IllegalArgumentException if the row range passes the end of the file
   */
  public ArrowReader read(ReadOptions options) throws IOException {
    long end = options.endRow() < 0 ? numRows() : options.endRow();
    if (end > numRows()) {
      throw new IllegalArgumentException(
          "Row range " + options.startRow() + ":" + end + " passes the end of the file (" + numRows() + " rows): "
              + location());
    }
    ColumnSource source = remote()
        ? new ColumnSource(file, metadata.version(), metadata.columns(), metadata.numRows(), pages, scanFetches())
        : source();
    List<FieldDecoder> decoders = decoders(options.columns(), source);
    // From a remote store (an object store: requests cost more than a block of transfer), the
    // batches' bytes are fetched a window of rows at a time, every range of the window at once,
    // instead of a request per page read. Local files read as they go, holding nothing extra.
    BatchReader.Prefetch prefetch = remote()
        ? (from, to) -> fetchWindow(source, decoders, from, to, options.batchSize()) : null;
    return new BatchReader(location(), allocator, decoders, options.startRow(), end, options.batchSize(),
        options.parallelism(), prefetch);
  }

  /**
   * Fetches ahead, from a remote store, the pages a {@link #read} of rows [from, to) of these
   * columns will decode, into the bytes this reader's scans share; a later read finds them there.
   * A scan calls it for the files it will read next, so that their requests overlap the decoding
   * of the current ones. Does nothing for a local file.
   *
   * @throws ColumnNotFoundException if a column is not in the file
   */
  public void prefetch(List<String> columns, long from, long to) throws IOException {
    if (!remote() || from >= to) {
      return;
    }
    ColumnSource source = new ColumnSource(file, metadata.version(), metadata.columns(), metadata.numRows(), pages,
        scanFetches());
    List<FieldDecoder> decoders = decoders(columns, source);
    try {
      fetchWindow(source, decoders, from, Math.min(to, numRows()), ReadOptions.DEFAULT_BATCH_SIZE);
    } finally {
      decoders.forEach(FieldDecoder::close);
    }
  }

  /** Reads every row of the given columns (all when null) in batches of the default size. */
  public ArrowReader read(List<String> columns) throws IOException {
    return read(ReadOptions.builder().columns(columns).build());
  }

  /**
   * Reads the given rows, in the order given (duplicates allowed), reading only the pages or
   * chunks that hold them. The caller closes the returned root.
   *
   * @param rows row indices in [0, numRows())
   * @param columns top-level columns, or null for all
   * @throws IndexOutOfBoundsException if a row is out of range
   */
  public VectorSchemaRoot take(long[] rows, List<String> columns) throws IOException {
    for (long r : rows) {
      if (r < 0 || r >= numRows()) {
        throw new IndexOutOfBoundsException(
            "Row " + r + " is out of range for a file of " + numRows() + " rows: " + location());
      }
    }
    boolean inOrder = true;
    for (int i = 1; i < rows.length && inOrder; i++) {
      inOrder = rows[i] > rows[i - 1];
    }
    long[] sorted = inOrder ? rows : sortedDistinct(rows);
    ColumnSource source = source();
    List<FieldDecoder> decoders = decoders(columns, source);
    List<FieldVector> vectors = new ArrayList<>();
    try {
      RowRanges ranges = RowRanges.ofSortedRows(sorted);
      if (!file.mapped() && !ranges.isEmpty()) {
        // Rows that share a chunk or page would each read it: find every range first, then read
        // each distinct one once (neighbours coalesced) and decode from those bytes.
        fetchAhead(source, decoders, ranges);
      }
      for (FieldDecoder d : decoders) {
        FieldVector v = decode(location(), d, ranges, allocator);
        vectors.add(inOrder ? v : reorder(v, sorted, rows));
      }
    } catch (IOException | RuntimeException e) {
      vectors.forEach(FieldVector::close);
      throw e;
    } finally {
      decoders.forEach(FieldDecoder::close);
    }
    List<Field> fields = new ArrayList<>();
    for (FieldVector v : vectors) {
      fields.add(v.getField());
    }
    return new VectorSchemaRoot(fields, vectors, rows.length);
  }

  /**
   * A reader of a {@code fixed_size_list<float32, dim>} column's vectors straight into float
   * arrays, with no Arrow vector: one bulk copy per row from the pages. Only for files whose pages
   * hold the column as plain floats without nulls (2.1 full-zip pages of uncompressed values, as
   * Javelin writes vectors of 64 dimensions and more, and lance-core 7.0.0 those of 128, the
   * width tested); null for any other column type or layout, where the caller uses
   * {@link #take}. Close it when done (before this reader).
   *
   * @throws ColumnNotFoundException if the column is not in the file
   */
  public FloatVectorReader floatVectors(String column) {
    ColumnSource source = source();
    List<FieldDecoder> decoders = decoders(List.of(column), source);
    FieldDecoder d = decoders.get(0);
    int dim = floatVectorDimension(d.field().toArrow());
    boolean plain;
    try {
      plain = dim > 0 && d.plainFloats(dim);
    } catch (RuntimeException e) {
      d.close();
      throw e;
    }
    if (!plain) {
      d.close();
      return null;
    }
    // From a remote store, each block's rows are fetched in one round of reads at
    // once (a vector search's refine reads many scattered rows), the last block's bytes dropped.
    FloatVectorReader.Prefetch prefetch = !remote() ? null : rows -> {
      source.retainOnly(new ReadPlan());
      fetchAhead(source, decoders, RowRanges.ofSortedRows(rows));
    };
    return new FloatVectorReader(location(), d, dim, numRows(), prefetch);
  }

  // The dimension of a fixed_size_list<float32>, or 0 for any other type.
  private static int floatVectorDimension(Field f) {
    if (!(f.getType() instanceof ArrowType.FixedSizeList fsl)
        || f.getChildren().size() != 1) {
      return 0;
    }
    ArrowType item = f.getChildren().get(0).getType();
    boolean float32 = item instanceof ArrowType.FloatingPoint fp
        && fp.getPrecision() == FloatingPointPrecision.SINGLE;
    return float32 ? fsl.getListSize() : 0;
  }

  private static long[] sortedDistinct(long[] rows) {
    long[] s = rows.clone();
    Arrays.sort(s);
    int n = 0;
    for (int i = 0; i < s.length; i++) {
      if (n == 0 || s[i] != s[n - 1]) {
        s[n++] = s[i];
      }
    }
    return Arrays.copyOf(s, n);
  }

  // Puts the values of sorted distinct rows into the caller's order; closes the input.
  private FieldVector reorder(FieldVector sortedValues, long[] sorted, long[] rows) {
    try (FieldVector in = sortedValues) {
      int[] idx = new int[rows.length];
      for (int i = 0; i < rows.length; i++) {
        idx[i] = Arrays.binarySearch(sorted, rows[i]);
      }
      return Gather.gather(in, idx, allocator);
    }
  }

  private ColumnSource source() {
    return new ColumnSource(file, metadata.version(), metadata.columns(), metadata.numRows(), pages);
  }

  // The bytes this reader's scans of a remote file fetch ahead, shared: a parallel scan reads row
  // ranges of one file side by side, whose windows hold the same whole pages.
  private synchronized FetchedBytes scanFetches() {
    if (scanFetches == null) {
      scanFetches = new FetchedBytes(SCAN_FETCH_BUDGET);
    }
    return scanFetches;
  }

  private List<FieldDecoder> decoders(List<String> columns, ColumnSource source) {
    List<LanceField> fields = metadata.schema().fields();
    List<Integer> picked = new ArrayList<>();
    if (columns == null) {
      for (int i = 0; i < fields.size(); i++) {
        picked.add(i);
      }
    } else {
      for (String name : columns) {
        int idx = metadata.schema().indexOf(name);
        if (idx < 0) {
          throw new ColumnNotFoundException(location(), name);
        }
        picked.add(idx);
      }
    }
    List<FieldDecoder> out = new ArrayList<>();
    for (int idx : picked) {
      source.seek(firstColumn[idx]);
      try {
        out.add(strategy.newDecoder(fields.get(idx), source));
      } catch (LanceFormatException e) {
        out.forEach(FieldDecoder::close);
        throw e;
      } catch (RuntimeException e) {
        out.forEach(FieldDecoder::close);
        throw malformed(location(), fields.get(idx).name(), e);
      }
    }
    return out;
  }

  /**
   * Decodes rows of one field. A decoder reports what it recognises as corrupt itself; any other
   * runtime failure while decoding is also the file's fault, so it is reported the same way.
   */
  static FieldVector decode(String location, FieldDecoder decoder, RowRanges rows, BufferAllocator allocator)
      throws IOException {
    try {
      return decoder.read(rows, allocator);
    } catch (LanceFormatException | OutOfMemoryException e) {
      throw e;
    } catch (RuntimeException e) {
      throw malformed(location, decoder.field().name(), e);
    }
  }

  // Whether the file is on a remote store, where a request costs more than a block of transfer:
  // reads are then planned and sent in rounds, all of a round at once.
  private boolean remote() {
    return !file.mapped() && file.blockSize() >= InputFile.REMOTE_BLOCK_SIZE;
  }

  // Fetches the bytes the decoders will read for `rows`, in two rounds: the pages' metadata, which
  // tells where the rows are, then the rows' bytes; each round's ranges are read at once. Returns
  // the bytes read.
  private long fetchAhead(ColumnSource source, List<FieldDecoder> decoders, RowRanges rows) throws IOException {
    long read = 0;
    for (boolean metadata : new boolean[] {true, false}) {
      ReadPlan plan = new ReadPlan();
      for (FieldDecoder d : decoders) {
        plan(location(), d, rows, plan, metadata);
      }
      read += source.fetch(plan);
    }
    return read;
  }

  // A scan's window of rows from `from` to at least `to`: in a 2.1 or later file, where every
  // column's pages count rows, every buffer of every page of the fields' columns holding some of
  // those rows is fetched in one round (a scan reads whole pages, as Lance's does), and the window
  // is stretched to where the first of those columns' last pages ends, so that the next window
  // starts where a page does. The bytes are kept with the reader (scanFetches), where the other
  // row ranges of a parallel scan find them; the oldest are dropped past a budget. The decoders'
  // own two rounds then find little or nothing left to fetch.
  private BatchReader.Window fetchWindow(ColumnSource source, List<FieldDecoder> decoders, long from, long to,
      long minWindowRows) throws IOException {
    long read = 0;
    long covered = to;
    if (metadata.version() != LanceFileVersion.V2_0) {
      ReadPlan pagesPlan;
      long pagesEnd;
      while (true) {
        pagesPlan = new ReadPlan();
        pagesEnd = Long.MAX_VALUE;
        List<LanceField> fields = metadata.schema().fields();
        for (FieldDecoder d : decoders) {
          int idx = metadata.schema().indexOf(d.field().name());
          int last = idx + 1 < fields.size() ? firstColumn[idx + 1] : metadata.columns().size();
          for (int c = idx < 0 ? last : firstColumn[idx]; c < last; c++) {
            pagesEnd = Math.min(pagesEnd, source.planPages(c, from, to, pagesPlan));
          }
        }
        // Pages are large or rows wide: fewer rows, down to one batch's worth (its pages whole).
        if (pagesPlan.bytes() <= BatchReader.WINDOW_BYTES || to - from <= minWindowRows) {
          break;
        }
        to = from + Math.max(minWindowRows, (to - from) / 2);
      }
      covered = Math.max(to, Math.min(pagesEnd, numRows()));
      read += source.fetch(pagesPlan);
    }
    read += fetchAhead(source, decoders, RowRanges.of(from, covered));
    return new BatchReader.Window(read, covered);
  }

  /** Plans the reads of rows of one field, reporting failures as {@link #decode} does. */
  static void plan(String location, FieldDecoder decoder, RowRanges rows, ReadPlan plan, boolean metadata)
      throws IOException {
    try {
      if (metadata) {
        decoder.planMetadata(rows, plan);
      } else {
        decoder.plan(rows, plan);
      }
    } catch (LanceFormatException | OutOfMemoryException e) {
      throw e;
    } catch (RuntimeException e) {
      throw malformed(location, decoder.field().name(), e);
    }
  }

  private static CorruptFileException malformed(String location, String field, RuntimeException e) {
    return new CorruptFileException(location, "Column '" + field + "' could not be decoded (" + e + ")", e);
  }

  @Override
  public void close() throws IOException {
    file.close();
  }
}
