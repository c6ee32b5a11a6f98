package dev.javelin.format.internal.v20;

import dev.javelin.format.WriteOptions;
import dev.javelin.format.internal.encoding.BitBuffer;
import dev.javelin.format.internal.encoding.BufferSink;
import dev.javelin.format.internal.encoding.ByteBuilder;
import dev.javelin.format.proto.Encodings20.ArrayEncoding;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.format.schema.LanceField;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;

/**
 * Encodes fixed-width values, booleans and fixed-size lists of them into one column of
 * {@code Nullable{Flat}} (or {@code Nullable{FixedSizeList{Nullable{Flat}}}}) pages, the way
 * Lance's 2.0 basic and value encoders do.
 */
final class FixedEncoder extends NodeEncoder {
  private final ColumnWriter column = new ColumnWriter();
  private final Level root;
  private final long maxPageBits;
  private final long bitsPerRow;

  FixedEncoder(LanceField field, WriteOptions options) {
    FixedLayout layout = FixedLayout.of(field.toArrow());
    this.root = new Level(layout);
    this.maxPageBits = options.maxPageBytes() * 8;
    this.bitsPerRow = bitsPerRow(layout);
  }

  // Data plus validity bits that one row adds to a page.
  private static long bitsPerRow(FixedLayout layout) {
    return layout.isList() ? 1 + layout.dimension * bitsPerRow(layout.items) : 1 + layout.bits;
  }

  @Override
  void append(FieldVector vector, int start, int end, BufferSink sink) throws IOException {
    int at = start;
    while (at < end) {
      // Take as many rows as fit in the page, so one large batch still makes pages of the right size.
      long room = Math.max(1, (maxPageBits - root.bufferedBits()) / Math.max(1, bitsPerRow));
      int take = (int) Math.min(end - at, room);
      root.append(vector, at, at + take);
      at += take;
      if (root.bufferedBits() >= maxPageBits) {
        flush(sink);
      }
    }
  }

  @Override
  void flush(BufferSink sink) throws IOException {
    long rows = root.validity.size();
    if (rows == 0) {
      return;
    }
    List<ByteBuffer> buffers = new ArrayList<>();
    ArrayEncoding encoding = root.encode(buffers);
    column.addPage(sink, buffers, rows, encoding);
    root.clear();
  }

  @Override
  void finish(BufferSink sink, List<ColumnMetadata> out) throws IOException {
    flush(sink);
    out.add(column.build());
  }

  /** The buffered values of one level: the field itself, or the items of a fixed-size list. */
  private static final class Level {
    final FixedLayout layout;
    final BitBuffer validity = new BitBuffer();
    final ByteBuilder bytes;
    final BitBuffer bits;
    final Level items;

    Level(FixedLayout layout) {
      this.layout = layout;
      this.items = layout.isList() ? new Level(layout.items) : null;
      this.bits = !layout.isList() && layout.bits == 1 ? new BitBuffer() : null;
      this.bytes = !layout.isList() && layout.bits > 1 ? new ByteBuilder() : null;
    }

    long bufferedBits() {
      long n = validity.size();
      if (items != null) {
        n += items.bufferedBits();
      } else if (bits != null) {
        n += bits.size();
      } else {
        n += (long) bytes.size() * 8;
      }
      return n;
    }

    void append(FieldVector vector, int start, int end) {
      int n = end - start;
      if (n == 0) {
        return;
      }
      if (vector.getValueCount() < end) {
        throw new IllegalArgumentException("Vector '" + vector.getName() + "' has " + vector.getValueCount()
            + " values but " + end + " are needed");
      }
      validity.addFrom(vector.getValidityBuffer(), start, n);
      if (items != null) {
        FixedSizeListVector list = (FixedSizeListVector) vector;
        int dim = layout.dimension;
        items.append(list.getDataVector(), Math.multiplyExact(start, dim), Math.multiplyExact(end, dim));
      } else if (bits != null) {
        bits.addFrom(((BaseFixedWidthVector) vector).getDataBuffer(), start, n);
      } else {
        long width = layout.bits / 8;
        bytes.append(((BaseFixedWidthVector) vector).getDataBuffer(), start * width, n * width);
      }
    }

    /** The page encoding of the buffered values; adds their buffers to {@code out} in index order. */
    ArrayEncoding encode(List<ByteBuffer> out) {
      long n = validity.size();
      long nulls = n - validity.ones();
      if (n > 0 && nulls == n) {
        return Proto20.allNulls();
      }
      if (nulls == 0) {
        return Proto20.noNulls(encodeValues(out));
      }
      int validityIndex = out.size();
      out.add(validity.toBuffer());
      return Proto20.someNulls(Proto20.flat(1, validityIndex), encodeValues(out));
    }

    private ArrayEncoding encodeValues(List<ByteBuffer> out) {
      if (items != null) {
        return Proto20.fixedSizeList(layout.dimension, items.encode(out));
      }
      int index = out.size();
      out.add(bits != null ? bits.toBuffer() : bytes.toBuffer());
      return Proto20.flat(layout.bits, index);
    }

    void clear() {
      validity.reset();
      if (items != null) {
        items.clear();
      } else if (bits != null) {
        bits.reset();
      } else {
        bytes.reset();
      }
    }
  }
}
