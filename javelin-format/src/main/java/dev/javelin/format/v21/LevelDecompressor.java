package dev.javelin.format.v21;

import java.nio.ByteBuffer;

/** Decodes a block of repetition or definition levels (a mini-block chunk's share). */
interface LevelDecompressor {
  /**
   * Decodes {@code numLevels} levels from bytes [offset, offset + size) of {@code buf}.
   *
   * @throws BadDataException if the bytes cannot hold them
   */
  short[] decode(ByteBuffer buf, int offset, int size, int numLevels);
}
