package dev.javelin.format.internal.v20;

import dev.javelin.format.exceptions.LanceFormatException;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.format.internal.encoding.ColumnSource;
import dev.javelin.format.schema.LanceField;
import java.io.IOException;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/**
 * Decodes one field (and its children) from its 2.0 columns. Built from column metadata, which it
 * checks up front; reads page bytes only in {@link #read}.
 */
abstract class NodeDecoder {
  /**
   * A decoder for a field, claiming its columns from the source in pre-order.
   *
   * @param expectedValues the values the field's columns must hold (the file's rows, or the items
   *     of the enclosing list)
   */
  static NodeDecoder create(LanceField field, ColumnSource source, long expectedValues) {
    Types20.Kind kind = Types20.kind(field);
    if (kind == null) {
      throw new UnsupportedFormatException(source.location(),
          "Javelin cannot read field '" + field.name() + "' of type " + field.logicalType() + " from Lance 2.0");
    }
    switch (kind) {
      case FIXED:
        return new FixedDecoder(field, new ColumnPages(source, source.claim()), expectedValues);
      case BINARY:
        return new BinaryDecoder(field, new ColumnPages(source, source.claim()), expectedValues);
      case LIST:
        return new ListDecoder(field, source, expectedValues);
      default:
        return new StructDecoder(field, source, expectedValues);
    }
  }

  /**
   * Decodes the given values into {@code target}, a new empty vector of the field's type, which
   * ends up holding {@code rows.total} values.
   */
  abstract void read(Ranges rows, FieldVector target, BufferAllocator allocator) throws IOException;

  /** Drops cached pages. */
  abstract void close();

  /** Checks that a column holds as many values as its parent says. */
  static void checkTotal(ColumnPages pages, long expected) {
    if (pages.total() != expected) {
      throw pages.corrupt(Math.max(0, pages.numPages() - 1),
          "the column's pages hold " + pages.total() + " values but " + expected + " are expected");
    }
  }

  /** A zeroed buffer of {@code bytes} bytes. */
  static ArrowBuf zeroed(BufferAllocator allocator, long bytes) {
    ArrowBuf buf = allocator.buffer(Math.max(bytes, 1));
    buf.setZero(0, buf.capacity());
    return buf;
  }

  /** A value count as an Arrow vector needs it. */
  static int valueCount(ColumnPages pages, long n) {
    if (n > Integer.MAX_VALUE - 8) {
      throw new LanceFormatException(pages.source.location(),
          "Column " + pages.column + ": cannot read " + n + " values into one Arrow vector; read fewer rows");
    }
    return (int) n;
  }

  static int nullCount(ArrowBuf validity, int n) {
    return BitVectorHelper.getNullCount(validity, n);
  }
}
