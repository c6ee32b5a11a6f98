package dev.javelin.format.v21;

import dev.javelin.format.compression.fsst.BinaryValues;
import dev.javelin.format.compression.fsst.FsstDecoder;
import java.nio.ByteBuffer;

/**
 * Reads {@code Fsst} over {@code Variable}: the compressed values are laid out as Variable lays
 * them out (in a mini-block chunk: n + 1 offsets from the buffer's start, then the bytes; in a
 * full-zip page: one value's codes), and each expands through the page's symbol table
 * ({@link FsstDecoder}). A code expands to at most 8 bytes, which bounds the output.
 */
final class FsstDecompressor implements MiniBlockDecompressor, VariablePerValueDecompressor {
  private final FsstDecoder decoder;
  private final int offsetBits;
  /**
   * Reused for every chunk or value (cleared first): its arrays grow to the largest chunk once
   * instead of per chunk. Its bound is no limit: a code expands to at most 8 bytes, so a chunk's
   * output is bounded by its input, and the values are copied out before the next decode.
   */
  private BinaryValues.Builder scratch;

  FsstDecompressor(FsstDecoder decoder, int offsetBits) {
    this.decoder = decoder;
    this.offsetBits = offsetBits;
  }

  @Override
  public int numBuffers() {
    return 1;
  }

  @Override
  public void decode(ByteBuffer[] buffers, int numValues, LeafValues out) {
    ByteBuffer chunk = buffers[0];
    int size = chunk.limit();
    BinaryValues.Builder b = scratch(numValues, 3 * size);
    decoder.decode(chunk, offsetBits, numValues, chunk, b);
    append(b, (VarValues) out);
  }

  @Override
  public void decode(ByteBuffer data, int offset, int length, LeafValues out) {
    BinaryValues.Builder b = scratch(1, 3 * length);
    if (data.hasArray()) {
      decoder.decodeValue(data.array(), data.arrayOffset() + offset, length, b);
    } else {
      byte[] copy = new byte[length];
      data.get(offset, copy);
      decoder.decodeValue(copy, 0, length, b);
    }
    append(b, (VarValues) out);
  }

  private BinaryValues.Builder scratch(int values, int bytes) {
    if (scratch == null) {
      scratch = new BinaryValues.Builder(values, bytes, Integer.MAX_VALUE);
    }
    return scratch.clear();
  }

  private static void append(BinaryValues.Builder b, VarValues out) {
    int n = b.count();
    int[] offs = b.offsets();
    long[] ends = new long[n];
    for (int i = 0; i < n; i++) {
      ends[i] = offs[i + 1] - (long) offs[0];
    }
    out.appendRun(ByteBuffer.wrap(b.bytes()), offs[0], ends, n);
  }
}
