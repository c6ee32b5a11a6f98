package dev.javelin.format.internal.v21;

import dev.javelin.format.exceptions.BadDataException;
import java.nio.ByteBuffer;

/** Reads {@code Flat} values: fixed-width, stored as they are (1 bit each for booleans). */
final class FlatDecompressor implements MiniBlockDecompressor, BlockDecompressor, FixedPerValueDecompressor {
  private final int bits;

  FlatDecompressor(int bits) {
    this.bits = bits;
  }

  @Override
  public int numBuffers() {
    return 1;
  }

  @Override
  public void decode(ByteBuffer[] buffers, int numValues, LeafValues out) {
    decode(buffers[0], numValues, out);
  }

  @Override
  public void decode(ByteBuffer buffer, int numValues, LeafValues out) {
    long need = ((long) numValues * bits + 7) / 8;
    if (need > buffer.limit()) {
      throw new BadDataException(numValues + " values of " + bits + " bits need " + need + " bytes but the buffer has "
          + buffer.limit());
    }
    ((FixedValues) out).appendFrom(buffer, 0, numValues);
  }

  @Override
  public int bytesPerValue() {
    return bits / 8;
  }

  @Override
  public void decode(ByteBuffer data, int offset, int n, LeafValues out) {
    ((FixedValues) out).appendFrom(data, offset, n);
  }
}
