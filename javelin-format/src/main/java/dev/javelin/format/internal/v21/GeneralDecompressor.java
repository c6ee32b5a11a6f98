package dev.javelin.format.internal.v21;

import dev.javelin.format.exceptions.BadDataException;
import dev.javelin.format.internal.compression.general.GeneralCodec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads {@code General}: ZSTD or LZ4 over the output of an inner encoding. In a mini-block chunk
 * only the chunk's first buffer is compressed; a block is compressed whole; in a full-zip page
 * each value is compressed on its own. The compressed bytes carry their decompressed length
 * ({@link GeneralBuffers}).
 */
final class GeneralDecompressor implements MiniBlockDecompressor, BlockDecompressor, VariablePerValueDecompressor {
  /** A chunk buffer or block decompresses to at most this much. */
  private static final long MAX_BUFFER = 1L << 30;

  private final GeneralCodec.Scheme scheme;
  private final MiniBlockDecompressor miniBlock;
  private final BlockDecompressor block;

  private GeneralDecompressor(GeneralCodec.Scheme scheme, MiniBlockDecompressor miniBlock, BlockDecompressor block) {
    this.scheme = scheme;
    this.miniBlock = miniBlock;
    this.block = block;
  }

  static GeneralDecompressor miniBlock(GeneralCodec.Scheme scheme, MiniBlockDecompressor inner) {
    return new GeneralDecompressor(scheme, inner, null);
  }

  static GeneralDecompressor block(GeneralCodec.Scheme scheme, BlockDecompressor inner) {
    return new GeneralDecompressor(scheme, null, inner);
  }

  /** Per-value: each value is compressed bytes of the raw value. */
  static GeneralDecompressor perValue(GeneralCodec.Scheme scheme) {
    return new GeneralDecompressor(scheme, null, null);
  }

  @Override
  public int numBuffers() {
    return miniBlock.numBuffers();
  }

  @Override
  public void decode(ByteBuffer[] buffers, int numValues, LeafValues out) {
    if (buffers.length == 0) {
      throw new BadDataException("general compression over an encoding without buffers");
    }
    ByteBuffer[] inner = buffers.clone();
    inner[0] = wrap(GeneralBuffers.decompress(scheme, buffers[0], MAX_BUFFER));
    miniBlock.decode(inner, numValues, out);
  }

  @Override
  public void decode(ByteBuffer buffer, int numValues, LeafValues out) {
    block.decode(wrap(GeneralBuffers.decompress(scheme, buffer, MAX_BUFFER)), numValues, out);
  }

  @Override
  public void decode(ByteBuffer data, int offset, int length, LeafValues out) {
    byte[] value = GeneralBuffers.decompress(scheme, data.slice(offset, length), Integer.MAX_VALUE);
    ((VarValues) out).append(value, 0, value.length);
  }

  private static ByteBuffer wrap(byte[] b) {
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
  }
}
