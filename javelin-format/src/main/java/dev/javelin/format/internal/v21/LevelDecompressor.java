package dev.javelin.format.internal.v21;

import dev.javelin.format.exceptions.BadDataException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Decodes a block of 16-bit repetition or definition levels (a mini-block chunk's share, or a
 * constant page's) with the block encoding the page names.
 */
final class LevelDecompressor {
  private final BlockDecompressor block;

  LevelDecompressor(BlockDecompressor block) {
    this.block = block;
  }

  /**
   * Decodes {@code numLevels} levels from bytes [offset, offset + size) of {@code buf}.
   *
   * @throws BadDataException if the bytes cannot hold them
   */
  short[] decode(ByteBuffer buf, int offset, int size, int numLevels) {
    if (offset < 0 || size < 0 || offset + size > buf.limit()) {
      throw new BadDataException("levels at bytes " + offset + "+" + size + " pass the end of a " + buf.limit()
          + "-byte buffer");
    }
    ByteBuffer slice = buf.slice(offset, size).order(ByteOrder.LITTLE_ENDIAN);
    FixedValues v = new FixedValues(16);
    try {
      block.decode(slice, numLevels, v);
    } catch (BadDataException | IllegalArgumentException | IndexOutOfBoundsException e) {
      throw new BadDataException("levels: " + e.getMessage());
    }
    if (v.count() != numLevels) {
      throw new BadDataException("decoded " + v.count() + " levels, expected " + numLevels);
    }
    byte[] b = v.array();
    short[] out = new short[numLevels];
    for (int i = 0; i < numLevels; i++) {
      out[i] = (short) ((b[2 * i] & 0xFF) | (b[2 * i + 1] << 8));
    }
    return out;
  }
}
