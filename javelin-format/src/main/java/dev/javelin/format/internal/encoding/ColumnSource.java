package dev.javelin.format.internal.encoding;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.exceptions.CorruptFileException;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.io.InputFile;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * What decoders read from: the file, its version, and its column metadata, handed out in column
 * order as decoders claim columns (pre-order over the schema, the order encoders made them).
 */
public final class ColumnSource {
  private final InputFile file;
  private final LanceFileVersion version;
  private final List<ColumnMetadata> columns;
  private final long numRows;
  private final PageCache pages;
  private int next;
  /** Bytes fetched ahead (by file position): this source's own, or its file's scans' shared ones. */
  private final FetchedBytes fetched;

  /** The longest read a fetch makes by merging ranges. */
  static final long MAX_MERGED_READ = 16L << 20;
  /**
   * The most bytes one fetch reads, and one source keeps, ahead; ranges past that are left to the
   * decoders, which read them as they go (bounds the memory a take of very many rows holds).
   */
  static final long MAX_FETCHED_BYTES = 64L << 20;

  public ColumnSource(InputFile file, LanceFileVersion version, List<ColumnMetadata> columns, long numRows) {
    this(file, version, columns, numRows, null);
  }

  /** With {@code pages} (null for none), where decoders find and keep the file's page metadata. */
  public ColumnSource(InputFile file, LanceFileVersion version, List<ColumnMetadata> columns, long numRows,
      PageCache pages) {
    this(file, version, columns, numRows, pages, null);
  }

  /**
   * With {@code shared} (null for bytes of its own), the bytes other sources of the same file
   * fetched ahead and will fetch, which this one reads from and adds to.
   */
  public ColumnSource(InputFile file, LanceFileVersion version, List<ColumnMetadata> columns, long numRows,
      PageCache pages, FetchedBytes shared) {
    this.file = file;
    this.version = version;
    this.columns = columns;
    this.numRows = numRows;
    this.pages = pages;
    this.fetched = shared != null ? shared : new FetchedBytes(MAX_FETCHED_BYTES);
  }

  /** The file's page metadata cache, or null when its readers share none. */
  public PageCache pageCache() {
    return pages;
  }

  public LanceFileVersion version() {
    return version;
  }

  public String location() {
    return file.location();
  }

  /** Rows in the file. */
  public long numRows() {
    return numRows;
  }

  /** The index the next {@link #claim()} returns. */
  public int nextIndex() {
    return next;
  }

  /** Moves the cursor, for a reader that decodes a projection (skipping unprojected fields). */
  public void seek(int columnIndex) {
    this.next = columnIndex;
  }

  /**
   * Claims the next column.
   *
   * @throws CorruptFileException if the file has fewer columns than the schema needs
   */
  public int claim() {
    if (next >= columns.size()) {
      throw new CorruptFileException(
          file.location(), "Schema needs more columns than the file's " + columns.size());
    }
    return next++;
  }

  public ColumnMetadata column(int index) {
    return columns.get(index);
  }

  public int numColumns() {
    return columns.size();
  }

  /**
   * Adds to {@code plan} every buffer of each page of column {@code index} that holds some of rows
   * [from, to), and the column's own buffers: what a scan of those rows reads, whole. Only for
   * 2.1 and later files, whose pages count rows (a 2.0 page of a list's items counts items).
   *
   * @return the row where the last of those pages ends (Long.MAX_VALUE when none holds any)
   */
  public long planPages(int index, long from, long to, ReadPlan plan) {
    ColumnMetadata column = columns.get(index);
    long first = 0;
    long covered = Long.MAX_VALUE;
    for (ColumnMetadata.Page page : column.getPagesList()) {
      long end = first + page.getLength();
      if (first < to && end > from) {
        for (int b = 0; b < page.getBufferOffsetsCount() && b < page.getBufferSizesCount(); b++) {
          plan.add(page.getBufferOffsets(b), page.getBufferSizes(b));
        }
        covered = end;
      }
      first = end;
    }
    for (int b = 0; b < column.getBufferOffsetsCount() && b < column.getBufferSizesCount(); b++) {
      plan.add(column.getBufferOffsets(b), column.getBufferSizes(b));
    }
    return covered;
  }

  /**
   * Reads bytes of a buffer of a column's page.
   *
   * @throws CorruptFileException if the range is negative, too large or past the end of the file
   */
  public ByteBuffer read(int column, int page, long position, long length) throws IOException {
    if (position < 0 || length < 0 || length > Integer.MAX_VALUE - 64) {
      throw corrupt(column, page, "buffer range " + position + "+" + length + " is invalid");
    }
    try {
      if (position + length > file.length()) {
        throw corrupt(column, page, "buffer range " + position + "+" + length
            + " passes the end of the file (" + file.length() + " bytes)");
      }
      ByteBuffer hit = fetched(position, length);
      if (hit != null) {
        ByteBuffer copy = ByteBuffer.allocate(hit.remaining()).order(ByteOrder.LITTLE_ENDIAN);
        copy.put(hit).flip();
        return copy;
      }
      return file.read(position, (int) length);
    } catch (EOFException e) {
      throw new CorruptFileException(file.location(), "column " + column + " page " + page + ": " + e.getMessage(), e);
    }
  }

