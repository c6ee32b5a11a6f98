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
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Encodes strings and binary values into one column of {@code Binary} pages: a u64 index per
 * value (the cumulative end offset within the page, plus {@code null_adjustment} for a null) and
 * the concatenated bytes. A utf8 page of at least {@value #DICTIONARY_MIN_ROWS} values with fewer
 * than {@value #DICTIONARY_MAX_ITEMS} distinct values becomes a {@code Dictionary} page instead,
 * as Lance's 2.0 writer does.
 */
final class BinaryEncoder extends NodeEncoder {
  static final int DICTIONARY_MIN_ROWS = 100;
  static final int DICTIONARY_MAX_ITEMS = 100;

  private final ColumnWriter column = new ColumnWriter();
  private final boolean large;
  private final boolean dictionaryAllowed;
  private final long maxPageBytes;
  private final ByteBuilder bytes = new ByteBuilder();
  private final BitBuffer validity = new BitBuffer();
  private long[] ends = new long[64];
  private int count;

  BinaryEncoder(LanceField field, WriteOptions options) {
    ArrowType type = field.toArrow().getType();
    this.large = Types20.isLargeBinary(type);
    this.dictionaryAllowed = options.dictionaryEncoding() && type.getTypeID() == ArrowType.ArrowTypeID.Utf8;
    this.maxPageBytes = options.maxPageBytes();
  }

  @Override
  void append(FieldVector vector, int start, int end, BufferSink sink) throws IOException {
    if (end > start && vector.getValueCount() < end) {
      throw new IllegalArgumentException("Vector '" + vector.getName() + "' has " + vector.getValueCount()
          + " values but " + end + " are needed");
    }
    ArrowBuf offsets;
    ArrowBuf data;
    if (large) {
      BaseLargeVariableWidthVector v = (BaseLargeVariableWidthVector) vector;
      offsets = v.getOffsetBuffer();
      data = v.getDataBuffer();
    } else {
      BaseVariableWidthVector v = (BaseVariableWidthVector) vector;
      offsets = v.getOffsetBuffer();
      data = v.getDataBuffer();
    }
    for (int i = start; i < end; i++) {
      boolean valid = !vector.isNull(i);
      if (valid) {
        long from = large ? offsets.getLong((long) i * 8) : offsets.getInt((long) i * 4);
        long to = large ? offsets.getLong((long) i * 8 + 8) : offsets.getInt((long) i * 4 + 4);
        bytes.append(data, from, to - from);
      }
      if (count == ends.length) {
        ends = Arrays.copyOf(ends, count * 2);
      }
      ends[count++] = bytes.size();
      validity.add(valid);
      if (bytes.size() + 8L * count >= maxPageBytes) {
        flush(sink);
      }
    }
  }

  @Override
  void flush(BufferSink sink) throws IOException {
    if (count == 0) {
      return;
    }
    if (!(dictionaryAllowed && count >= DICTIONARY_MIN_ROWS && writeDictionaryPage(sink))) {
      long adjustment = bytes.size() + 1L;
      ByteBuffer indices = ByteBuffer.allocate(count * 8).order(ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < count; i++) {
        indices.putLong(isValid(i) ? ends[i] : ends[i] + adjustment);
      }
      indices.flip();
      ArrayEncoding encoding = Proto20.binary(
          Proto20.noNulls(Proto20.flat(64, 0)), Proto20.flat(8, 1), adjustment);
      column.addPage(sink, List.of(indices, bytes.toBuffer()), count, encoding);
    }
    count = 0;
    bytes.reset();
    validity.reset();
    if (ends.length > (1 << 17)) {
      ends = new long[64];
    }
  }

  private boolean isValid(int i) {
    return validity.get(i);
  }

  // Writes the page as Dictionary{indices u8 (0 = null, i + 1 = item i), items Binary} if it has
  // few distinct values; returns false (writing nothing) otherwise.
  private boolean writeDictionaryPage(BufferSink sink) throws IOException {
    Map<Key, Integer> ids = new HashMap<>();
    byte[] raw = bytes.array();
    ByteBuffer indices = ByteBuffer.allocate(count).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuilder itemBytes = new ByteBuilder();
    long[] itemEnds = new long[DICTIONARY_MAX_ITEMS];
    long prev = 0;
    for (int i = 0; i < count; i++) {
      long endAt = ends[i];
      if (!isValid(i)) {
        indices.put((byte) 0);
      } else {
        Key key = new Key(raw, (int) prev, (int) (endAt - prev));
        Integer id = ids.get(key);
        if (id == null) {
          id = ids.size();
          if (id >= DICTIONARY_MAX_ITEMS - 1) {
            return false;
          }
          ids.put(key, id);
          itemBytes.append(raw, (int) prev, (int) (endAt - prev));
          itemEnds[id] = itemBytes.size();
        }
        indices.put((byte) (id + 1));
      }
      prev = endAt;
    }
    indices.flip();
    int numItems = ids.size();
    long adjustment = itemBytes.size() + 1L;
    ByteBuffer items;
    if (numItems == 0) {
      // Lance's writer stores one null item when a page has no values; so do we.
      numItems = 1;
      items = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, adjustment);
    } else {
      items = ByteBuffer.allocate(numItems * 8).order(ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < numItems; i++) {
        items.putLong(i * 8, itemEnds[i]);
      }
    }
    ArrayEncoding encoding = Proto20.dictionary(
        Proto20.noNulls(Proto20.flat(8, 0)),
        Proto20.binary(Proto20.noNulls(Proto20.flat(64, 1)), Proto20.flat(8, 2), adjustment),
        numItems);
    column.addPage(sink, List.of(indices, items, itemBytes.toBuffer()), count, encoding);
    return true;
  }

  @Override
  void finish(BufferSink sink, List<ColumnMetadata> out) throws IOException {
    flush(sink);
    out.add(column.build());
  }

  /** A slice of the page's bytes, compared by content. */
  private static final class Key {
    final byte[] array;
    final int from;
    final int length;
    final int hash;

    Key(byte[] array, int from, int length) {
      this.array = array;
      this.from = from;
      this.length = length;
      int h = 1;
      for (int i = from; i < from + length; i++) {
        h = 31 * h + array[i];
      }
      this.hash = h;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Key)) {
        return false;
      }
      Key k = (Key) o;
      return Arrays.equals(array, from, from + length, k.array, k.from, k.from + k.length);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }
}
