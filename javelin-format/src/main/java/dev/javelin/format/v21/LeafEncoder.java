package dev.javelin.format.v21;

import dev.javelin.format.encoding.BufferSink;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.arrow.vector.ValueVector;

/**
 * Encodes one leaf column: shreds incoming rows into a page buffer and writes a page whenever it
 * holds about {@code maxPageBytes}. Pages always hold whole rows.
 */
final class LeafEncoder {
  // Pages also end at this many entries, which keeps counts well inside ints (full-zip layouts
  // record them as u32) whatever maxPageBytes says.
  private static final int MAX_PAGE_ENTRIES = 1 << 28;
  private final LeafPath path;
  private final long maxPageBytes;
  private final boolean compress;
  private final Shredder shredder;
  private final ColumnMetadata.Builder column = ColumnMetadata.newBuilder().setEncoding(Protos21.columnEncoding());
  private LeafEntries page;
  private long rowsWritten;

  LeafEncoder(LeafPath path, long maxPageBytes, boolean compress) {
    this.path = path;
    this.maxPageBytes = maxPageBytes;
    this.compress = compress;
    this.shredder = new Shredder(path);
    this.page = new LeafEntries(path);
  }

  void append(ValueVector top, BufferSink sink) throws IOException {
    int n = top.getValueCount();
    int r = 0;
    while (r < n) {
      int k = rowsToTake(n - r);
      shredder.shred(top, r, r + k, page);
      r += k;
      if (page.byteSize() >= maxPageBytes || page.size() >= MAX_PAGE_ENTRIES) {
        flush(sink);
      }
    }
  }

  // Rows to shred before checking the page size again: what should fill the page by the bytes
  // per row seen so far, and few rows for a fresh page until there is a measure.
  private int rowsToTake(int left) {
    long budget = Math.max(1, maxPageBytes - page.byteSize());
    long perRow;
    if (page.rows > 0) {
      perRow = Math.max(1, page.byteSize() / page.rows);
    } else {
      return Math.min(left, 64);
    }
    long k = Math.max(1, Math.min(budget / perRow, 1 << 16));
    return (int) Math.min(left, k);
  }

  void flush(BufferSink sink) throws IOException {
    if (page.rows == 0) {
      return;
    }
    EncodedPage encoded = PageEncoder.encode(page, compress);
    ColumnMetadata.Page.Builder p = ColumnMetadata.Page.newBuilder()
        .setLength(page.rows)
        .setPriority(rowsWritten)
        .setEncoding(Protos21.direct(encoded.layout, Protos21.PAGE_LAYOUT_URL));
    for (ByteBuffer b : encoded.buffers) {
      long size = b.remaining();
      p.addBufferOffsets(sink.write(b));
      p.addBufferSizes(size);
    }
    column.addPages(p);
    rowsWritten += page.rows;
    // The page's buffers are written, so the next page can reuse its arrays (which may back the
    // encoded buffers): growing fresh tens-of-megabyte arrays for every page cost more than encoding.
    page.reset();
  }

  ColumnMetadata finish(BufferSink sink) throws IOException {
    flush(sink);
    return column.build();
  }
}
