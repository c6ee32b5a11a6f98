package dev.javelin.format.v21;

import dev.javelin.format.proto.Encodings21.CompressiveEncoding;

/**
 * Variable-width values as they are ({@code Variable} with flat offsets). In a mini-block chunk
 * the buffer holds n + 1 offsets, rebased so that the first points just past them, then the
 * bytes, padded to the offset width. In full-zip each value is its length then its bytes.
 */
final class VariableEncoder implements MiniBlockValueEncoder, PerValueEncoder {
  // Lance pads the chunk's values buffer with 'H'.
  private static final byte PAD = 72;
  private final VarValues values;
  private final int w;

  VariableEncoder(VarValues values) {
    this.values = values;
    this.w = values.offsetBytes;
  }

  @Override
  public CompressiveEncoding encoding() {
    return Protos21.variable(w * 8);
  }

  @Override
  public int numBuffers() {
    return 1;
  }

  @Override
  public int[] bufferSizes(int from, int to) {
    long size = (long) (to - from + 1) * w + (values.start(to) - values.start(from));
    size = (size + w - 1) / w * w;
    return new int[] {(int) Math.min(size, Integer.MAX_VALUE)};
  }

  @Override
  public byte[][] encode(int from, int to) {
    int n = to - from;
    long base = values.start(from);
    long first = (long) (n + 1) * w;
    ByteBuilder b = new ByteBuilder(bufferSizes(from, to)[0]);
    for (int i = 0; i <= n; i++) {
      long off = first + values.start(from + i) - base;
      b.appendUnsigned(off, w);
    }
    b.append(values.data(), (int) base, (int) (values.start(to) - base));
    b.padTo(w, PAD);
    return new byte[][] {java.util.Arrays.copyOf(b.array(), b.size())};
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
    int len = values.length(index);
    out.appendUnsigned(len, w);
    out.append(values.data(), (int) values.start(index), len);
  }
}
