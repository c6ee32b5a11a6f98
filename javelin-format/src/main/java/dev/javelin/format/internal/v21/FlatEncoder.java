package dev.javelin.format.internal.v21;

import dev.javelin.format.internal.encoding.ByteBuilder;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;
import java.nio.ByteBuffer;

/** Fixed-width values as they are ({@code Flat}): booleans packed 8 to a byte. */
final class FlatEncoder implements MiniBlockValueEncoder, PerValueEncoder {
  private final FixedValues values;

  FlatEncoder(FixedValues values) {
    this.values = values;
  }

  @Override
  public CompressiveEncoding encoding() {
    return Protos21.flat(values.bits);
  }

  @Override
  public int numBuffers() {
    return 1;
  }

  @Override
  public int[] bufferSizes(int from, int to) {
    return new int[] {(int) (((long) (to - from) * values.bits + 7) / 8)};
  }

  @Override
  public byte[][] encode(int from, int to) {
    return new byte[][] {values.slice(from, to)};
  }

  @Override
  public void writeChunk(int from, int to, int b, ByteBuilder out) {
    if (values.bits % 8 == 0) {
      int w = values.bits / 8;
      out.append(values.array(), from * w, (to - from) * w);
    } else {
      MiniBlockValueEncoder.super.writeChunk(from, to, b, out);
    }
  }

  @Override
  public boolean isVariable() {
    return false;
  }

  @Override
  public int bits() {
    return values.bits;
  }

  @Override
  public ByteBuffer contiguous(int count) {
    if (values.bits % 8 != 0 || count != values.count()) {
      return null;
    }
    return ByteBuffer.wrap(values.array(), 0, count * (values.bits / 8)).slice();
  }

  @Override
  public void write(int index, ByteBuilder out) {
    values.writeValue(out, index);
  }
}
