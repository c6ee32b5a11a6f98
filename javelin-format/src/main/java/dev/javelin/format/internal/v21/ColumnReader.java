package dev.javelin.format.internal.v21;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.javelin.format.exceptions.CorruptFileException;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.format.internal.encoding.ColumnSource;
import dev.javelin.format.internal.encoding.PageCache;
import dev.javelin.format.internal.encoding.ReadPlan;
import dev.javelin.format.internal.encoding.RowRanges;
import dev.javelin.format.proto.Encodings21.PageLayout;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.format.proto.File2Protos.Encoding;
import java.io.IOException;
import java.util.Arrays;

/**
 * Reads rows of one leaf column. Page layouts are parsed up front (so a malformed or unsupported
 * encoding fails when the decoder is made); page data is read per request, page by page, and only
 * the page last read keeps its cached state.
 */
final class ColumnReader {
  private final LeafPath path;
  private final PageDecoder[] pages;
  private final long[] firstRow;
  private int current = -1;
  /** Refilled by each request, so its buffers grow once rather than per batch. */
  private LeafEntries scratch;

  ColumnReader(LeafPath path, ColumnSource source, int column) {
    this.path = path;
    ColumnMetadata meta = source.column(column);
    int n = meta.getPagesCount();
    this.pages = new PageDecoder[n];
    this.firstRow = new long[n + 1];
    long row = 0;
    for (int p = 0; p < n; p++) {
      ColumnMetadata.Page page = meta.getPages(p);
      if (page.getLength() <= 0 || page.getLength() > source.numRows() - row) {
        throw source.corrupt(column, p, "page has " + page.getLength() + " rows; the column's pages so far hold "
            + row + " of the file's " + source.numRows());
      }
      firstRow[p] = row;
      pages[p] = decoder(source, column, p, page);
      row += page.getLength();
    }
    firstRow[n] = row;
    if (row != source.numRows()) {
      throw new CorruptFileException(source.location(),
          "Column " + column + " holds " + row + " rows but the file has " + source.numRows());
    }
  }

  private PageDecoder decoder(ColumnSource source, int column, int p, ColumnMetadata.Page page) {
    PageLayout layout = layout(source, column, p, page.getEncoding());
    switch (layout.getLayoutCase()) {
      case MINI_BLOCK_LAYOUT:
        return new MiniBlockPageDecoder(source, path, column, p, page, layout.getMiniBlockLayout());
      case FULL_ZIP_LAYOUT:
        return new FullZipPageDecoder(source, path, column, p, page, layout.getFullZipLayout());
      case ALL_NULL_LAYOUT:
        return new ConstantPageDecoder(source, path, column, p, page, layout.getAllNullLayout());
      case BLOB_LAYOUT:
        return new BlobPageDecoder(source, path, column, p, page, layout.getBlobLayout());
      default:
        throw source.corrupt(column, p, "page layout is empty");
    }
  }

  // Parsed once per file when its readers share a page cache (layouts are immutable messages).
  private static PageLayout layout(ColumnSource source, int column, int p, Encoding enc) {
    PageCache cache = source.pageCache();
    long key = PageCache.key(column, p, 1);
    if (cache != null && cache.get(key) instanceof PageLayout cached) {
      return cached;
    }
    PageLayout layout = parseLayout(source, column, p, enc);
    if (cache != null) {
      cache.put(key, layout, 64L + 2L * layout.getSerializedSize());
    }
    return layout;
  }

  private static PageLayout parseLayout(ColumnSource source, int column, int p, Encoding enc) {
    if (!enc.hasDirect()) {
      throw new UnsupportedFormatException(source.location(), "Column " + column + " page " + p
          + ": only direct page encodings are supported, not " + enc.getLocationCase());
    }
    try {
      Any any = Any.parseFrom(enc.getDirect().getEncoding());
      if (!any.getTypeUrl().endsWith("lance.encodings21.PageLayout")) {
        throw new UnsupportedFormatException(source.location(), "Column " + column + " page " + p
            + ": page encoding is " + any.getTypeUrl() + ", not a 2.1 page layout");
      }
      return PageLayout.parseFrom(any.getValue());
    } catch (InvalidProtocolBufferException e) {
      throw source.corrupt(column, p, "page encoding is not a valid protobuf (" + e.getMessage() + ")");
    }
  }

