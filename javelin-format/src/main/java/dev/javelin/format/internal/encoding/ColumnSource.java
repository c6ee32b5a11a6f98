package dev.javelin.format.internal.encoding;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.exceptions.CorruptFileException;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.io.InputFile;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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
  /** Bytes fetched ahead for a take (by file position), or null: reads inside them cost no I/O. */
  private TreeMap<Long, ByteBuffer> fetched;
  private long fetchedBytes;

  /** The longest read a fetch makes by merging ranges. */
  static final long MAX_MERGED_READ = 16L << 20;
  /**
   * The most bytes one source fetches ahead; ranges past that are left to the decoders, which read
   * them as they go (bounds the memory a take of very many rows holds at once).
   */
  static final long MAX_FETCHED_BYTES = 64L << 20;

  public ColumnSource(InputFile file, LanceFileVersion version, List<ColumnMetadata> columns, long numRows) {
    this(file, version, columns, numRows, null);
  }

  /** With {@code pages} (null for none), where decoders find and keep the file's page metadata. */
  public ColumnSource(InputFile file, LanceFileVersion version, List<ColumnMetadata> columns, long numRows,
      PageCache pages) {
    this.file = file;
    this.version = version;
    this.columns = columns;
    this.numRows = numRows;
    this.pages = pages;
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
   * most the file's {@link InputFile#blockSize()} bytes apart into one read; later reads that fall
   * inside a fetched range ({@link #read}, {@link #view}, {@link #readInto}) are served from it.
   * Does nothing on a mapped file, where reads cost no I/O. Ranges outside the file are skipped
   * (the decoder that asked reports them when it reads). Bytes fetched are kept as long as this
   * source, which a take makes for itself.
   */
  public void fetch(ReadPlan plan) throws IOException {
    if (plan.isEmpty() || file.mapped()) {
      return;
    }
    long fileLength = file.length();
    long[][] ranges = plan.coalesced(Math.max(0, file.blockSize()), MAX_MERGED_READ);
    for (int i = 0; i < ranges[0].length; i++) {
      long s = ranges[0][i];
      long e = ranges[1][i];
      if (e > fileLength || fetchedBytes + (e - s) > MAX_FETCHED_BYTES) {
        continue;
      }
      add(s, e);
    }
  }

  // Fetches [s, e), merged with the fetched ranges it overlaps or touches (their bytes are copied,
  // not read again), so a range planned later never spans two fetched pieces.
  private void add(long s, long e) throws IOException {
    if (fetched == null) {
      fetched = new TreeMap<>();
    }
    Map.Entry<Long, ByteBuffer> before = fetched.floorEntry(s);
    if (before != null && before.getKey() + before.getValue().capacity() >= e) {
      return; // fetched already
    }
    long from = s;
    long to = e;
    if (before != null && before.getKey() + before.getValue().capacity() >= s) {
      from = before.getKey();
    }
    Map<Long, ByteBuffer> joined = fetched.subMap(from, true, to, true);
    long[] starts = new long[joined.size()];
    ByteBuffer[] pieces = new ByteBuffer[joined.size()];
    int n = 0;
    for (Map.Entry<Long, ByteBuffer> x : joined.entrySet()) {
      starts[n] = x.getKey();
      pieces[n++] = x.getValue();
      to = Math.max(to, x.getKey() + x.getValue().capacity());
    }
    if (to - from > Integer.MAX_VALUE - 64) {
      return;
    }
    ByteBuffer merged = ByteBuffer.allocate((int) (to - from)).order(ByteOrder.LITTLE_ENDIAN);
    long at = from;
    for (int i = 0; i < n; i++) {
      if (starts[i] > at) {
        file.readFully(at, merged.slice((int) (at - from), (int) (starts[i] - at)));
      }
      merged.put((int) (starts[i] - from), pieces[i], 0, pieces[i].capacity());
      at = starts[i] + pieces[i].capacity();
      fetchedBytes -= pieces[i].capacity();
      fetched.remove(starts[i]);
    }
    if (to > at) {
      file.readFully(at, merged.slice((int) (at - from), (int) (to - at)));
    }
    fetched.put(from, merged);
    fetchedBytes += merged.capacity();
  }

  /** The fetched bytes [position, position + length) as a little-endian slice, or null. */
  private ByteBuffer fetched(long position, long length) {
    if (fetched == null) {
      return null;
    }
    Map.Entry<Long, ByteBuffer> e = fetched.floorEntry(position);
    if (e == null || position + length > e.getKey() + e.getValue().capacity()) {
      return null;
    }
    return e.getValue().slice((int) (position - e.getKey()), (int) length).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** A {@link CorruptFileException} naming this file, the column and the page. */
  public CorruptFileException corrupt(int column, int page, String what) {
    return new CorruptFileException(file.location(), "Column " + column + " page " + page + ": " + what);
  }
}
