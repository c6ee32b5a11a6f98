package dev.javelin.format.internal.v21;

import dev.javelin.format.exceptions.BadDataException;
import java.nio.ByteBuffer;

/**
 * Reads {@code Variable} values with flat offsets. A mini-block chunk's buffer holds n + 1
 * offsets (relative to the buffer) and the bytes they point at; a block (a dictionary) starts
 * with the offset width and where the bytes start ({@code u32 32, u32 start} or
 * {@code u64 64, u64 start}), then n + 1 offsets into the bytes, then the bytes; a full-zip value
 * is its bytes.
 */
final class VariableDecompressor implements MiniBlockDecompressor, BlockDecompressor, VariablePerValueDecompressor {
  private final int w;

  VariableDecompressor(int offsetBytes) {
    this.w = offsetBytes;
  }

  @Override
  public int numBuffers() {
    return 1;
  }

  @Override
  public void decode(ByteBuffer[] buffers, int numValues, LeafValues out) {
    ByteBuffer chunk = buffers[0];
    int size = chunk.limit();
    long first = checkOffsets(chunk, 0, numValues, 0, size);
    decodeRun(chunk, 0, first, numValues, (VarValues) out);
  }

  @Override
  public void decode(ByteBuffer buffer, int numValues, LeafValues out) {
    int size = buffer.limit();
    if (size < 2 * w) {
      throw new BadDataException("variable-width block of " + size + " bytes has no header");
    }
    long bitsWord = w == 4 ? buffer.getInt(0) & 0xFFFFFFFFL : buffer.getLong(0);
    if (bitsWord != 8L * w) {
      throw new BadDataException("variable-width block says its offsets have " + Long.toUnsignedString(bitsWord)
          + " bits, not " + (8 * w));
    }
    long start = w == 4 ? buffer.getInt(4) & 0xFFFFFFFFL : buffer.getLong(8);
    long need = 2L * w + (numValues + 1L) * w;
    if (start != need || start > size) {
      throw new BadDataException("variable-width block of " + numValues + " values says its bytes start at "
          + Long.toUnsignedString(start) + ", not " + need + " (block of " + size + " bytes)");
    }
    ByteBuffer data = buffer.slice((int) start, size - (int) start);
    long first = checkOffsets(buffer, 2 * w, numValues, 0, data.limit());
    VarValues v = (VarValues) out;
    long[] ends = new long[numValues];
    for (int i = 0; i < numValues; i++) {
      ends[i] = offset(buffer, 2 * w, i + 1) - first;
    }
    v.appendRun(data, (int) first, ends, numValues);
  }

  /**
   * Checks that the n + 1 offsets at {@code base} rise and stay within [min, max] and returns the
   * first.
   */
  private long checkOffsets(ByteBuffer b, int base, int numValues, long min, long max) {
    if (base + (numValues + 1L) * w > b.limit()) {
      throw new BadDataException(numValues + " values need " + ((numValues + 1L) * w)
          + " bytes of offsets but the buffer has " + (b.limit() - base));
    }
    long prev = offset(b, base, 0);
    if (prev < min || prev > max) {
      throw new BadDataException("first offset " + prev + " is outside the buffer's " + max + " bytes");
    }
    long first = prev;
    for (int i = 1; i <= numValues; i++) {
      long next = offset(b, base, i);
      if (next < prev || next > max) {
        throw new BadDataException("offset " + i + " (" + next + ") is before the previous (" + prev
            + ") or past the buffer's " + max + " bytes");
      }
      prev = next;
    }
    return first;
  }

  private void decodeRun(ByteBuffer chunk, int base, long first, int numValues, VarValues v) {
    long[] ends = new long[numValues];
    for (int i = 1; i <= numValues; i++) {
      ends[i - 1] = offset(chunk, base, i) - first;
    }
    v.appendRun(chunk, (int) first, ends, numValues);
  }

  private long offset(ByteBuffer b, int base, int i) {
    return w == 4 ? Integer.toUnsignedLong(b.getInt(base + 4 * i)) : b.getLong(base + 8 * i);
  }

  @Override
  public void decode(ByteBuffer data, int offset, int length, LeafValues out) {
    ((VarValues) out).append(data, offset, length);
  }
}
