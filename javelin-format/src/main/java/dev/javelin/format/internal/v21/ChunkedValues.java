package dev.javelin.format.internal.v21;

import dev.javelin.format.internal.encoding.ByteBuilder;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;

/**
 * The values of a mini-block page already cut into chunks by their codec (bit-packing cuts at
 * 1024 values, RLE where its runs fit). Every chunk but the last holds a power of two values.
 */
interface ChunkedValues {
  CompressiveEncoding encoding();

  int numBuffers();

  int numChunks();

  /** The number of values in chunk {@code c}. */
  int chunkValues(int c);

  /** The size of chunk {@code c}'s part of buffer {@code b}. */
  int bufferSize(int c, int b);

  /** Appends chunk {@code c}'s part of buffer {@code b}. */
  void writeBuffer(int c, int b, ByteBuilder out);
}
