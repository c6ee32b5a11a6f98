package dev.javelin.format.internal.v21;

import dev.javelin.format.internal.compression.bitpack.MiniBlockChunks;
import dev.javelin.format.internal.encoding.ByteBuilder;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;

/** The chunks a {@code bitpack} codec produced, with the encoding that describes them. */
final class CodecChunks implements ChunkedValues {
  private final MiniBlockChunks chunks;
  private final CompressiveEncoding encoding;

  CodecChunks(MiniBlockChunks chunks, CompressiveEncoding encoding) {
    this.chunks = chunks;
    this.encoding = encoding;
  }

  @Override
  public CompressiveEncoding encoding() {
    return encoding;
  }

  @Override
  public int numBuffers() {
    return chunks.numBuffers();
  }

  @Override
  public int numChunks() {
    return chunks.numChunks();
  }

  @Override
  public int chunkValues(int c) {
    return (int) chunks.chunkNumValues(c);
  }

  @Override
  public int bufferSize(int c, int b) {
    return chunks.chunkBufferSize(c, b);
  }

  @Override
  public void writeBuffer(int c, int b, ByteBuilder out) {
    out.append(chunks.buffer(b), chunks.chunkBufferOffset(c, b), chunks.chunkBufferSize(c, b));
  }

  /** The total size of the values, for choosing between encodings. */
  long totalBytes() {
    long s = 0;
    for (int b = 0; b < chunks.numBuffers(); b++) {
      s += chunks.buffer(b).length;
    }
    return s;
  }
}
