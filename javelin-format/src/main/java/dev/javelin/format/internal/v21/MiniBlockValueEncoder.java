package dev.javelin.format.internal.v21;

import dev.javelin.format.internal.encoding.ByteBuilder;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;

/**
 * Writes the values of a page as mini-block chunks: each chunk holds a run of values in one or
 * more buffers. One implementation per compressive encoding Javelin writes.
 */
interface MiniBlockValueEncoder {
  /** The encoding to record in the page layout. */
  CompressiveEncoding encoding();

  /** Buffers per chunk. */
  int numBuffers();

  /** The byte size of each buffer of a chunk holding values [from, to). */
  int[] bufferSizes(int from, int to);

  /** The buffers of a chunk holding values [from, to). */
  byte[][] encode(int from, int to);

  /**
   * Appends buffer {@code b} of the chunk holding values [from, to), exactly
   * {@code bufferSizes(from, to)[b]} bytes; encoders that can write in place avoid the copy.
   */
  default void writeChunk(int from, int to, int b, ByteBuilder out) {
    byte[] x = encode(from, to)[b];
    out.append(x, 0, x.length);
  }
}
