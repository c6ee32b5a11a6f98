package dev.javelin.format.internal.v20;

import dev.javelin.format.exceptions.LanceFormatException;
import dev.javelin.format.internal.encoding.ColumnSource;
import dev.javelin.format.proto.Encodings20;
import dev.javelin.format.proto.Encodings20.ArrayEncoding;
import dev.javelin.format.proto.Encodings20.Nullable;
import dev.javelin.format.schema.LanceField;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;

/**
 * Decodes a list column: {@code List{offsets: u64 per list, null_offset_adjustment, num_items}}
 * pages, each list's end offset relative to the page's first item, plus the adjustment for a
 * null list. Reads the offsets of the requested lists, then only the items they hold.
 */
final class ListDecoder extends NodeDecoder {
  private final ColumnPages pages;
  private final boolean large;
  private final NodeDecoder items;
  private final int[] offsetBuffers;
  private final long[] adjustments;
  private final long[] numItems;
  // The first item of each page in the item column.
  private final long[] itemBase;

  ListDecoder(LanceField field, ColumnSource source, long expectedValues) {
    this.pages = new ColumnPages(source, source.claim());
    this.large = field.isLargeList();
    checkTotal(pages, expectedValues);
    int n = pages.numPages();
    this.offsetBuffers = new int[n];
    this.adjustments = new long[n];
    this.numItems = new long[n];
    this.itemBase = new long[n];
    long base = 0;
    for (int p = 0; p < n; p++) {
      ArrayEncoding e = pages.encoding(p);
      if (e.getArrayEncodingCase() != ArrayEncoding.ArrayEncodingCase.LIST) {
        throw pages.unexpected(p, "list offsets", e, "List");
      }
      Encodings20.List list = e.getList();
      ArrayEncoding offsets = list.getOffsets();
      if (offsets.getArrayEncodingCase() == ArrayEncoding.ArrayEncodingCase.NULLABLE
          && offsets.getNullable().getNullabilityCase() == Nullable.NullabilityCase.NO_NULLS) {
        offsets = offsets.getNullable().getNoNulls().getValues();
      }
      if (offsets.getArrayEncodingCase() != ArrayEncoding.ArrayEncodingCase.FLAT) {
        throw pages.unexpected(p, "list offsets", offsets, "Flat");
      }
      offsetBuffers[p] = pages.flatBuffer(p, offsets.getFlat(), 64, pages.length(p), "list offsets");
      numItems[p] = list.getNumItems();
      adjustments[p] = list.getNullOffsetAdjustment();
      if (numItems[p] < 0 || base + numItems[p] < 0) {
        throw pages.corrupt(p, "num_items " + Long.toUnsignedString(numItems[p]) + " is invalid");
      }
      if (pages.length(p) > 0 && Long.compareUnsigned(adjustments[p], numItems[p]) <= 0) {
        throw pages.corrupt(p, "null_offset_adjustment " + Long.toUnsignedString(adjustments[p])
            + " must exceed num_items " + numItems[p]);
      }
      itemBase[p] = base;
      base += numItems[p];
    }
    this.items = NodeDecoder.create(field.children().get(0), source, base);
  }

  @Override
  void read(Ranges rows, FieldVector target, BufferAllocator allocator) throws IOException {
    int n = valueCount(pages, rows.total);
    int width = large ? 8 : 4;
    ArrowBuf validity = zeroed(allocator, Bitmaps.bytesFor(n));
    ArrowBuf offsets = null;
    try {
      offsets = zeroed(allocator, (long) (n + 1) * width);
      Ranges.Builder wanted = new Ranges.Builder();
      long total = 0;
      Pieces pieces = pages.pieces(rows);
      for (int i = 0; i < pieces.size; ) {
        int j = pieces.groupEnd(i);
        int page = pieces.page[i];
        PageBytes bytes = pages.bytes(pieces, i, j);
        long adjustment = adjustments[page];
        for (int k = i; k < j; k++) {
          long from = pieces.from[k];
          long to = pieces.to[k];
          long dest = pieces.dest[k];
          long first = from == 0 ? 0 : from - 1;
          ByteBuffer buf = bytes.get(offsetBuffers[page], first * 8, (to - first) * 8);
          long prev = from == 0 ? 0 : end(page, buf.getLong(0), from - 1);
          int at = from == 0 ? 0 : 8;
          for (long r = from; r < to; r++, at += 8) {
            long v = buf.getLong(at);
            long e = end(page, v, r);
            if (e < prev) {
              throw pages.corrupt(page, "list offsets decrease at list " + r + " (" + prev + " then " + e + ")");
            }
            long row = dest + (r - from);
            if (Long.compareUnsigned(v, adjustment) < 0) {
              Bitmaps.set(validity, row);
              wanted.add(itemBase[page] + prev, itemBase[page] + e);
              total += e - prev;
            }
            if (width == 4) {
              if (total > Integer.MAX_VALUE) {
                throw new LanceFormatException(pages.source.location(), "Column " + pages.column
                    + ": more than 2^31 list items do not fit one Arrow list; read fewer rows");
              }
              offsets.setInt((row + 1) * 4, (int) total);
            } else {
              offsets.setLong((row + 1) * 8, total);
            }
            prev = e;
          }
        }
        i = j;
      }
      Ranges itemRanges = wanted.build();
      if (large) {
        LargeListVector list = (LargeListVector) target;
        list.loadFieldBuffers(new ArrowFieldNode(n, nullCount(validity, n)), List.of(validity, offsets));
        items.read(itemRanges, list.getDataVector(), allocator);
      } else {
        ListVector list = (ListVector) target;
        list.loadFieldBuffers(new ArrowFieldNode(n, nullCount(validity, n)), List.of(validity, offsets));
        items.read(itemRanges, list.getDataVector(), allocator);
      }
    } finally {
      validity.close();
      if (offsets != null) {
        offsets.close();
      }
    }
  }

  // The end offset (within the page) a stored value stands for, checked against the page's items.
  private long end(int page, long stored, long list) {
    long e = Long.compareUnsigned(stored, adjustments[page]) >= 0 ? stored - adjustments[page] : stored;
    if (Long.compareUnsigned(e, numItems[page]) > 0) {
      throw pages.corrupt(page, "list " + list + " ends at item " + Long.toUnsignedString(e)
          + " but the page has " + numItems[page] + " items");
    }
    return e;
  }

  @Override
  void close() {
    pages.close();
    items.close();
  }
}
