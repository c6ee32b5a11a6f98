package dev.javelin.format.internal.v20;

import dev.javelin.format.proto.Encodings20.ArrayEncoding;
import dev.javelin.format.proto.Encodings20.Nullable;
import dev.javelin.format.schema.LanceField;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;

/**
 * Decodes a column of fixed-width values, booleans or fixed-size lists of them: pages of
 * {@code Nullable{no_nulls | some_nulls{validity Flat 1-bit} | all_nulls}} over {@code Flat} or
 * {@code FixedSizeList{items: Nullable{...}}}. Reads only the bytes of the rows it needs unless
 * the page is read in large part.
 */
final class FixedDecoder extends NodeDecoder {
  private final ColumnPages pages;
  private final FixedLayout layout;
  private final Level[] levels;

  FixedDecoder(LanceField field, ColumnPages pages, long expectedValues) {
    this.pages = pages;
    this.layout = FixedLayout.of(field.toArrow());
    checkTotal(pages, expectedValues);
    this.levels = new Level[pages.numPages()];
    boolean gaps = false;
    for (int p = 0; p < levels.length; p++) {
      levels[p] = parse(p, pages.encoding(p), layout, pages.length(p));
      gaps |= hasAllNull(levels[p]);
    }
    this.dataGaps = gaps;
  }

  // Whether some page leaves data bytes unwritten (an all-null level): only then must the data
  // buffers start zeroed; otherwise every byte of them is overwritten.
  private final boolean dataGaps;

  private static boolean hasAllNull(Level level) {
    return level.mode == Level.ALL_NULL || (level.items != null && hasAllNull(level.items));
  }

  /** How one level of a page is stored. */
  private static final class Level {
    static final int ALL_NULL = 0;
    static final int NO_NULL = 1;
    static final int SOME_NULL = 2;

    int mode;
    int validityBuffer = -1;
    int dataBuffer = -1;
    Level items;
  }

  private Level parse(int page, ArrayEncoding encoding, FixedLayout shape, long values) {
    Level level = new Level();
    ArrayEncoding inner = encoding;
    if (encoding.getArrayEncodingCase() == ArrayEncoding.ArrayEncodingCase.NULLABLE) {
      Nullable n = encoding.getNullable();
      switch (n.getNullabilityCase()) {
        case ALL_NULLS:
          level.mode = Level.ALL_NULL;
          return level;
        case NO_NULLS:
          level.mode = Level.NO_NULL;
          inner = n.getNoNulls().getValues();
          break;
        case SOME_NULLS:
          level.mode = Level.SOME_NULL;
          ArrayEncoding validity = n.getSomeNulls().getValidity();
          if (validity.getArrayEncodingCase() != ArrayEncoding.ArrayEncodingCase.FLAT) {
            throw pages.unexpected(page, "validity", validity, "Flat");
          }
          level.validityBuffer = pages.flatBuffer(page, validity.getFlat(), 1, values, "validity");
          inner = n.getSomeNulls().getValues();
          break;
        default:
          throw pages.corrupt(page, "Nullable encoding without nullability");
      }
    } else {
      level.mode = Level.NO_NULL;
    }
    if (shape.isList()) {
      if (inner.getArrayEncodingCase() != ArrayEncoding.ArrayEncodingCase.FIXED_SIZE_LIST) {
        throw pages.unexpected(page, "values", inner, "FixedSizeList");
      }
      long dim = Integer.toUnsignedLong(inner.getFixedSizeList().getDimension());
      if (dim != shape.dimension) {
        throw pages.corrupt(page, "fixed-size list of dimension " + dim + " but the field has " + shape.dimension);
      }
      long items;
      try {
        items = Math.multiplyExact(values, dim);
      } catch (ArithmeticException e) {
        throw pages.corrupt(page, values + " lists of " + dim + " items is too many");
      }
      level.items = parse(page, inner.getFixedSizeList().getItems(), shape.items, items);
    } else {
      if (inner.getArrayEncodingCase() != ArrayEncoding.ArrayEncodingCase.FLAT) {
        throw pages.unexpected(page, "values", inner, "Flat");
      }
      level.dataBuffer = pages.flatBuffer(page, inner.getFlat(), shape.bits, values, "values");
    }
    return level;
  }

  @Override
  void read(Ranges rows, FieldVector target, BufferAllocator allocator) throws IOException {
    int n = valueCount(pages, rows.total);
    try (Out out = new Out(layout, n, dataGaps, allocator)) {
      Pieces pieces = pages.pieces(rows);
      for (int i = 0; i < pieces.size; ) {
        int j = pieces.groupEnd(i);
        int page = pieces.page[i];
        if (direct(levels[page], layout) && rowBytes(layout) * pieces.count(i, j) >= DIRECT_BYTES * (j - i)) {
          for (int k = i; k < j; k++) {
            readDirect(page, levels[page], layout, pieces.from[k], pieces.to[k], out, pieces.dest[k]);
          }
        } else {
          PageBytes bytes = pages.bytes(pieces, i, j);
          for (int k = i; k < j; k++) {
            copy(levels[page], layout, bytes, pieces.from[k], pieces.to[k], out, pieces.dest[k]);
          }
        }
        i = j;
      }
      out.load(target);
    }
  }

