package dev.javelin.format.internal.v21;

import dev.javelin.format.exceptions.BadDataException;
import java.nio.ByteBuffer;

/**
 * Decodes the values of one mini-block chunk. One implementation per compressive encoding; an
 * encoding that wraps another (General, FSST, FixedSizeList, PackedStruct) holds the inner one.
 */
interface MiniBlockDecompressor {
  /** The buffers each chunk holds. */
  int numBuffers();

  /**
   * Decodes {@code numValues} values from the chunk's buffers (each a little-endian buffer whose
   * position is 0 and whose limit is the buffer's size) and appends them to {@code out}.
   *
   * @throws BadDataException if the buffers are too small or malformed
   */
  void decode(ByteBuffer[] buffers, int numValues, LeafValues out);
}
