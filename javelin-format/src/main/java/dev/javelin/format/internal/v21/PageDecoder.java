package dev.javelin.format.internal.v21;

import dev.javelin.format.exceptions.BadDataException;
import dev.javelin.format.exceptions.CorruptFileException;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.format.internal.encoding.ColumnSource;
import dev.javelin.format.internal.encoding.ReadPlan;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

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
    } catch (IndexOutOfBoundsException | BufferUnderflowException | IllegalArgumentException
        | ArithmeticException | NegativeArraySizeException e) {
      // Checks above should catch malformed input first; this is the safety net.
      throw new CorruptFileException(source.location(),
          "Column " + column + " page " + page + ": malformed page (" + e + ")", e);
    }
  }

  abstract void doRead(long[] starts, long[] ends, int count, LeafEntries out) throws IOException;

  /**
   * Adds to {@code plan} the file ranges {@link #read} of these rows will read (see
   * {@link dev.javelin.format.internal.encoding.FieldDecoder#plan}).
   *
   * @throws CorruptFileException if the page's metadata is malformed
   */
  final void plan(long[] starts, long[] ends, int count, ReadPlan plan, boolean metadata) throws IOException {
    try {
      if (metadata) {
        doPlanMetadata(starts, ends, count, plan);
      } else {
        doPlan(starts, ends, count, plan);
      }
    } catch (BadDataException e) {
      throw corrupt(e.getMessage());
    } catch (IndexOutOfBoundsException | BufferUnderflowException | IllegalArgumentException
        | ArithmeticException | NegativeArraySizeException e) {
      throw new CorruptFileException(source.location(),
          "Column " + column + " page " + page + ": malformed page (" + e + ")", e);
    }
  }

  /** Plans nothing by default: the page reads as it decodes. */
  void doPlan(long[] starts, long[] ends, int count, ReadPlan plan) throws IOException {}

  /** The page metadata {@link #doPlan} reads (nothing by default); reads nothing itself. */
  void doPlanMetadata(long[] starts, long[] ends, int count, ReadPlan plan) {}

  /** Adds bytes [offset, offset + length) of page buffer {@code buffer} to {@code plan}, when in it. */
  void planBuffer(ReadPlan plan, int buffer, long offset, long length) {
    if (buffer < bufferSizes.length && offset >= 0 && length >= 0 && offset + length <= bufferSizes[buffer]) {
      plan.add(bufferOffsets[buffer] + offset, length);
    }
  }

  /**
   * Whether the page stores each row as {@code dim} plain little-endian float32 values, back to
   * back with nothing between rows, so {@link #readFloats} can copy them.
   */
  boolean plainFloats(int dim) {
    return false;
  }

  /**
   * Copies the values of rows {@code rows[from..to)} (sorted, distinct, within the page once
   * {@code firstRow} is subtracted) into {@code out} from {@code outOffset}, {@code dim} floats
   * a row. Only called when {@link #plainFloats} said yes.
   */
  void readFloats(long[] rows, int from, int to, long firstRow, int dim, float[] out, int outOffset)
      throws IOException {
    throw new IllegalStateException("page does not hold plain floats");
  }

  /** Drops cached state. */
  void release() {}

  /** Reads bytes [offset, offset + length) of page buffer {@code buffer}, checking its bounds. */
  ByteBuffer readBuffer(int buffer, long offset, long length) throws IOException {
    checkRange(buffer, offset, length);
    return source.read(column, page, bufferOffsets[buffer] + offset, length);
  }

  /**
   * Reads like {@link #readBuffer} but into this thread's read buffer, which the thread's next
   * such read refills: for callers that copy all they decode out of the bytes before returning
   * (and read nothing else meanwhile). Scans read many small runs of chunks; this saves a fresh,
   * zeroed array per run.
   */
  ByteBuffer readReused(int buffer, long offset, long length) throws IOException {
    checkRange(buffer, offset, length);
    if (length > Integer.MAX_VALUE - 64) {
      throw corrupt("buffer range " + (bufferOffsets[buffer] + offset) + "+" + length + " is invalid");
    }
    ByteBuffer b = ReadBuffer.get((int) length);
    source.readInto(column, page, bufferOffsets[buffer] + offset, b);
    b.flip();
    return b;
  }

  /**
   * Each thread's reusable read buffer. A thread keeps at most {@link #KEEP} bytes: a larger
   * read gets an array of its own, so an idle thread never pins a huge buffer.
   */
  static final class ReadBuffer {
    static final int KEEP = 4 << 20;
    private static final ThreadLocal<ReadBuffer> MINE = ThreadLocal.withInitial(ReadBuffer::new);
    private ByteBuffer buffer = ByteBuffer.allocate(0);

    private ReadBuffer() {}

    // A little-endian buffer, cleared, with exactly n bytes remaining.
    static ByteBuffer get(int n) {
      if (n > KEEP) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
      }
      ReadBuffer r = MINE.get();
      if (r.buffer.capacity() < n) {
        int grown = (int) Math.min(KEEP, Math.max(n, 2L * r.buffer.capacity()));
        r.buffer = ByteBuffer.allocate(grown).order(ByteOrder.LITTLE_ENDIAN);
      }
      r.buffer.clear().limit(n);
      return r.buffer;
    }
  }

  /** As {@link #readBuffer}, possibly as a view of mapped memory ({@link ColumnSource#view}). */
  ByteBuffer viewBuffer(int buffer, long offset, long length) throws IOException {
    checkRange(buffer, offset, length);
    return source.view(column, page, bufferOffsets[buffer] + offset, length);
  }

  private void checkRange(int buffer, long offset, long length) {
    if (buffer >= bufferSizes.length) {
      throw corrupt("has no buffer " + buffer);
    }
    if (offset < 0 || length < 0 || offset + length > bufferSizes[buffer]) {
      throw corrupt("read of bytes " + offset + "+" + length + " passes the end of buffer " + buffer + " ("
          + bufferSizes[buffer] + " bytes)");
    }
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