  /**
   * Pieces at least this large (on average) are read straight into the vector; smaller ones go
   * through the page cache, so small batches do not turn into many small reads.
   */
  private static final long DIRECT_BYTES = 16 * 1024;

  private static long rowBytes(FixedLayout shape) {
    return shape.isList() ? shape.dimension * rowBytes(shape.items) : Math.max(1, shape.bits / 8);
  }

  // Whether a page has no nulls at any level and whole-byte values: its rows' bytes are then one
  // range of the data buffer, read straight into the Arrow buffer.
  private static boolean direct(Level level, FixedLayout shape) {
    if (level.mode != Level.NO_NULL) {
      return false;
    }
    return shape.isList() ? direct(level.items, shape.items) : shape.bits % 8 == 0;
  }

  private void readDirect(int page, Level level, FixedLayout shape, long from, long to, Out out, long dest)
      throws IOException {
    long n = to - from;
    Bitmaps.setRange(out.validity, dest, n);
    if (shape.isList()) {
      long dim = shape.dimension;
      readDirect(page, level.items, shape.items, from * dim, to * dim, out.items, dest * dim);
      return;
    }
    long width = shape.bits / 8;
    long bytes = n * width;
    if (dest * width + bytes > out.data.capacity() || bytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("Rows " + from + ".." + to + " do not fit the vector being read");
    }
    pages.readInto(page, level.dataBuffer, from * width, out.data.nioBuffer(dest * width, (int) bytes));
  }

  private static void copy(Level level, FixedLayout shape, PageBytes bytes, long from, long to, Out out, long dest)
      throws IOException {
    long n = to - from;
    if (level.mode == Level.ALL_NULL) {
      return;
    }
    if (level.mode == Level.NO_NULL) {
      Bitmaps.setRange(out.validity, dest, n);
    } else {
      long first = from >>> 3;
      ByteBuffer v = bytes.get(level.validityBuffer, first, Bitmaps.bytesFor(to) - first);
      Bitmaps.copy(v, from & 7, out.validity, dest, n);
    }
    if (shape.isList()) {
      long dim = shape.dimension;
      copy(level.items, shape.items, bytes, from * dim, to * dim, out.items, dest * dim);
    } else if (shape.bits == 1) {
      long first = from >>> 3;
      ByteBuffer d = bytes.get(level.dataBuffer, first, Bitmaps.bytesFor(to) - first);
      Bitmaps.copy(d, from & 7, out.data, dest, n);
    } else {
      long width = shape.bits / 8;
      ByteBuffer d = bytes.get(level.dataBuffer, from * width, n * width);
      out.data.setBytes(dest * width, d);
    }
  }

  @Override
  void close() {
    pages.close();
  }

  /** The Arrow buffers being filled for one level. */
  private static final class Out implements AutoCloseable {
    final int count;
    final ArrowBuf validity;
    final ArrowBuf data;
    final Out items;

    Out(FixedLayout shape, int count, boolean zeroData, BufferAllocator allocator) {
      this.count = count;
      ArrowBuf v = null;
      ArrowBuf d = null;
      Out i = null;
      try {
        v = zeroed(allocator, Bitmaps.bytesFor(count));
        if (shape.isList()) {
          long itemCount = (long) count * shape.dimension;
          if (itemCount > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("Too many fixed-size list items (" + itemCount + ") for one vector");
          }
          i = new Out(shape.items, (int) itemCount, zeroData, allocator);
        } else {
          // Bitmaps are or-ed in, so a bit buffer always starts zeroed.
          if (shape.bits == 1) {
            d = zeroed(allocator, Bitmaps.bytesFor(count));
          } else if (zeroData) {
            d = zeroed(allocator, (long) count * (shape.bits / 8));
          } else {
            d = allocator.buffer(Math.max((long) count * (shape.bits / 8), 1));
          }
        }
      } catch (RuntimeException e) {
        if (v != null) {
          v.close();
        }
        if (d != null) {
          d.close();
        }
        throw e;
      }
      this.validity = v;
      this.data = d;
      this.items = i;
    }

    /** Hands the buffers to the vector (which takes its own references). */
    void load(FieldVector target) {
      ArrowFieldNode node = new ArrowFieldNode(count, nullCount(validity, count));
      if (items != null) {
        FixedSizeListVector list = (FixedSizeListVector) target;
        list.loadFieldBuffers(node, List.of(validity));
        items.load(list.getDataVector());
      } else {
        target.loadFieldBuffers(node, List.of(validity, data));
      }
    }

    @Override
    public void close() {
      validity.close();
      if (data != null) {
        data.close();
      }
      if (items != null) {
        items.close();
      }
    }
  }
}
