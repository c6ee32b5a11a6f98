package dev.javelin.format.internal.v21;

import dev.javelin.format.exceptions.BadDataException;
import dev.javelin.format.exceptions.UnsupportedEncodingException;
import dev.javelin.format.internal.compression.general.GeneralCodec;
import dev.javelin.format.proto.Encodings21.BufferCompression;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Decompresses buffers framed the way Lance's {@code General} encoding and {@code BufferCompression}
 * frame them ({@link GeneralCodec}), bounding the output so that a corrupt length field cannot make
 * the reader allocate more than the compressed bytes could possibly expand to.
 *
 * <p>The bounds: an LZ4 block expands at most about 255 times; a ZSTD frame at most 32768 times
 * (a 128 KiB block needs at least 4 bytes). For ZSTD the declared length must also agree with the
 * content size the frame header records, when it records one.
 */
final class GeneralBuffers {
  private static final long ZSTD_RATIO = 32768;
  private static final long LZ4_RATIO = 256;
  private static final int MAX_ARRAY = Integer.MAX_VALUE - 64;

  private GeneralBuffers() {}

  /** The scheme of a buffer compression description. */
  static GeneralCodec.Scheme scheme(BufferCompression c) {
    try {
      return GeneralCodec.Scheme.fromProtoNumber(c.getSchemeValue());
    } catch (IllegalArgumentException e) {
      throw new UnsupportedEncodingException("general compression scheme " + c.getScheme() + " is not supported");
    }
  }

  /**
   * Decompresses {@code src} (position to limit) into a new array of exactly the decompressed
   * length, which must not exceed {@code cap}.
   *
   * @throws BadDataException if the buffer is malformed or declares too many bytes
   */
  static byte[] decompress(GeneralCodec.Scheme scheme, ByteBuffer src, long cap) {
    int len = src.remaining();
    byte[] bytes;
    int off;
    if (src.hasArray()) {
      bytes = src.array();
      off = src.arrayOffset() + src.position();
    } else {
      bytes = new byte[len];
      src.duplicate().get(bytes);
      off = 0;
    }
    long ratio = scheme == GeneralCodec.Scheme.ZSTD ? ZSTD_RATIO : LZ4_RATIO;
    long bound = Math.min(Math.min(cap, MAX_ARRAY), len * ratio + 1024);
    if (scheme == GeneralCodec.Scheme.ZSTD) {
      checkZstdContentSize(bytes, off, len);
    }
    try {
      return GeneralCodec.of(scheme).decompress(bytes, off, len, (int) bound);
    } catch (IllegalArgumentException e) {
      throw new BadDataException(scheme + "-compressed buffer of " + len + " bytes: " + e.getMessage());
    }
  }

  /** Refuses a length prefix that disagrees with the frame's own content size. */
  private static void checkZstdContentSize(byte[] b, int off, int len) {
    if (len < 8 + 6) {
      return;
    }
    ByteBuffer bb = ByteBuffer.wrap(b, off, len).order(ByteOrder.LITTLE_ENDIAN);
    if (bb.getInt(off + 8) != 0xFD2FB528) {
      return; // a bare stream or garbage; the codec decides
    }
    long declared = bb.getLong(off);
    int fhd = b[off + 12] & 0xFF;
    int fcsFlag = fhd >>> 6;
    boolean single = (fhd & 0x20) != 0;
    int dictBytes = new int[] {0, 1, 2, 4}[fhd & 3];
    int fcsBytes = fcsFlag == 0 ? (single ? 1 : 0) : 1 << fcsFlag;
    int at = off + 13 + (single ? 0 : 1) + dictBytes;
    if (fcsBytes == 0 || at + fcsBytes > off + len) {
      return;
    }
    long size;
    switch (fcsBytes) {
      case 1:
        size = b[at] & 0xFFL;
        break;
      case 2:
        size = (bb.getShort(at) & 0xFFFFL) + 256;
        break;
      case 4:
        size = bb.getInt(at) & 0xFFFFFFFFL;
        break;
      default:
        size = bb.getLong(at);
    }
    if (size != declared) {
      throw new BadDataException("ZSTD buffer declares " + Long.toUnsignedString(declared)
          + " bytes but its frame holds " + Long.toUnsignedString(size));
    }
  }
}
