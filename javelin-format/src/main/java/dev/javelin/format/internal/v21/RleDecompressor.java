package dev.javelin.format.internal.v21;

import dev.javelin.format.exceptions.BadDataException;
import dev.javelin.format.internal.compression.bitpack.RleCodec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads {@code Rle}: run values and u8 run lengths ({@link RleCodec}). In a mini-block chunk they
 * are the chunk's two buffers; as a block (levels in format 2.2) they share one buffer framed as
 * {@code u64 size of the values, values, run lengths}. Decoding stops at the declared count: a
 * chunk's runs may cover more values than it holds.
 */
final class RleDecompressor implements MiniBlockDecompressor, BlockDecompressor {
  private final int bits;

  RleDecompressor(int bits) {
    this.bits = bits;
  }

  @Override
  public int numBuffers() {
    return 2;
  }

  @Override
  public void decode(ByteBuffer[] buffers, int numValues, LeafValues out) {
    decode(buffers[0], buffers[1], numValues, out);
  }

  @Override
  public void decode(ByteBuffer buffer, int numValues, LeafValues out) {
    int size = buffer.limit();
    if (size < 8) {
      throw new BadDataException("run-length block of " + size + " bytes has no 8-byte header");
    }
    long valuesSize = buffer.getLong(0);
    if (valuesSize < 0 || valuesSize > size - 8) {
      throw new BadDataException("run-length block says its values take " + Long.toUnsignedString(valuesSize)
          + " of its " + (size - 8) + " bytes");
    }
    int v = (int) valuesSize;
    decode(buffer.slice(8, v), buffer.slice(8 + v, size - 8 - v), numValues, out);
  }

  private void decode(ByteBuffer values, ByteBuffer lengths, int numValues, LeafValues out) {
    byte[] dst = new byte[Math.multiplyExact(numValues, bits / 8)];
    RleCodec.decode(values, lengths, numValues, bits, ByteBuffer.wrap(dst).order(ByteOrder.LITTLE_ENDIAN));
    ((FixedValues) out).appendFrom(ByteBuffer.wrap(dst), 0, numValues);
  }
}
