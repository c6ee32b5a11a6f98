package dev.javelin.format.internal.v21;

import dev.javelin.format.internal.encoding.ByteBuilder;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;

/** Variable-width values (strings, binaries): the bytes back to back plus end offsets. */
final class VarValues extends LeafValues {
  final int offsetBytes;
  private final ByteBuilder data = new ByteBuilder();
  private long[] ends = new long[16];
  private int count;

  VarValues(int offsetBytes) {
    this.offsetBytes = offsetBytes;
  }

  @Override
  int count() {
    return count;
  }

  @Override
  long byteSize() {
    return data.size() + (long) count * offsetBytes;
  }

  long dataSize() {
    return data.size();
  }

  byte[] data() {
    return data.array();
  }

  long start(int i) {
    return i == 0 ? 0 : ends[i - 1];
  }

  long end(int i) {
    return ends[i];
  }

  int length(int i) {
    return (int) (end(i) - start(i));
  }

  private void push(long end) {
    if (count == ends.length) {
      ends = Arrays.copyOf(ends, ends.length * 2);
    }
    ends[count++] = end;
  }

  void append(ArrowBuf src, long offset, int len) {
    data.append(src, offset, len);
    push(data.size());
  }

  void append(ByteBuffer src, int offset, int len) {
    data.append(src, offset, len);
    push(data.size());
  }

  void append(byte[] src, int offset, int len) {
    data.append(src, offset, len);
    push(data.size());
  }

  @Override
  void appendRange(LeafValues src, int from, int to) {
    VarValues s = (VarValues) src;
    if (to <= from) {
      return;
    }
    long base = s.start(from);
    long shift = data.size() - base;
    data.append(s.data.array(), (int) base, (int) (s.start(to) - base));
    ensureEnds(to - from);
    for (int i = from; i < to; i++) {
      ends[count++] = s.ends[i] + shift;
    }
  }

  /**
   * Appends n values stored back to back in {@code src} from {@code dataStart}, whose ends
   * (relative to {@code dataStart}) are given; the caller has checked them.
   */
  void appendRun(ByteBuffer src, int dataStart, long[] relEnds, int n) {
    long total = n == 0 ? 0 : relEnds[n - 1];
    long shift = data.size();
    data.append(src, dataStart, (int) total);
    ensureEnds(n);
    for (int i = 0; i < n; i++) {
      ends[count++] = relEnds[i] + shift;
    }
  }

  /**
   * Makes room for {@code n} more values of at most {@code bytes} bytes in all, for a decoder that
   * writes them into {@link #data()} and {@link #endsArray()} directly and then calls
   * {@link #commit}.
   */
  void reserveDirect(int n, long bytes) {
    data.ensureRoom(bytes);
    ensureEnds(n);
  }

  /** The end offsets array (see {@link #reserveDirect}); the first {@link #count()} are meaningful. */
  long[] endsArray() {
    return ends;
  }

  /**
   * Counts {@code n} values written directly after the last (their ends in {@link #endsArray()}),
   * the data now ending at {@code dataEnd}.
   */
  void commit(int n, int dataEnd) {
    data.setSize(dataEnd);
    count += n;
  }

  /**
   * Appends rows [from, to) of an Arrow (large) variable-width vector, given its offset and data
   * buffers: their bytes are one contiguous range.
   */
  void appendRun(ArrowBuf src, ArrowBuf offsets, boolean large, int from, int to) {
    long first = large ? offsets.getLong(8L * from) : offsets.getInt(4L * from);
    long last = large ? offsets.getLong(8L * to) : offsets.getInt(4L * to);
    if (last - first > Integer.MAX_VALUE) {
      throw new IllegalStateException("Buffer would exceed 2 GiB");
    }
    long shift = data.size() - first;
    data.append(src, first, (int) (last - first));
    ensureEnds(to - from);
    if (large) {
      for (int i = from + 1; i <= to; i++) {
        ends[count++] = offsets.getLong(8L * i) + shift;
      }
    } else {
      for (int i = from + 1; i <= to; i++) {
        ends[count++] = offsets.getInt(4L * i) + shift;
      }
    }
  }

  private void ensureEnds(int extra) {
    if (count + extra > ends.length) {
      ends = Arrays.copyOf(ends, Math.max(count + extra, ends.length * 2));
    }
  }

  @Override
  void reserveBytes(long n) {
    data.ensureRoom(Math.min(n, Integer.MAX_VALUE / 2));
  }

  @Override
  void reserveValues(long n) {
    ensureEnds((int) Math.min(n, Integer.MAX_VALUE / 16));
  }

  @Override
  void reset() {
    data.reset();
    count = 0;
  }

  @Override
  void appendNulls(int n) {
    ensureEnds(n);
    Arrays.fill(ends, count, count + n, data.size());
    count += n;
  }

  /** The longest value among [from, to). */
  int maxLength(int from, int to) {
    int max = 0;
    for (int i = from; i < to; i++) {
      max = Math.max(max, length(i));
    }
    return max;
  }
}
