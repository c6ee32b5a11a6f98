package dev.javelin.format.v21;

import java.nio.ByteBuffer;

/** Decodes the values of one mini-block chunk. One implementation per compressive encoding. */
interface MiniBlockDecompressor {
  /** The buffers each chunk holds. */
  int numBuffers();

  /**
   * Decodes {@code numValues} values from the chunk's buffers, given as (offset, size) within
   * {@code chunk}, and appends them to {@code out}.
   *
   * @throws BadDataException if the buffers are too small or malformed
   */
  void decode(ByteBuffer chunk, int[] offsets, int[] sizes, int numValues, LeafValues out);
}
