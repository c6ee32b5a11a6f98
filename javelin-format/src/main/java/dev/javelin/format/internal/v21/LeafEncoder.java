package dev.javelin.format.internal.v21;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.internal.encoding.BufferSink;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import org.apache.arrow.vector.ValueVector;

/**
 * Encodes one leaf column: shreds incoming rows into a page buffer and encodes a page whenever it
 * holds about {@code maxPageBytes}. Pages always hold whole rows.
 *
 * <p>Encoding and writing are separate steps so that a file's columns can be encoded on several
 * threads while their pages still reach the file in one fixed order: {@link #encode} and
 * {@link #encodeRest} only touch this encoder, {@link #writePending} writes the encoded pages in
 * order. {@link #append} and {@link #finish} do both at once.
 */
final class LeafEncoder {
  // Pages also end at this many entries, which keeps counts well inside ints (full-zip layouts
  // record them as u32) whatever maxPageBytes says.
  private static final int MAX_PAGE_ENTRIES = 1 << 28;
  private final LeafPath path;
  private final long maxPageBytes;
  private final boolean compress;
  private final LanceFileVersion version;
  // Rows the file is expected to get (0: unknown), to size a page's buffers once.
  private final long expectedRows;
  private final Shredder shredder;
  private final ColumnMetadata.Builder column = ColumnMetadata.newBuilder().setEncoding(Protos21.columnEncoding());
  private final ArrayDeque<Pending> pending = new ArrayDeque<>();
  private LeafEntries page;
  // A written page's entries, kept for the next page: growing fresh tens-of-megabyte arrays for
  // every page cost more than encoding it.
  private LeafEntries spare;
  private long rowsEncoded;

  /** An encoded page waiting to be written; its buffers may share its entries' arrays. */
  private static final class Pending {
    final LeafEntries entries;
    final EncodedPage encoded;
    final long firstRow;

    Pending(LeafEntries entries, EncodedPage encoded, long firstRow) {
      this.entries = entries;
      this.encoded = encoded;
      this.firstRow = firstRow;
    }
  }

  LeafEncoder(LeafPath path, long maxPageBytes, boolean compress) {
    this(path, maxPageBytes, compress, 0, LanceFileVersion.V2_1);
  }

  LeafEncoder(LeafPath path, long maxPageBytes, boolean compress, long expectedRows, LanceFileVersion version) {
    this.path = path;
    this.version = version;
    this.expectedRows = expectedRows;
    this.maxPageBytes = maxPageBytes;
    this.compress = compress;
    this.shredder = new Shredder(path);
    this.page = new LeafEntries(path);
  }

  /** Adds the rows of {@code top}, writing each page as soon as it is full. */
  void append(ValueVector top, BufferSink sink) throws IOException {
    add(top, sink);
  }

  /** Adds the rows of {@code top}; full pages wait for {@link #writePending}. */
  void encode(ValueVector top) {
    try {
      add(top, null);
    } catch (IOException e) {
      throw new IllegalStateException("No sink, no I/O", e);
    }
  }

  private void add(ValueVector top, BufferSink sink) throws IOException {
    int n = top.getValueCount();
    int r = 0;
    while (r < n) {
      int k = rowsToTake(n - r);
      boolean fresh = page.rows == 0;
      shredder.shred(top, r, r + k, page);
      r += k;
      // Rows still to come: this batch's, or the file's when the caller said how many.
      long coming = Math.max(n - r, expectedRows - rowsEncoded - page.rows);
      if (fresh && coming > 0) {
        // Size the page's buffers once from its first rows, up to a full page: regrowing a
        // buffer of megabytes batch by batch copies it again each time.
        long perRow = Math.max(1, page.values.byteSize() / page.rows);
        long bytes = Math.min(maxPageBytes + maxPageBytes / 8, perRow * coming);
        page.values.reserveBytes(bytes);
        page.reserveRows(Math.min(coming, bytes / perRow + 1));
      }
      if (page.byteSize() >= maxPageBytes || page.size() >= MAX_PAGE_ENTRIES) {
        encodePage();
        if (sink != null) {
          writePending(sink);
        }
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

  private void encodePage() {
    if (page.rows == 0) {
      return;
    }
    EncodedPage encoded = PageEncoder.encode(page, compress, version);
    pending.add(new Pending(page, encoded, rowsEncoded));
    rowsEncoded += page.rows;
    if (spare != null) {
      page = spare;
      spare = null;
    } else {
      page = new LeafEntries(path);
    }
  }

  /** Encodes the rows not yet in a page; they wait for {@link #writePending}. */
  void encodeRest() {
    encodePage();
  }

  /** Writes the encoded pages, oldest first. */
  void writePending(BufferSink sink) throws IOException {
    while (!pending.isEmpty()) {
      Pending w = pending.poll();
      ColumnMetadata.Page.Builder p = ColumnMetadata.Page.newBuilder()
          .setLength(w.entries.rows)
          .setPriority(w.firstRow)
          .setEncoding(Protos21.direct(w.encoded.layout, Protos21.PAGE_LAYOUT_URL));
      for (ByteBuffer b : w.encoded.buffers) {
        long size = b.remaining();
        p.addBufferOffsets(sink.write(b));
        p.addBufferSizes(size);
      }
      column.addPages(p);
      // Written: the buffers that shared its arrays are done with.
      w.entries.reset();
      spare = w.entries;
    }
  }

  /** Encodes and writes what is left, and returns the column's metadata. */
  ColumnMetadata finish(BufferSink sink) throws IOException {
    encodeRest();
    writePending(sink);
    return column.build();
  }
}
