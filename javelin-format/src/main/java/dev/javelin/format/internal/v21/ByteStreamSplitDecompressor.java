package dev.javelin.format.internal.v21;

import dev.javelin.format.internal.compression.bitpack.ByteStreamSplitCodec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads {@code ByteStreamSplit} in a mini-block chunk: the chunk's values regrouped byte by byte
 * ({@link ByteStreamSplitCodec}). Lance writes it only under General compression.
 */
final class ByteStreamSplitDecompressor implements MiniBlockDecompressor {
  private final int bits;

  ByteStreamSplitDecompressor(int bits) {
    this.bits = bits;
  }

  @Override
  public int numBuffers() {
    return 1;
  }

  @Override
  public void decode(ByteBuffer[] buffers, int numValues, LeafValues out) {
    byte[] dst = new byte[Math.multiplyExact(numValues, bits / 8)];
    ByteStreamSplitCodec.decodeChunk(buffers[0], numValues, bits, ByteBuffer.wrap(dst).order(ByteOrder.LITTLE_ENDIAN));
    ((FixedValues) out).appendFrom(ByteBuffer.wrap(dst), 0, numValues);
  }
}
