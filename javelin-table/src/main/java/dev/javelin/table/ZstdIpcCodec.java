package dev.javelin.table;

import io.airlift.compress.zstd.ZstdCompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.compression.AbstractCompressionCodec;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.NoCompressionCodec;

/**
 * Arrow IPC buffer compression with ZSTD over aircompressor (pure Java), so deletion files written
 * by Lance (ZSTD body compression) can be read without arrow-compression's native zstd-jni.
 * {@link AbstractCompressionCodec} handles the framing: an 8-byte little-endian uncompressed
 * length (-1 for a buffer stored uncompressed), then the zstd frame.
 */
public final class ZstdIpcCodec extends AbstractCompressionCodec {
  /** A factory that knows ZSTD and no compression; LZ4 frames are refused by name. */
  public static final CompressionCodec.Factory FACTORY = new CompressionCodec.Factory() {
    @Override
    public CompressionCodec createCodec(CompressionUtil.CodecType type) {
      switch (type) {
        case NO_COMPRESSION:
          return NoCompressionCodec.INSTANCE;
        case ZSTD:
          return new ZstdIpcCodec();
        default:
          throw new IllegalArgumentException("Arrow IPC compression " + type + " is not supported");
      }
    }

    @Override
    public CompressionCodec createCodec(CompressionUtil.CodecType type, int level) {
      return createCodec(type);
    }
  };

  @Override
  protected ArrowBuf doCompress(BufferAllocator allocator, ArrowBuf uncompressed) {
    byte[] in = new byte[(int) uncompressed.writerIndex()];
    uncompressed.getBytes(0, in);
    ZstdCompressor zstd = new ZstdCompressor();
    byte[] out = new byte[zstd.maxCompressedLength(in.length)];
    int n = zstd.compress(in, 0, in.length, out, 0, out.length);
    ArrowBuf buf = allocator.buffer(CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH + n);
    buf.setBytes(CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH, out, 0, n);
    buf.writerIndex(CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH + n);
    return buf;
  }

  @Override
  protected ArrowBuf doDecompress(BufferAllocator allocator, ArrowBuf compressed) {
    long expected = readUncompressedLength(compressed);
    if (expected < 0 || expected > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("Bad uncompressed length in an Arrow IPC buffer: " + expected);
    }
    int from = (int) CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH;
    byte[] in = new byte[(int) compressed.writerIndex() - from];
    compressed.getBytes(from, in);
    byte[] out = new byte[(int) expected];
    int n = new ZstdDecompressor().decompress(in, 0, in.length, out, 0, out.length);
    if (n != expected) {
      throw new IllegalArgumentException("ZSTD buffer decompressed to " + n + " bytes, expected " + expected);
    }
    ArrowBuf buf = allocator.buffer(expected);
    buf.setBytes(0, out);
    buf.writerIndex(expected);
    return buf;
  }

  @Override
  public CompressionUtil.CodecType getCodecType() {
    return CompressionUtil.CodecType.ZSTD;
  }
}
