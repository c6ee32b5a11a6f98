package dev.javelin.format.internal.v20;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.javelin.format.exceptions.CorruptFileException;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.format.internal.encoding.ColumnSource;
import dev.javelin.format.proto.Encodings20.ArrayEncoding;
import dev.javelin.format.proto.Encodings20.Buffer;
import dev.javelin.format.proto.Encodings20.Flat;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.format.proto.File2Protos.Encoding;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The pages of one column: their encodings (parsed once), where each starts, and the bytes of the
 * page read last, kept so that a scan in small batches reads each page once. Holds at most one
 * page's bytes.
 */
final class ColumnPages {
  final ColumnSource source;
  final int column;
  private final int numPages;
  private final long[] lengths;
  // firstRow[i] is the first value of page i; firstRow[numPages] is the total.
  private final long[] firstRow;
  private final long[][] positions;
  private final long[][] sizes;
  private final ArrayEncoding[] encodings;

  private int cachedPage = -1;
  private PageBytes cachedBytes;
  private Object cachedExtra;
  private int lastTouched = -1;
  // Where the previous read ended and, while a read is going on, where the one before it ended:
  // a read that starts where the last one stopped is a scan, and reads pages whole.
  private long lastEnd = -1;
  private long previousEnd = -1;

  ColumnPages(ColumnSource source, int column) {
    this.source = source;
    this.column = column;
    ColumnMetadata meta = source.column(column);
    this.numPages = meta.getPagesCount();
    this.lengths = new long[numPages];
    this.firstRow = new long[numPages + 1];
    this.positions = new long[numPages][];
    this.sizes = new long[numPages][];
    this.encodings = new ArrayEncoding[numPages];
    long row = 0;
    for (int p = 0; p < numPages; p++) {
      ColumnMetadata.Page page = meta.getPages(p);
      long length = page.getLength();
      if (length < 0 || row + length < 0) {
        throw corrupt(p, "page length " + Long.toUnsignedString(length) + " is invalid");
      }
      if (page.getBufferOffsetsCount() != page.getBufferSizesCount()) {
        throw corrupt(p, page.getBufferOffsetsCount() + " buffer offsets but " + page.getBufferSizesCount()
            + " buffer sizes");
      }
      int n = page.getBufferOffsetsCount();
      positions[p] = new long[n];
      sizes[p] = new long[n];
      for (int b = 0; b < n; b++) {
        positions[p][b] = page.getBufferOffsets(b);
        sizes[p][b] = page.getBufferSizes(b);
        if (positions[p][b] < 0 || sizes[p][b] < 0 || sizes[p][b] > Integer.MAX_VALUE - 64
            || positions[p][b] + sizes[p][b] < 0) {
          throw corrupt(p, "buffer " + b + " (" + Long.toUnsignedString(positions[p][b]) + "+"
              + Long.toUnsignedString(sizes[p][b]) + ") is invalid");
        }
      }
      encodings[p] = parse(p, page.getEncoding());
      lengths[p] = length;
      firstRow[p] = row;
      row += length;
    }
    firstRow[numPages] = row;
  }

  private ArrayEncoding parse(int page, Encoding encoding) {
    if (!encoding.hasDirect()) {
      throw unsupported(page, "page encoding is not stored inline (" + encoding.getLocationCase() + ")");
    }
    try {
      Any any = Any.parseFrom(encoding.getDirect().getEncoding());
      if (!any.getTypeUrl().endsWith("lance.encodings.ArrayEncoding")) {
        throw unsupported(page, "page encoding type '" + any.getTypeUrl() + "' is not a 2.0 ArrayEncoding");
      }
      return ArrayEncoding.parseFrom(any.getValue());
    } catch (InvalidProtocolBufferException e) {
      throw new CorruptFileException(source.location(),
          "Column " + column + " page " + page + ": page encoding is not valid: " + e.getMessage(), e);
    }
  }

  int numPages() {
    return numPages;
  }