  /**
   * Reads the given rows, in order. The entries returned are this reader's own and are refilled
   * by its next request: the caller copies what it needs out of them before asking again.
   */
  LeafEntries read(RowRanges rows) throws IOException {
    if (scratch == null) {
      scratch = new LeafEntries(path);
    } else {
      scratch.reset();
    }
    LeafEntries out = scratch;
    forEachPage(rows, (p, starts, ends, k) -> {
      if (p != this.current) {
        if (this.current >= 0) {
          pages[this.current].release();
        }
        this.current = p;
      }
      pages[p].read(starts, ends, k, out);
    });
    return out;
  }

  /** As {@link dev.javelin.format.internal.encoding.FieldDecoder#plainFloats}. */
  boolean plainFloats(int dim) {
    for (PageDecoder d : pages) {
      if (!d.plainFloats(dim)) {
        return false;
      }
    }
    return true;
  }

  /** As {@link dev.javelin.format.internal.encoding.FieldDecoder#readFloats}. */
  void readFloats(long[] rows, int from, int to, int dim, float[] out) throws IOException {
    if (from >= to) {
      return;
    }
    int p = Arrays.binarySearch(firstRow, rows[from]);
    p = p >= 0 ? p : -p - 2;
    int i = from;
    while (i < to) {
      long r = rows[i];
      while (p < pages.length && firstRow[p + 1] <= r) {
        p++;
      }
      if (p < 0 || p >= pages.length) {
        throw new IllegalArgumentException("Row " + r + " is outside the column's " + firstRow[pages.length] + " rows");
      }
      // This page's share of the rows.
      int j = i + 1;
      long end = firstRow[p + 1];
      while (j < to && rows[j] < end) {
        j++;
      }
      if (p != current) {
        if (current >= 0) {
          pages[current].release();
        }
        current = p;
      }
      pages[p].readFloats(rows, i, j, firstRow[p], dim, out, (i - from) * dim);
      i = j;
    }
  }

  /**
   * Adds the byte ranges {@link #read} of these rows will read to {@code plan}: with
   * {@code metadata}, only the page metadata that locates the rows.
   */
  void plan(RowRanges rows, ReadPlan plan, boolean metadata) throws IOException {
    forEachPage(rows, (p, starts, ends, k) -> pages[p].plan(starts, ends, k, plan, metadata));
  }

  private interface PageAction {
    void apply(int page, long[] starts, long[] ends, int count) throws IOException;
  }

  // Splits the rows by page, in order: each page gets its share as row ranges within the page.
  private void forEachPage(RowRanges rows, PageAction action) throws IOException {
    int p = 0;
    long[] starts = new long[Math.max(1, rows.size())];
    long[] ends = new long[starts.length];
    int i = 0;
    while (i < rows.size()) {
      long s = rows.start(i);
      while (p < pages.length && firstRow[p + 1] <= s) {
        p++;
      }
      if (p >= pages.length) {
        throw new IllegalArgumentException("Row " + s + " is past the column's " + firstRow[pages.length] + " rows");
      }
      // Gather this page's share of the ranges.
      int k = 0;
      long pageStart = firstRow[p];
      long pageEnd = firstRow[p + 1];
      while (i < rows.size() && rows.start(i) < pageEnd) {
        long a = Math.max(rows.start(i), pageStart);
        long b = Math.min(rows.end(i), pageEnd);
        starts[k] = a - pageStart;
        ends[k] = b - pageStart;
        k++;
        if (rows.end(i) <= pageEnd) {
          i++;
        } else {
          break;
        }
      }
      action.apply(p, starts, ends, k);
      if (i < rows.size() && rows.end(i) > pageEnd) {
        p++;
      }
    }
  }

  void close() {
    scratch = null;
    if (current >= 0) {
      pages[current].release();
      current = -1;
    }
  }
}
