package dev.javelin.format.internal.v21;

import dev.javelin.format.internal.compression.fsst.BinaryValues;
import dev.javelin.format.internal.compression.fsst.FsstDecoder;
import java.nio.ByteBuffer;

/**
 * Reads {@code Fsst} over {@code Variable}: the compressed values are laid out as Variable lays
 * them out (in a mini-block chunk: n + 1 offsets from the buffer's start, then the bytes; in a
 * full-zip page: one value's codes), and each expands through the page's symbol table
 * ({@link FsstDecoder}). A code expands to at most 8 bytes, which bounds the output.
 *
 * <p>A chunk decodes straight into the output's byte array and end offsets (no copy after the
 * decode): room for its worst case is made first, which keeps the hot loop free of size checks.
 */
final class FsstDecompressor implements MiniBlockDecompressor, VariablePerValueDecompressor {
  /**
   * Chunks larger than this (only format 2.2's large chunks can be) decode through a builder
   * that measures values near its bound instead of reserving 8 bytes per compressed byte.
   */
  private static final int DIRECT_CHUNK_BYTES = 1 << 22;

  private final FsstDecoder decoder;
  private final int offsetBits;
  /**
   * For values decoded one by one and for huge chunks: reused (cleared first) so its arrays grow
   * once; the values are copied out before the next decode.
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
    VarValues v = (VarValues) out;
    if (!chunk.hasArray() || size > DIRECT_CHUNK_BYTES) {
      BinaryValues.Builder b = scratch(numValues, 3 * size);
      decoder.decode(chunk, offsetBits, numValues, chunk, b);
      append(b, v);
      return;
    }
    int pos = (int) v.dataSize();
    v.reserveDirect(numValues, FsstDecoder.worstCaseBytes(size));
    int end = decoder.decodeChunk(chunk.array(), chunk.arrayOffset(), size, offsetBits, numValues, v.data(), pos,
        v.endsArray(), v.count());
    v.commit(numValues, end);
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