  long length(int page) {
    return lengths[page];
  }

  /** The values in all pages. */
  long total() {
    return firstRow[numPages];
  }

  ArrayEncoding encoding(int page) {
    return encodings[page];
  }

  int numBuffers(int page) {
    return sizes[page].length;
  }

  long bufferSize(int page, int buffer) {
    return sizes[page][buffer];
  }

  CorruptFileException corrupt(int page, String what) {
    return source.corrupt(column, page, what);
  }

  UnsupportedFormatException unsupported(int page, String what) {
    return new UnsupportedFormatException(source.location(), "Column " + column + " page " + page + ": " + what);
  }

  /**
   * The exception for a page encoding that is not what the field's type needs: unsupported if it
   * is a Lance encoding Javelin does not decode, corrupt otherwise.
   */
  RuntimeException unexpected(int page, String what, ArrayEncoding found, String expected) {
    switch (found.getArrayEncodingCase()) {
      case ARRAYENCODING_NOT_SET:
        return corrupt(page, what + " has no encoding");
      case BITPACKED:
      case BITPACKED_FOR_NON_NEG:
      case CONSTANT:
      case FSST:
      case PACKED_STRUCT:
      case FIXED_SIZE_BINARY:
      case BLOCK:
      case RLE:
      case BYTE_STREAM_SPLIT:
      case INLINE_BITPACKING:
      case OUT_OF_LINE_BITPACKING:
      case VARIABLE:
      case PACKED_STRUCT_FIXED_WIDTH_MINI_BLOCK:
      case GENERAL_MINI_BLOCK:
        return unsupported(page, what + " encoded as " + found.getArrayEncodingCase() + " is not supported");
      default:
        return corrupt(page, what + " encoded as " + found.getArrayEncodingCase() + " where " + expected
            + " is expected");
    }
  }

  /**
   * Checks a Flat page buffer reference: its index exists, it is a page buffer, it is not
   * compressed, it has the given bits per value and holds at least {@code values} of them.
   *
   * @return the buffer index
   */
  int flatBuffer(int page, Flat flat, long bits, long values, String what) {
    if (Compression.scheme(flat) != null) {
      throw unsupported(page, what + " is compressed with '" + flat.getCompression().getScheme() + "'");
    }
    return flatBufferOf(page, flat, bits, values, what);
  }

  /** As {@link #flatBuffer}, but the buffer may be compressed (then only its index is checked). */
  int flatBufferOf(int page, Flat flat, long bits, long values, String what) {
    if (flat.getBitsPerValue() != bits) {
      throw corrupt(page, what + " has " + flat.getBitsPerValue() + " bits per value, expected " + bits);
    }
    if (Compression.scheme(flat) != null) {
      values = 0;
    }
    Buffer ref = flat.getBuffer();
    if (ref.getBufferType() == Buffer.BufferType.UNRECOGNIZED) {
      throw corrupt(page, what + " refers to a buffer of unknown type " + ref.getBufferTypeValue());
    }
    if (ref.getBufferType() != Buffer.BufferType.page) {
      throw unsupported(page, what + " refers to a " + ref.getBufferType() + " buffer");
    }
    int index = ref.getBufferIndex();
    if (index < 0 || index >= numBuffers(page)) {
      throw corrupt(page, what + " refers to buffer " + Integer.toUnsignedString(index) + " but the page has "
          + numBuffers(page));
    }
    long need;
    try {
      need = Math.addExact(Math.multiplyExact(values, bits), 7) >>> 3;
    } catch (ArithmeticException e) {
      throw corrupt(page, what + " of " + values + " values is too large");
    }
    if (bufferSize(page, index) < need) {
      throw corrupt(page, what + " needs " + need + " bytes for " + values + " values but buffer " + index
          + " has " + bufferSize(page, index));
    }
    return index;
  }