  /** Whether {@link #view} gives views of mapped memory rather than copies. */
  public boolean mapped() {
    return file.mapped();
  }

  /** Whether {@link #view} of this range costs no copy (see {@link InputFile#viewable}). */
  public boolean viewable(long position, long length) {
    return file.viewable(position, length);
  }

  /**
   * As {@link #read}, but may return a read-only view of the file's mapped memory (no array; see
   * {@link InputFile#view}), for decoders that read a few values of a large range.
   */
  public ByteBuffer view(int column, int page, long position, long length) throws IOException {
    if (position < 0 || length < 0 || length > Integer.MAX_VALUE - 64) {
      throw corrupt(column, page, "buffer range " + position + "+" + length + " is invalid");
    }
    try {
      if (position + length > file.length()) {
        throw corrupt(column, page, "buffer range " + position + "+" + length
            + " passes the end of the file (" + file.length() + " bytes)");
      }
      ByteBuffer hit = fetched(position, length);
      return hit != null ? hit : file.view(position, (int) length);
    } catch (EOFException e) {
      throw new CorruptFileException(file.location(), "column " + column + " page " + page + ": " + e.getMessage(), e);
    }
  }

  /**
   * Reads {@code dst.remaining()} bytes of a buffer of a column's page into {@code dst}, with the
   * checks of {@link #read}.
   */
  public void readInto(int column, int page, long position, ByteBuffer dst) throws IOException {
    long length = dst.remaining();
    if (position < 0) {
      throw corrupt(column, page, "buffer range " + position + "+" + length + " is invalid");
    }
    try {
      if (position + length > file.length()) {
        throw corrupt(column, page, "buffer range " + position + "+" + length
            + " passes the end of the file (" + file.length() + " bytes)");
      }
      ByteBuffer hit = fetched(position, length);
      if (hit != null) {
        dst.put(hit);
        return;
      }
      file.readFully(position, dst);
    } catch (EOFException e) {
      throw new CorruptFileException(file.location(), "column " + column + " page " + page + ": " + e.getMessage(), e);
    }
  }

  /**
   * Reads the planned ranges ahead, each distinct byte once, merging ranges that overlap or lie at
   * most the file's {@link InputFile#blockSize()} bytes apart into one read, and sending the reads
   * at once ({@link InputFile#readAll}); later reads that fall inside a fetched range
   * ({@link #read}, {@link #view}, {@link #readInto}) are served from it. Does nothing on a
   * mapped file, where reads cost no I/O. Ranges outside the file are skipped (the decoder that
   * asked reports them when it reads), and so are ranges past {@link #MAX_FETCHED_BYTES} in one
   * call. Bytes fetched are kept until {@link #retainOnly} drops them or, past the budget of the
   * {@link FetchedBytes} they are kept in, newer ones push them out.
   *
   * @return the bytes this call read
   */
  public long fetch(ReadPlan plan) throws IOException {
    if (plan.isEmpty() || file.mapped()) {
      return 0;
    }
    long fileLength = file.length();
    long[][] ranges = plan.coalesced(Math.max(0, file.blockSize()), MAX_MERGED_READ);
    // One fetch at a time per store of fetched bytes: a second reader of the same pages finds
    // them fetched instead of fetching them too.
    synchronized (fetched.fetchLock()) {
      // Only the gaps between bytes fetched already are read, so no byte is read twice.
      long[] positions = new long[8];
      int[] lengths = new int[8];
      int k = 0;
      long adding = 0;
      for (int i = 0; i < ranges[0].length; i++) {
        long s = ranges[0][i];
        long e = ranges[1][i];
        if (e > fileLength) {
          continue;
        }
        long[] gaps = fetched.gaps(s, e);
        for (int g = 0; g < gaps.length; g += 2) {
          long length = gaps[g + 1] - gaps[g];
          if (adding + length > MAX_FETCHED_BYTES) {
            continue;
          }
          if (k == positions.length) {
            positions = Arrays.copyOf(positions, k * 2);
            lengths = Arrays.copyOf(lengths, k * 2);
          }
          positions[k] = gaps[g];
          lengths[k] = (int) length;
          adding += length;
          k++;
        }
      }
      if (k == 0) {
        return 0;
      }
      ByteBuffer[] got = file.readAll(Arrays.copyOf(positions, k), Arrays.copyOf(lengths, k));
      for (int i = 0; i < k; i++) {
        fetched.insert(positions[i], got[i]);
      }
      return adding;
    }
  }

  /**
   * Drops the bytes fetched so far that no range of {@code plan} needs (a reader moving on to its
   * next rows keeps the pages the two share).
   */
  public void retainOnly(ReadPlan plan) {
    fetched.retainOnly(plan);
  }

  /** The fetched bytes [position, position + length) as a little-endian slice, or null. */
  private ByteBuffer fetched(long position, long length) {
    return fetched.slice(position, length);
  }

  /** A {@link CorruptFileException} naming this file, the column and the page. */
  public CorruptFileException corrupt(int column, int page, String what) {
    return new CorruptFileException(file.location(), "Column " + column + " page " + page + ": " + what);
  }
}
