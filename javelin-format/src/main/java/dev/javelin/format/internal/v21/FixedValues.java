package dev.javelin.format.internal.v21;

import dev.javelin.format.internal.encoding.BitBuffer;
import dev.javelin.format.internal.encoding.ByteBuilder;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;

/** Fixed-width values: whole bytes per value, or 1 bit per value for booleans. */
final class FixedValues extends LeafValues {
  final int bits;
  private final ByteBuilder bytes;
  private final BitBuffer bitData;
  private int count;

  FixedValues(int bits) {
    if (bits != 1 && (bits <= 0 || bits % 8 != 0)) {
      throw new IllegalArgumentException("Unsupported value width " + bits + " bits");
    }
    this.bits = bits;
    this.bytes = bits == 1 ? null : new ByteBuilder();
    this.bitData = bits == 1 ? new BitBuffer() : null;
  }

  @Override
  int count() {
    return count;
  }

  @Override
  long byteSize() {
    return bits == 1 ? bitData.byteSize() : bytes.size();
  }

  /** The raw bytes: values packed from bit 0 (booleans) or back to back. */
  byte[] array() {
    return bits == 1 ? bitData.array() : bytes.array();
  }

  void appendFrom(ArrowBuf src, long firstValue, int n) {
    if (bits == 1) {
      bitData.addFrom(src, firstValue, n);
    } else {
      int w = bits / 8;
      bytes.append(src, firstValue * w, n * w);
    }
    count += n;
  }

  /** Appends {@code n} values stored from byte {@code byteOffset} of {@code src}. */
  void appendFrom(ByteBuffer src, int byteOffset, int n) {
    if (bits == 1) {
      bitData.addFrom(src, byteOffset, 0, n);
    } else {
      bytes.append(src, byteOffset, n * (bits / 8));
    }
    count += n;
  }

  @Override
  void appendRange(LeafValues src, int from, int to) {
    FixedValues s = (FixedValues) src;
    int n = to - from;
    if (bits == 1) {
      bitData.addFrom(s.bitData, from, n);
    } else {
      int w = bits / 8;
      bytes.append(s.bytes.array(), from * w, n * w);
    }
    count += n;
  }

  @Override
  void reset() {
    if (bits == 1) {
      bitData.reset();
    } else {
      bytes.reset();
    }
    count = 0;
  }

  @Override
  void reserveBytes(long n) {
    if (bits != 1) {
      bytes.ensureRoom(Math.min(n, Integer.MAX_VALUE / 2));
    }
  }

  /** Makes room for {@code n} more values, so appends do not regrow the buffer. */
  void reserve(long n) {
    if (bits != 1) {
      bytes.ensureRoom(n * (bits / 8));
    }
  }

  /**
   * Adds {@code n} whole-byte values for the caller to write into {@link #array()}; returns the
   * byte offset where they start.
   */
  int extendValues(int n) {
    int at = bytes.extend(Math.multiplyExact(n, bits / 8));
    count += n;
    return at;
  }

  /** Appends {@code n} values held in the first bytes of {@code src}, taking the array when empty. */
  void appendOwned(byte[] src, int n) {
    if (bits == 1) {
      bitData.addFrom(src, 0, n);
    } else {
      bytes.appendOwned(src, n * (bits / 8));
    }
    count += n;
  }

  @Override
  void appendNulls(int n) {
    if (bits == 1) {
      bitData.addRepeated(false, n);
    } else {
      bytes.appendZeros(n * (bits / 8));
    }
    count += n;
  }

  /** Bytes holding values [from, to), packed from bit 0. */
  byte[] slice(int from, int to) {
    if (bits == 1) {
      return bitData.slice(from, to - from);
    }
    int w = bits / 8;
    return Arrays.copyOfRange(bytes.array(), from * w, to * w);
  }

  /** Appends the bytes of one value (whole-byte widths only), for a full-zip buffer. */
  void writeValue(ByteBuilder out, int index) {
    int w = bits / 8;
    out.append(bytes.array(), index * w, w);
  }
}