  /**
   * Splits sorted ranges into pieces that each lie in one page, in order.
   *
   * @throws CorruptFileException if a range passes the end of the column
   */
  Pieces pieces(Ranges ranges) {
    previousEnd = lastEnd;
    if (ranges.size > 0) {
      lastEnd = ranges.ends[ranges.size - 1];
    }
    Pieces out = new Pieces(ranges.size + numPages);
    long dest = 0;
    int p = 0;
    for (int r = 0; r < ranges.size; r++) {
      long s = ranges.starts[r];
      long e = ranges.ends[r];
      if (e > total()) {
        throw corrupt(Math.max(0, numPages - 1), "values up to " + e + " are needed but the column has " + total());
      }
      if (firstRow[p + 1] <= s) {
        p = pageOf(s);
      }
      while (s < e) {
        while (firstRow[p + 1] <= s) {
          p++;
        }
        long pe = Math.min(e, firstRow[p + 1]);
        out.add(p, s - firstRow[p], pe - firstRow[p], dest);
        dest += pe - s;
        s = pe;
      }
    }
    return out;
  }

  // The page holding a value: the last page starting at or before it (so never an empty page).
  private int pageOf(long row) {
    int lo = 0;
    int hi = numPages - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (firstRow[mid] <= row) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /**
   * The bytes of a page for reading pieces [i, j) of it. A page read in large part, read twice in
   * a row, or read from where the previous read stopped (a scan in small batches) is read whole
   * and kept; otherwise only the byte ranges asked for are read.
   */
  PageBytes bytes(Pieces pieces, int i, int j) throws IOException {
    int page = pieces.page[i];
    if (page == cachedPage) {
      return cachedBytes;
    }
    long needed = pieces.count(i, j);
    long start = firstRow[page] + pieces.from[i];
    long before = i == 0 ? previousEnd : firstRow[pieces.page[i - 1]] + pieces.to[i - 1];
    boolean continues = start == before;
    boolean whole = needed * 8 >= lengths[page] || page == lastTouched || continues;
    lastTouched = page;
    return whole ? wholePage(page) : new PageBytes(this, page, null);
  }

  /** The bytes of a page, read whole and kept. */
  PageBytes wholePage(int page) throws IOException {
    if (page == cachedPage) {
      return cachedBytes;
    }
    cachedPage = -1;
    cachedBytes = null;
    cachedExtra = null;
    ByteBuffer[] buffers = new ByteBuffer[numBuffers(page)];
    for (int b = 0; b < buffers.length; b++) {
      buffers[b] = source.read(column, page, positions[page][b], sizes[page][b]);
    }
    cachedBytes = new PageBytes(this, page, buffers);
    cachedPage = page;
    lastTouched = page;
    return cachedBytes;
  }

  /** Something decoded from the cached page (a dictionary), or null. */
  Object cachedExtra(int page) {
    return page == cachedPage ? cachedExtra : null;
  }

  void cacheExtra(int page, Object extra) {
    if (page == cachedPage) {
      cachedExtra = extra;
    }
  }

  /**
   * Reads bytes [offset, offset + dst.remaining()) of a page buffer straight into {@code dst}.
   *
   * @throws dev.javelin.format.exceptions.CorruptFileException if the range passes the end of the buffer
   */
  void readInto(int page, int buffer, long offset, ByteBuffer dst) throws IOException {
    long size = bufferSize(page, buffer);
    long length = dst.remaining();
    if (offset < 0 || offset > size || length > size - offset) {
      throw corrupt(page, "bytes " + offset + "+" + length + " of buffer " + buffer + " are needed but it has " + size);
    }
    source.readInto(column, page, positions[page][buffer] + offset, dst);
  }

  /** Reads part of a page buffer straight from the file. */
  ByteBuffer readRange(int page, int buffer, long offset, long length) throws IOException {
    return source.read(column, page, positions[page][buffer] + offset, length);
  }

  void close() {
    cachedPage = -1;
    cachedBytes = null;
    cachedExtra = null;
    lastTouched = -1;
    lastEnd = -1;
    previousEnd = -1;
  }
}
