package dev.javelin.format.v21;

import java.nio.ByteBuffer;

/** Reads {@code Flat} values: fixed-width, stored as they are (1 bit each for booleans). */
final class FlatDecompressor implements MiniBlockDecompressor, LevelDecompressor, FixedPerValueDecompressor {
  private final int bits;

  FlatDecompressor(int bits) {
    this.bits = bits;
  }

  @Override
  public int numBuffers() {
    return 1;
  }

  @Override
  public void decode(ByteBuffer chunk, int[] offsets, int[] sizes, int numValues, LeafValues out) {
    long need = ((long) numValues * bits + 7) / 8;
    if (need > sizes[0]) {
      throw new BadDataException(numValues + " values of " + bits + " bits need " + need
          + " bytes but the chunk's buffer has " + sizes[0]);
    }
    ((FixedValues) out).appendFrom(chunk, offsets[0], numValues);
  }

  @Override
  public short[] decode(ByteBuffer buf, int offset, int size, int numLevels) {
    if (2L * numLevels > size) {
      throw new BadDataException(numLevels + " levels need " + (2L * numLevels) + " bytes but have " + size);
    }
    short[] out = new short[numLevels];
    for (int i = 0; i < numLevels; i++) {
      out[i] = buf.getShort(offset + 2 * i);
    }
    return out;
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
