package dev.javelin.format.v21;

import dev.javelin.format.compression.bitpack.FastLanes;
import dev.javelin.format.compression.bitpack.InlineBitpackingCodec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads {@code InlineBitpacking}: blocks of 1024 values, each a bit-width word then its FastLanes
 * packing ({@link InlineBitpackingCodec}). Lance puts one block in a mini-block chunk and one in a
 * block of at most 1024 levels; more blocks back to back are read the same way.
 */
final class InlineBitpackingDecompressor implements MiniBlockDecompressor, BlockDecompressor {
  private final int bits;

  InlineBitpackingDecompressor(int bits) {
    this.bits = bits;
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
    int wordBytes = bits / 8;
    byte[] dst = new byte[Math.multiplyExact(numValues, wordBytes)];
    ByteBuffer target = ByteBuffer.wrap(dst).order(ByteOrder.LITTLE_ENDIAN);
    int pos = 0;
    int done = 0;
    int size = buffer.limit();
    while (done < numValues) {
      if (pos + wordBytes > size) {
        throw new BadDataException("bit-packed values end after " + done + " of " + numValues + " values");
      }
      long width = PageDecoder.unsigned(buffer, pos, wordBytes);
      if (width < 0 || width > bits) {
        throw new BadDataException("bit-packed block declares " + Long.toUnsignedString(width) + " bits per "
            + bits + "-bit value");
      }
      int blockBytes = InlineBitpackingCodec.chunkBytes(bits, (int) width);
      if (pos + blockBytes > size) {
        throw new BadDataException("bit-packed block of " + blockBytes + " bytes at byte " + pos
            + " passes the end of its " + size + "-byte buffer");
      }
      int n = Math.min(FastLanes.BLOCK, numValues - done);
      InlineBitpackingCodec.decodeChunk(buffer.slice(pos, blockBytes), n, bits, target);
      done += n;
      pos += blockBytes;
    }
    ((FixedValues) out).appendOwned(dst, numValues);
  }
}
