package dev.javelin.format.v21;

import dev.javelin.format.compression.fsst.BinaryValues;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;

/**
 * Variable-width values as they are ({@code Variable} with flat offsets), or values some codec
 * already transformed (FSST) under that codec's encoding. In a mini-block chunk the buffer holds
 * n + 1 offsets, rebased so that the first points just past them, then the bytes, padded to the
 * offset width. In full-zip each value is its length then its bytes.
 */
final class VariableEncoder implements MiniBlockValueEncoder, PerValueEncoder {
  // Lance pads the chunk's values buffer with 'H'.
  private static final byte PAD = 72;
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
    int n = to - from;
    long base = start(from);
    long first = (long) (n + 1) * w;
    ByteBuilder b = new ByteBuilder(bufferSizes(from, to)[0]);
    for (int i = 0; i <= n; i++) {
      long off = first + start(from + i) - base;
      b.appendUnsigned(off, w);
    }
    b.append(data(), (int) base, (int) (start(to) - base));
    b.padTo(w, PAD);
    byte[] out = b.array();
    // Sized exactly by bufferSizes: no copy needed then.
    return new byte[][] {out.length == b.size() ? out : java.util.Arrays.copyOf(out, b.size())};
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
