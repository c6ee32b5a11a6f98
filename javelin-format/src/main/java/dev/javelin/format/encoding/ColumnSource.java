package dev.javelin.format.encoding;

import dev.javelin.format.CorruptFileException;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.io.InputFile;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
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
      return file.read(position, (int) length);
    } catch (EOFException e) {
      throw new CorruptFileException(file.location(), "column " + column + " page " + page + ": " + e.getMessage(), e);
    }
  }

  /** Whether {@link #view} gives views of mapped memory rather than copies. */
  public boolean mapped() {
    return file.mapped();
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
      return file.view(position, (int) length);
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
      file.readFully(position, dst);
    } catch (EOFException e) {
      throw new CorruptFileException(file.location(), "column " + column + " page " + page + ": " + e.getMessage(), e);
    }
  }

  /** A {@link CorruptFileException} naming this file, the column and the page. */
  public CorruptFileException corrupt(int column, int page, String what) {
    return new CorruptFileException(file.location(), "Column " + column + " page " + page + ": " + what);
  }
}
