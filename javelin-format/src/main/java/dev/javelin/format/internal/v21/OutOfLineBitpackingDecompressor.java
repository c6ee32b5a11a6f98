package dev.javelin.format.internal.v21;

import dev.javelin.format.internal.compression.bitpack.OutOfLineBitpackingCodec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads {@code OutOfLineBitpacking}: a whole buffer packed at the one bit width the description
 * gives ({@link OutOfLineBitpackingCodec}). Lance uses it for mini-block levels (each chunk's
 * levels packed on their own) and fixed-width dictionaries.
 */
final class OutOfLineBitpackingDecompressor implements MiniBlockDecompressor, BlockDecompressor {
  private final int bits;
  private final int width;

  OutOfLineBitpackingDecompressor(int bits, int width) {
    this.bits = bits;
    this.width = width;
  }

  @Override
  public int numBuffers() {
    return 1;
  }

  @Override
  public void decode(ByteBuffer[] buffers, int numValues, LeafValues out) {
    decode(buffers[0], numValues, out);
  }

  @Override
  public void decode(ByteBuffer buffer, int numValues, LeafValues out) {
    byte[] dst = new byte[Math.multiplyExact(numValues, bits / 8)];
    OutOfLineBitpackingCodec.decode(buffer, numValues, width, bits,
        ByteBuffer.wrap(dst).order(ByteOrder.LITTLE_ENDIAN));
    ((FixedValues) out).appendFrom(ByteBuffer.wrap(dst), 0, numValues);
  }
}
