package dev.javelin.cli;

import io.airlift.compress.Compressor;
import io.airlift.compress.Decompressor;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.snappy.SnappyCompressor;
import io.airlift.compress.snappy.SnappyDecompressor;
import io.airlift.compress.zstd.ZstdCompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Parquet's page codecs in pure Java (aircompressor, java.util.zip), in place of parquet-java's
 * own factory, which reaches for Hadoop's codec classes and JNI libraries: Snappy, ZSTD, LZ4_RAW
 * and GZIP. LZO, the Hadoop-framed LZ4 and Brotli are refused by name.
 */
final class ParquetCodecs implements CompressionCodecFactory {
  @Override
  public BytesInputCompressor getCompressor(CompressionCodecName codec) {
    switch (codec) {
      case UNCOMPRESSED:
        return new Block(codec, null);
      case SNAPPY:
        return new Block(codec, new SnappyCompressor());
      case ZSTD:
        return new Block(codec, new ZstdCompressor());
      case LZ4_RAW:
        return new Block(codec, new Lz4Compressor());
      case GZIP:
        return new Gzip();
      default:
        throw unsupported(codec);
    }
  }

  @Override
  public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
    switch (codec) {
      case UNCOMPRESSED:
        return new BlockDecompressor(null);
      case SNAPPY:
        return new BlockDecompressor(new SnappyDecompressor());
      case ZSTD:
        return new BlockDecompressor(new ZstdDecompressor());
      case LZ4_RAW:
        return new BlockDecompressor(new Lz4Decompressor());
      case GZIP:
        return new GzipDecompressor();
      default:
        throw unsupported(codec);
    }
  }

  private static InvalidInputException unsupported(CompressionCodecName codec) {
    return new InvalidInputException("Parquet pages compressed with " + codec
        + " are not supported (Javelin reads UNCOMPRESSED, SNAPPY, ZSTD, LZ4_RAW and GZIP)");
  }

  @Override
  public void release() {}

  /** A codec that compresses a whole page at once, as Parquet frames Snappy, ZSTD and LZ4_RAW. */
  private static final class Block implements BytesInputCompressor {
    private final CompressionCodecName name;
    private final Compressor compressor;

    Block(CompressionCodecName name, Compressor compressor) {
      this.name = name;
      this.compressor = compressor;
    }

    @Override
    public BytesInput compress(BytesInput bytes) throws IOException {
      if (compressor == null) {
        return bytes;
      }
      byte[] in = bytes.toByteArray();
      byte[] out = new byte[compressor.maxCompressedLength(in.length)];
      int n = compressor.compress(in, 0, in.length, out, 0, out.length);
      return BytesInput.from(Arrays.copyOf(out, n));
    }

    @Override
    public CompressionCodecName getCodecName() {
      return name;
    }

    @Override
    public void release() {}
  }

  private static final class BlockDecompressor implements BytesInputDecompressor {
    private final Decompressor decompressor;

    BlockDecompressor(Decompressor decompressor) {
      this.decompressor = decompressor;
    }

    @Override
    public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
      if (decompressor == null) {
        return bytes;
      }
      byte[] in = bytes.toByteArray();
      byte[] out = new byte[uncompressedSize];
      int n = decompressor.decompress(in, 0, in.length, out, 0, out.length);
      if (n != uncompressedSize) {
        throw new IOException("A Parquet page decompressed to " + n + " bytes, not the " + uncompressedSize
            + " its header says");
      }
      return BytesInput.from(out);
    }

    @Override
    public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
        throws IOException {
      byte[] in = new byte[compressedSize];
      input.get(in);
      output.put(decompress(BytesInput.from(in), uncompressedSize).toByteArray());
    }

    @Override
    public void release() {}
  }

  private static final class Gzip implements BytesInputCompressor {
    @Override
    public BytesInput compress(BytesInput bytes) throws IOException {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
        bytes.writeAllTo(gz);
      }
      return BytesInput.from(out.toByteArray());
    }

    @Override
    public CompressionCodecName getCodecName() {
      return CompressionCodecName.GZIP;
    }

    @Override
    public void release() {}
  }

  private static final class GzipDecompressor implements BytesInputDecompressor {
    @Override
    public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
      try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
        byte[] out = in.readNBytes(uncompressedSize);
        if (out.length != uncompressedSize) {
          throw new IOException("A GZIP Parquet page decompressed to " + out.length + " bytes, not the "
              + uncompressedSize + " its header says");
        }
        return BytesInput.from(out);
      }
    }

    @Override
    public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
        throws IOException {
      byte[] in = new byte[compressedSize];
      input.get(in);
      output.put(decompress(BytesInput.from(in), uncompressedSize).toByteArray());
    }

    @Override
    public void release() {}
  }
}
