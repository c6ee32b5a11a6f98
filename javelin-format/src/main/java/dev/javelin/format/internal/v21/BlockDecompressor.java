package dev.javelin.format.internal.v21;

import dev.javelin.format.exceptions.BadDataException;
import java.nio.ByteBuffer;

/**
 * Decodes a block: one buffer holding a known number of values, decoded whole. Lance uses block
 * compression for a mini-block chunk's repetition and definition levels, for mini-block
 * dictionaries and for the levels of constant pages.
 */
interface BlockDecompressor {
  /**
   * Decodes {@code numValues} values from {@code buffer} (little-endian, position 0, limit the
   * block's size) and appends them to {@code out}.
   *
   * @throws BadDataException if the block is malformed or holds a different number of values
   */
  void decode(ByteBuffer buffer, int numValues, LeafValues out);
}
