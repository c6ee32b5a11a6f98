package dev.javelin.format.internal.v20;

import dev.javelin.format.proto.Encodings20.Flat;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Locale;

/**
 * The general-purpose compression Lance 2.0 applies to a string page's bytes when a field asks
 * for it ({@code lance-encoding:compression} = zstd or lz4): zstd as an 8-byte little-endian
 * uncompressed length then a zstd frame (older files: the frame alone), lz4 as a 4-byte length
 * then an lz4 block.
 */
final class Compression {
  private static final int ZSTD_MAGIC = 0xFD2FB528;

  private Compression() {}

  /** The scheme of a Flat buffer ("zstd", "lz4", ...), or null if it is not compressed. */
  static String scheme(Flat flat) {
    if (!flat.hasCompression()) {
      return null;
    }
    String s = flat.getCompression().getScheme();
    return s.isEmpty() || s.equalsIgnoreCase("none") ? null : s.toLowerCase(Locale.ROOT);
  }

  static boolean supported(String scheme) {
    return scheme.equals("zstd") || scheme.equals("lz4");
  }

  /**
   * Decompresses a buffer that must expand to exactly {@code expected} bytes.
   *
   * @throws IllegalArgumentException if it is malformed or expands to another size
   */
  static ByteBuffer decompress(String scheme, ByteBuffer compressed, int expected) {
    byte[] in = new byte[compressed.remaining()];
    compressed.duplicate().get(in);
    byte[] out = new byte[expected];
    int n;
    try {
      if (in.length == 0) {
        n = 0;
      } else if (scheme.equals("zstd")) {
        int from = 0;
        if (!isRawZstdFrame(in)) {
          long length = ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN).getLong(0);
          checkLength(length, expected);
          from = 8;
        }
        n = new ZstdDecompressor().decompress(in, from, in.length - from, out, 0, expected);
      } else {
        if (in.length < 4) {
          throw new IllegalArgumentException("lz4 data of " + in.length + " bytes has no length");
        }
        checkLength(Integer.toUnsignedLong(ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN).getInt(0)), expected);
        n = new Lz4Decompressor().decompress(in, 4, in.length - 4, out, 0, expected);
      }
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (RuntimeException e) {
      // The decompressors report bad input with assorted unchecked exceptions.
      throw new IllegalArgumentException(scheme + " data is malformed: " + e.getMessage(), e);
    }
    if (n != expected) {
      throw new IllegalArgumentException(scheme + " data expands to " + n + " bytes, expected " + expected);
    }
    return ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static void checkLength(long length, int expected) {
    if (length != expected) {
      throw new IllegalArgumentException("compressed data says it holds " + Long.toUnsignedString(length)
          + " bytes, expected " + expected);
    }
  }

  // A zstd frame starts with the magic and has the reserved bit of its header descriptor clear;
  // otherwise the buffer starts with Lance's length prefix (which may happen to match the magic).
  private static boolean isRawZstdFrame(byte[] in) {
    if (in.length < 8) {
      return true;
    }
    int magic = ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
    return magic == ZSTD_MAGIC && (in[4] & 0x10) == 0;
  }
}
