package dev.javelin.format.v21;

import java.nio.ByteBuffer;

/**
 * Reads {@code Variable} values with flat offsets. A mini-block chunk's buffer holds n + 1
 * offsets (relative to the buffer) and the bytes they point at; a full-zip value is its bytes.
 */
final class VariableDecompressor implements MiniBlockDecompressor, VariablePerValueDecompressor {
  private final int w;

  VariableDecompressor(int offsetBytes) {
    this.w = offsetBytes;
  }

  @Override
  public int numBuffers() {
    return 1;
  }

  @Override
  public void decode(ByteBuffer chunk, int[] offsets, int[] sizes, int numValues, LeafValues out) {
    int base = offsets[0];
    int size = sizes[0];
    if ((long) (numValues + 1) * w > size) {
      throw new BadDataException(numValues + " values need " + ((long) (numValues + 1) * w)
          + " bytes of offsets but the chunk's buffer has " + size);
    }
    VarValues v = (VarValues) out;
    long first = offset(chunk, base, 0);
    if (first < 0 || first > size) {
      throw new BadDataException("first offset " + first + " is outside the chunk's buffer of " + size + " bytes");
    }
    long[] ends = new long[numValues];
    long prev = first;
    for (int i = 1; i <= numValues; i++) {
      long next = offset(chunk, base, i);
      if (next < prev || next > size) {
        throw new BadDataException("offset " + i + " (" + next + ") is before the previous (" + prev
            + ") or past the chunk's buffer of " + size + " bytes");
      }
      ends[i - 1] = next - first;
      prev = next;
    }
    v.appendRun(chunk, base + (int) first, ends, numValues);
  }

  private long offset(ByteBuffer b, int base, int i) {
    return w == 4 ? Integer.toUnsignedLong(b.getInt(base + 4 * i)) : b.getLong(base + 8 * i);
  }

  @Override
  public void decode(ByteBuffer data, int offset, int length, LeafValues out) {
    ((VarValues) out).append(data, offset, length);
  }
}
