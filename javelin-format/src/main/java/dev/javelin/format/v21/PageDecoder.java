package dev.javelin.format.v21;

import dev.javelin.format.CorruptFileException;
import dev.javelin.format.UnsupportedFormatException;
import dev.javelin.format.encoding.ColumnSource;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Reads rows of one page of a leaf column into {@link LeafEntries}. One subclass per layout.
 * Subclasses may cache small per-page state (chunk metadata, a decoded chunk); the column reader
 * calls {@link #release()} when it moves to another page, so at most one page's state is kept.
 */
abstract class PageDecoder {
  final ColumnSource source;
  final LeafPath path;
  final int column;
  final int page;
  final long numRows;
  final long[] bufferOffsets;
  final long[] bufferSizes;

  PageDecoder(ColumnSource source, LeafPath path, int column, int page, ColumnMetadata.Page meta) {
    this.source = source;
    this.path = path;
    this.column = column;
    this.page = page;
    this.numRows = meta.getLength();
    if (meta.getBufferOffsetsCount() != meta.getBufferSizesCount()) {
      throw corrupt("has " + meta.getBufferOffsetsCount() + " buffer offsets but " + meta.getBufferSizesCount()
          + " buffer sizes");
    }
    this.bufferOffsets = new long[meta.getBufferOffsetsCount()];
    this.bufferSizes = new long[meta.getBufferOffsetsCount()];
    for (int i = 0; i < bufferOffsets.length; i++) {
      bufferOffsets[i] = meta.getBufferOffsets(i);
      bufferSizes[i] = meta.getBufferSizes(i);
      if (bufferSizes[i] < 0 || bufferOffsets[i] < 0) {
        throw corrupt("buffer " + i + " has offset " + bufferOffsets[i] + " and size " + bufferSizes[i]);
      }
    }
  }

  /**
   * Appends the rows [starts[i], ends[i]) (sorted, within the page) to {@code out}.
   *
   * @throws CorruptFileException if the page's bytes are malformed
   */
  final void read(long[] starts, long[] ends, int count, LeafEntries out) throws IOException {
    try {
      doRead(starts, ends, count, out);
    } catch (BadDataException e) {
      throw corrupt(e.getMessage());
    } catch (IndexOutOfBoundsException | java.nio.BufferUnderflowException | IllegalArgumentException
        | ArithmeticException | NegativeArraySizeException e) {
      // Checks above should catch malformed input first; this is the safety net.
      throw new CorruptFileException(source.location(),
          "Column " + column + " page " + page + ": malformed page (" + e + ")", e);
    }
  }

  abstract void doRead(long[] starts, long[] ends, int count, LeafEntries out) throws IOException;

  /** Drops cached state. */
  void release() {}

  /** Reads bytes [offset, offset + length) of page buffer {@code buffer}, checking its bounds. */
  ByteBuffer readBuffer(int buffer, long offset, long length) throws IOException {
    if (buffer >= bufferSizes.length) {
      throw corrupt("has no buffer " + buffer);
    }
    if (offset < 0 || length < 0 || offset + length > bufferSizes[buffer]) {
      throw corrupt("read of bytes " + offset + "+" + length + " passes the end of buffer " + buffer + " ("
          + bufferSizes[buffer] + " bytes)");
    }
    return source.read(column, page, bufferOffsets[buffer] + offset, length);
  }

  /** As {@link #readBuffer}, possibly as a view of mapped memory ({@link ColumnSource#view}). */
  ByteBuffer viewBuffer(int buffer, long offset, long length) throws IOException {
    if (buffer >= bufferSizes.length) {
      throw corrupt("has no buffer " + buffer);
    }
    if (offset < 0 || length < 0 || offset + length > bufferSizes[buffer]) {
      throw corrupt("read of bytes " + offset + "+" + length + " passes the end of buffer " + buffer + " ("
          + bufferSizes[buffer] + " bytes)");
    }
    return source.view(column, page, bufferOffsets[buffer] + offset, length);
  }

  CorruptFileException corrupt(String what) {
    return source.corrupt(column, page, what);
  }

  UnsupportedFormatException unsupported(String what) {
    return new UnsupportedFormatException(source.location(), "Column " + column + " page " + page + ": " + what);
  }

  /** Requires a page buffer count. */
  void requireBuffers(int n) {
    if (bufferSizes.length < n) {
      throw corrupt("has " + bufferSizes.length + " buffers, needs " + n);
    }
  }

  /** Reads an unsigned little-endian integer of 1, 2, 4 or 8 bytes. */
  static long unsigned(ByteBuffer b, int pos, int width) {
    switch (width) {
      case 1:
        return b.get(pos) & 0xFFL;
      case 2:
        return b.getShort(pos) & 0xFFFFL;
      case 4:
        return b.getInt(pos) & 0xFFFFFFFFL;
      default:
        return b.getLong(pos);
    }
  }
}
