package dev.javelin.format.internal.v20;

import dev.javelin.format.WriteOptions;
import dev.javelin.format.internal.encoding.BitBuffer;
import dev.javelin.format.internal.encoding.BufferSink;
import dev.javelin.format.proto.Encodings20.ArrayEncoding;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.format.schema.LanceField;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;

/**
 * Encodes a list (or large list) into its own column of {@code List} pages, followed by the
 * item field's columns. Each offsets page holds a u64 per list: the cumulative end of its items
 * within the page, plus {@code null_offset_adjustment} (items in the page + 1) if the list is
 * null. The items of a null list are not written.
 *
 * <p>Whenever an offsets page is written the items are flushed too, so no items page is shared
 * by two offsets pages; Lance's 2.0 reader relies on that.
 */
final class ListEncoder extends NodeEncoder {
  private final ColumnWriter column = new ColumnWriter();
  private final NodeEncoder items;
  private final boolean large;
  private final long maxPageBytes;
  private final BitBuffer validity = new BitBuffer();
  private long[] ends = new long[64];
  private int count;
  private long pageItems;

  ListEncoder(LanceField field, WriteOptions options) {
    this.items = NodeEncoder.create(field.children().get(0), options);
    this.large = field.isLargeList();
    this.maxPageBytes = options.maxPageBytes();
  }

  @Override
  void append(FieldVector vector, int start, int end, BufferSink sink) throws IOException {
    if (end > start && vector.getValueCount() < end) {
      throw new IllegalArgumentException("Vector '" + vector.getName() + "' has " + vector.getValueCount()
          + " values but " + end + " are needed");
    }
    ArrowBuf offsets;
    FieldVector data;
    if (large) {
      LargeListVector v = (LargeListVector) vector;
      offsets = v.getOffsetBuffer();
      data = v.getDataVector();
    } else {
      ListVector v = (ListVector) vector;
      offsets = v.getOffsetBuffer();
      data = v.getDataVector();
    }
    // Consecutive lists' items are contiguous in the child vector: hand them over in runs.
    long runStart = 0;
    long runEnd = 0;
    for (int i = start; i < end; i++) {
      boolean valid = !vector.isNull(i);
      if (valid) {
        long from = large ? offsets.getLong((long) i * 8) : offsets.getInt((long) i * 4);
        long to = large ? offsets.getLong((long) i * 8 + 8) : offsets.getInt((long) i * 4 + 4);
        if (to > from) {
          if (from != runEnd) {
            appendItems(data, runStart, runEnd, sink);
            runStart = from;
          }
          runEnd = to;
          pageItems += to - from;
        }
      }
      if (count == ends.length) {
        ends = Arrays.copyOf(ends, count * 2);
      }
      ends[count++] = pageItems;
      validity.add(valid);
      if (8L * count >= maxPageBytes) {
        appendItems(data, runStart, runEnd, sink);
        runStart = runEnd;
        flush(sink);
      }
    }
    appendItems(data, runStart, runEnd, sink);
  }

  private void appendItems(FieldVector data, long from, long to, BufferSink sink) throws IOException {
    if (to > from) {
      if (to > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("List items past index 2^31 are not supported");
      }
      items.append(data, (int) from, (int) to, sink);
    }
  }

  @Override
  void flush(BufferSink sink) throws IOException {
    if (count == 0) {
      return;
    }
    long adjustment = pageItems + 1;
    ByteBuffer buffer = ByteBuffer.allocate(count * 8).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < count; i++) {
      buffer.putLong(validity.get(i) ? ends[i] : ends[i] + adjustment);
    }
    buffer.flip();
    ArrayEncoding encoding = Proto20.list(Proto20.noNulls(Proto20.flat(64, 0)), adjustment, pageItems);
    column.addPage(sink, List.of(buffer), count, encoding);
    items.flush(sink);
    count = 0;
    pageItems = 0;
    validity.reset();
    if (ends.length > (1 << 17)) {
      ends = new long[64];
    }
  }

  @Override
  void finish(BufferSink sink, List<ColumnMetadata> out) throws IOException {
    flush(sink);
    out.add(column.build());
    items.finish(sink, out);
  }
}
