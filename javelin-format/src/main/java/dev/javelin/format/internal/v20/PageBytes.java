package dev.javelin.format.internal.v20;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Access to the buffers of one page: from memory if read whole, else range by range from the file. */
final class PageBytes {
  private final ColumnPages pages;
  private final int page;
  private final ByteBuffer[] whole;

  PageBytes(ColumnPages pages, int page, ByteBuffer[] whole) {
    this.pages = pages;
    this.page = page;
    this.whole = whole;
  }

  /**
   * Bytes [offset, offset + length) of a page buffer, as a little-endian buffer positioned at 0.
   *
   * @throws dev.javelin.format.exceptions.CorruptFileException if the range passes the end of the buffer
   */
  ByteBuffer get(int buffer, long offset, long length) throws IOException {
    long size = pages.bufferSize(page, buffer);
    if (offset < 0 || length < 0 || offset > size || length > size - offset) {
      throw pages.corrupt(page, "bytes " + offset + "+" + length + " of buffer " + buffer + " are needed but it has "
          + size);
    }
    if (whole == null) {
      return pages.readRange(page, buffer, offset, length);
    }
    ByteBuffer d = whole[buffer].duplicate();
    d.position((int) offset);
    d.limit((int) (offset + length));
    return d.slice().order(ByteOrder.LITTLE_ENDIAN);
  }
}
