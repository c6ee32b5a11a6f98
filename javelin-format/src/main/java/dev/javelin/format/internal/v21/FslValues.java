package dev.javelin.format.internal.v21;

import dev.javelin.format.internal.encoding.BitBuffer;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;

/**
 * Fixed-size list values: the innermost items back to back plus, per list layer (outermost
 * first), the validity of that layer's children. A layer's validity stays null until a null
 * child is seen, so all-valid data carries none.
 */
final class FslValues extends LeafValues {
  final LeafType type;
  final FixedValues items;
  /** validity[l] holds count * cum(l) bits, cum(l) = product of dims[0..l]. */
  final BitBuffer[] validity;
  private final long[] cum;
  private int count;

  FslValues(LeafType type) {
    this.type = type;
    this.items = new FixedValues(type.bitsPerItem);
    this.validity = new BitBuffer[type.dims.length];
    this.cum = new long[type.dims.length];
    long c = 1;
    for (int l = 0; l < type.dims.length; l++) {
      c *= type.dims[l];
      cum[l] = c;
    }
  }

  /** Children per value at layer {@code l}. */
  long cum(int l) {
    return cum[l];
  }

  int layers() {
    return cum.length;
  }

  @Override
  int count() {
    return count;
  }

  @Override
  long byteSize() {
    long s = items.byteSize();
    for (BitBuffer b : validity) {
      s += b == null ? 0 : b.byteSize();
    }
    return s;
  }

  /** Records {@code n} more values whose items and validity the caller has appended. */
  void addCount(int n) {
    count += n;
  }

  /** Appends layer {@code l} validity bits for n children from an Arrow validity buffer. */
  void appendValidity(int l, ArrowBuf buf, long from, long n) {
    BitBuffer b = validity[l];
    if (b == null) {
      if (BitBuffer.allSet(buf, from, n)) {
        return;
      }
      b = validity[l] = new BitBuffer();
      b.addRepeated(true, (long) count * cum[l]);
    }
    b.addFrom(buf, from, n);
  }

  /** Appends layer {@code l} validity bits from a packed bitmap (a decoded chunk). */
  void appendValidity(int l, byte[] bits, long from, long n) {
    BitBuffer b = validity[l];
    if (b == null) {
      b = validity[l] = new BitBuffer();
      b.addRepeated(true, (long) count * cum[l]);
    }
    b.addFrom(bits, from, n);
  }

  /** Appends layer {@code l} validity bits for n children from a bitmap at byte {@code pos} of {@code buf}. */
  void appendValidity(int l, ByteBuffer buf, int pos, long n) {
    BitBuffer b = validity[l];
    if (b == null) {
      b = validity[l] = new BitBuffer();
      b.addRepeated(true, (long) count * cum[l]);
    }
    b.addFrom(buf, pos, 0, n);
  }

  /** Pads layers that got no validity for the values just added. */
  void padValidity(int l, long n) {
    if (validity[l] != null) {
      validity[l].addRepeated(true, n);
    }
  }

  @Override
  void appendRange(LeafValues src, int from, int to) {
    FslValues s = (FslValues) src;
    int n = to - from;
    long ipv = type.itemsPerValue;
    items.appendRange(s.items, (int) (from * ipv), (int) (to * ipv));
    for (int l = 0; l < cum.length; l++) {
      if (s.validity[l] != null) {
        appendValidity(l, s.validity[l].array(), from * cum[l], n * cum[l]);
      } else {
        padValidity(l, n * cum[l]);
      }
    }
    count += n;
  }

  @Override
  void reserveBytes(long n) {
    items.reserveBytes(n);
  }

  @Override
  void reset() {
    items.reset();
    // A null layer means "all valid so far"; start over that way.
    Arrays.fill(validity, null);
    count = 0;
  }

  @Override
  void appendNulls(int n) {
    items.appendNulls((int) (n * type.itemsPerValue));
    for (int l = 0; l < cum.length; l++) {
      padValidity(l, n * cum[l]);
    }
    count += n;
  }
}
