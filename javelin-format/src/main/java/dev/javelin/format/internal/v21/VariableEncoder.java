package dev.javelin.format.internal.v21;

import dev.javelin.format.internal.compression.fsst.BinaryValues;
import dev.javelin.format.internal.encoding.ByteBuilder;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Variable-width values as they are ({@code Variable} with flat offsets), or values some codec
 * already transformed (FSST) under that codec's encoding. In a mini-block chunk the buffer holds
 * n + 1 offsets, rebased so that the first points just past them, then the bytes, padded to the
 * offset width. In full-zip each value is its length then its bytes.
 */
final class VariableEncoder implements MiniBlockValueEncoder, PerValueEncoder {
  // Lance pads the chunk's values buffer with 'H'.
  private static final byte PAD = 72;
  private static final VarHandle LE_INT = MethodHandles.byteArrayViewVarHandle(
      int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LE_LONG = MethodHandles.byteArrayViewVarHandle(
      long[].class, ByteOrder.LITTLE_ENDIAN);
  private final VarValues values;
  private final BinaryValues binary;
  private final int w;
  private final CompressiveEncoding encoding;

  VariableEncoder(VarValues values) {
    this.values = values;
    this.binary = null;
    this.w = values.offsetBytes;
    this.encoding = Protos21.variable(w * 8);
  }

  /** Values held as {@code binary}, described by {@code encoding} (which wraps Variable). */
  VariableEncoder(BinaryValues binary, int offsetBytes, CompressiveEncoding encoding) {
    this.values = null;
    this.binary = binary;
    this.w = offsetBytes;
    this.encoding = encoding;
  }

  private long start(int i) {
    return values != null ? values.start(i) : binary.offsets()[i];
  }

  private byte[] data() {
    return values != null ? values.data() : binary.bytes();
  }

  private int count() {
    return values != null ? values.count() : binary.count();
  }

  @Override
  public CompressiveEncoding encoding() {
    return encoding;
  }

  @Override
  public int numBuffers() {
    return 1;
  }

  @Override
  public int[] bufferSizes(int from, int to) {
    long size = (long) (to - from + 1) * w + (start(to) - start(from));
    size = (size + w - 1) / w * w;
    return new int[] {(int) Math.min(size, Integer.MAX_VALUE)};
  }

  @Override
  public byte[][] encode(int from, int to) {
    ByteBuilder b = new ByteBuilder(bufferSizes(from, to)[0]);
    writeChunk(from, to, 0, b);
    byte[] a = b.array();
    return new byte[][] {a.length == b.size() ? a : Arrays.copyOf(a, b.size())};
  }

  @Override
  public void writeChunk(int from, int to, int buffer, ByteBuilder b) {
    int n = to - from;
    long base = start(from);
    long first = (long) (n + 1) * w;
    int size = bufferSizes(from, to)[0];
    int at = b.extend(size);
    byte[] out = b.array();
    // Offsets written straight into place: this runs for every chunk of a page.
    int pos = at;
    if (w == 4) {
      for (int i = 0; i <= n; i++, pos += 4) {
        LE_INT.set(out, pos, (int) (first + start(from + i) - base));
      }
    } else if (w == 8) {
      for (int i = 0; i <= n; i++, pos += 8) {
        LE_LONG.set(out, pos, first + start(from + i) - base);
      }
    } else {
      for (int i = 0; i <= n; i++) {
        long v = first + start(from + i) - base;
        for (int k = 0; k < w; k++) {
          out[pos++] = (byte) (v >>> (8 * k));
        }
      }
    }
    int len = (int) (start(to) - base);
    System.arraycopy(data(), (int) base, out, pos, len);
    Arrays.fill(out, pos + len, at + size, PAD);
  }

  @Override
  public boolean isVariable() {
    return true;
  }

  @Override
  public int bits() {
    return w * 8;
  }

  @Override
  public void write(int index, ByteBuilder out) {
    long s = start(index);
    int len = (int) (start(index + 1) - s);
    out.appendUnsigned(len, w);
    out.append(data(), (int) s, len);
  }

  /** The total size of the values as stored (bytes and one offset each), to compare encodings. */
  long storedBytes() {
    int n = count();
    return start(n) - start(0) + (long) n * w;
  }
}
