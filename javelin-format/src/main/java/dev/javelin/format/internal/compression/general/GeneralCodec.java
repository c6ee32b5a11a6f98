package dev.javelin.format.internal.compression.general;

import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.zstd.ZstdCompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import io.airlift.compress.zstd.ZstdInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;

/**
 * Compresses and decompresses one buffer with ZSTD or LZ4, framed the way Lance frames it (its
 * {@code BufferCompressor}s). The same framing is used for a whole buffer (a mini-block chunk's
 * first buffer, a block) and for each value of a full-zip page ({@code General} per value).
 *
 * <ul>
 *   <li>ZSTD: {@code u64 LE decompressed length}, then one ZSTD frame. An empty buffer decodes
 *       to nothing. For files from older writers Lance also accepts a bare ZSTD stream with no
 *       length: a buffer counts as bare when it is shorter than 8 bytes, or starts with the ZSTD
 *       magic {@code 28 B5 2F FD} and its fifth byte has bit 4 clear. This codec decides the
 *       same way.
 *   <li>LZ4: {@code u32 LE decompressed length}, then one raw LZ4 block (no LZ4 frame).
 * </ul>
 *
 * <p>Lance writes ZSTD at level 0, which is zstd's default level 3; aircompressor's compressor
 * has that level built in. Every decompression takes a bound on the output size and fails with
 * an {@link IllegalArgumentException} before allocating past it; malformed input is an
 * {@link IllegalArgumentException} too.
 *
 * <p>Instances are not thread-safe (the underlying compressors keep state); they are cheap,
 * so make one per thread.
 */
public final class GeneralCodec {
  /**
   * A general-purpose compression scheme Lance applies to whole buffers or single values.
   *
   * <p>In 2.1 files the scheme is {@code lance.encodings21.CompressionScheme} inside
   * {@code BufferCompression} ({@link #protoNumber()}); in 2.0 files it is the string
   * {@code lance.encodings.Compression.scheme} ({@link #lanceName()}).
   */
  public enum Scheme {
    LZ4(1, "lz4"),
    ZSTD(2, "zstd");

    private final int protoNumber;
    private final String lanceName;

    Scheme(int protoNumber, String lanceName) {
      this.protoNumber = protoNumber;
      this.lanceName = lanceName;
    }

    /** The value of {@code lance.encodings21.CompressionScheme} for this scheme. */
    public int protoNumber() {
      return protoNumber;
    }

    /** The name Lance uses in 2.0 descriptions and in field metadata. */
    public String lanceName() {
      return lanceName;
    }

    /**
     * The scheme with the given {@code lance.encodings21.CompressionScheme} number.
     *
     * @throws IllegalArgumentException for 0 (unspecified) and unknown numbers
     */
    public static Scheme fromProtoNumber(int number) {
      for (Scheme s : values()) {
        if (s.protoNumber == number) {
          return s;
        }
      }
      throw new IllegalArgumentException("Unknown general compression scheme number " + number);
    }

    /**
     * The scheme with the given Lance name ("zstd", "lz4").
     *
     * @throws IllegalArgumentException for other names, "none" and "fsst" included
     */
    public static Scheme fromLanceName(String name) {
      for (Scheme s : values()) {
        if (s.lanceName.equals(name.toLowerCase(Locale.ROOT))) {
          return s;
        }
      }
      throw new IllegalArgumentException("Unknown general compression scheme '" + name + "'");
    }
  }

  private static final int ZSTD_MAGIC = 0xFD2FB528;
  private static final int ZSTD_PREFIX = 8;
  private static final int LZ4_PREFIX = 4;
  private static final int MAX_ARRAY = Integer.MAX_VALUE - 16;

  private final Scheme scheme;
  private ZstdCompressor zstdCompressor;
  private ZstdDecompressor zstdDecompressor;
  private Lz4Compressor lz4Compressor;
  private Lz4Decompressor lz4Decompressor;

  private GeneralCodec(Scheme scheme) {
    this.scheme = scheme;
  }

  public static GeneralCodec of(Scheme scheme) {
    return new GeneralCodec(scheme);
  }

  public static GeneralCodec zstd() {
    return new GeneralCodec(Scheme.ZSTD);
  }

  public static GeneralCodec lz4() {
    return new GeneralCodec(Scheme.LZ4);
  }

  public Scheme scheme() {
    return scheme;
  }

  /** The most bytes {@link #compress} can produce for {@code length} input bytes, framing included. */
  public int maxCompressedLength(int length) {
    if (length < 0) {
      throw new IllegalArgumentException("Negative length " + length);
    }
    long max = scheme == Scheme.ZSTD
        ? ZSTD_PREFIX + (long) zstdCompressor().maxCompressedLength(length)
        : LZ4_PREFIX + (long) lz4Compressor().maxCompressedLength(length);
    if (max > MAX_ARRAY) {
      throw new IllegalArgumentException("Cannot compress " + length + " bytes in one buffer");
    }
    return (int) max;
  }

  /** Compresses {@code src[off, off + len)} into a new, exactly sized array. */
  public byte[] compress(byte[] src, int off, int len) {
    byte[] out = new byte[maxCompressedLength(len)];
    int n = compress(src, off, len, out, 0);
    return Arrays.copyOf(out, n);
  }

  /**
   * Compresses {@code src[off, off + len)} into {@code dst} at {@code dstOff}, which must have
   * room for {@link #maxCompressedLength(int)} bytes. Returns the number of bytes written.
   */
  public int compress(byte[] src, int off, int len, byte[] dst, int dstOff) {
    checkRange(src, off, len, "input");
    int max = maxCompressedLength(len);
    checkRange(dst, dstOff, max, "output");
    if (scheme == Scheme.ZSTD) {
      putLongLe(dst, dstOff, len);
      return ZSTD_PREFIX + zstdCompressor().compress(src, off, len, dst, dstOff + ZSTD_PREFIX, max - ZSTD_PREFIX);
    }
    putIntLe(dst, dstOff, len);
    return LZ4_PREFIX + lz4Compressor().compress(src, off, len, dst, dstOff + LZ4_PREFIX, max - LZ4_PREFIX);
  }

  /**
   * The decompressed length a compressed buffer declares in its framing, or -1 if it declares
   * none (a bare ZSTD stream). The value is not checked against the data.
   */
  public long declaredLength(byte[] src, int off, int len) {
    checkRange(src, off, len, "input");
    if (scheme == Scheme.ZSTD) {
      if (len == 0) {
        return 0;
      }
      return isBareZstd(src, off, len) ? -1 : getLongLe(src, off);
    }
    return len < LZ4_PREFIX ? -1 : Integer.toUnsignedLong(getIntLe(src, off));
  }

  /** Decompresses the buffer's remaining bytes (its position is not moved); see {@link #decompress(byte[], int, int, int)}. */
  public byte[] decompress(ByteBuffer src, int maxLength) {
    if (src.hasArray()) {
      return decompress(src.array(), src.arrayOffset() + src.position(), src.remaining(), maxLength);
    }
    byte[] copy = new byte[src.remaining()];
    src.duplicate().get(copy);
    return decompress(copy, 0, copy.length, maxLength);
  }

  /**
   * Decompresses {@code src[off, off + len)} into a new array of exactly the decompressed length.
   *
   * @param maxLength the most bytes the output may have
   * @throws IllegalArgumentException if the input is malformed, or declares or holds more than
   *     {@code maxLength} bytes
   */
  public byte[] decompress(byte[] src, int off, int len, int maxLength) {
    checkRange(src, off, len, "input");
    long declared = declaredLength(src, off, len);
    if (declared < 0 && scheme == Scheme.ZSTD) {
      return bareZstd(src, off, len, maxLength);
    }
    byte[] out = new byte[checkDeclared(declared, len, maxLength)];
    decompressInto(src, off, len, out, 0, out.length);
    return out;
  }

  /**
   * Decompresses {@code src[off, off + len)} into {@code dst} at {@code dstOff}, writing at most
   * {@code maxLength} bytes, and returns the number written.
   *
   * @throws IllegalArgumentException if the input is malformed or holds more than
   *     {@code maxLength} bytes, or {@code dst} is too small for {@code maxLength}
   */
  public int decompress(byte[] src, int off, int len, byte[] dst, int dstOff, int maxLength) {
    checkRange(src, off, len, "input");
    checkRange(dst, dstOff, maxLength, "output");
    long declared = declaredLength(src, off, len);
    if (declared < 0 && scheme == Scheme.ZSTD) {
      return bareZstdInto(src, off, len, dst, dstOff, maxLength);
    }
    int n = checkDeclared(declared, len, maxLength);
    decompressInto(src, off, len, dst, dstOff, n);
    return n;
  }

  private int checkDeclared(long declared, int len, int maxLength) {
    if (declared < 0) {
      throw new IllegalArgumentException(scheme + " buffer of " + len + " bytes is too short for its "
          + LZ4_PREFIX + "-byte length prefix");
    }
    if (declared > maxLength || declared > MAX_ARRAY) {
      throw new IllegalArgumentException(scheme + " buffer declares " + Long.toUnsignedString(declared)
          + " decompressed bytes, more than the bound of " + maxLength);
    }
    return (int) declared;
  }

  /** Decompresses a length-prefixed buffer whose declared length {@code n} was checked. */
  private void decompressInto(byte[] src, int off, int len, byte[] dst, int dstOff, int n) {
    if (scheme == Scheme.ZSTD && len == 0) {
      return;
    }
    int prefix = scheme == Scheme.ZSTD ? ZSTD_PREFIX : LZ4_PREFIX;
    int got;
    try {
      got = scheme == Scheme.ZSTD
          ? zstdDecompressor().decompress(src, off + prefix, len - prefix, dst, dstOff, n)
          : lz4Decompressor().decompress(src, off + prefix, len - prefix, dst, dstOff, n);
    } catch (RuntimeException e) {
      // aircompressor reports bad input as MalformedInputException, and sometimes as other
      // runtime exceptions; all of them mean the same thing here.
      throw new IllegalArgumentException("Malformed " + scheme + " buffer of " + len + " bytes declaring "
          + n + " decompressed bytes: " + e.getMessage(), e);
    }
    if (got != n) {
      throw new IllegalArgumentException(scheme + " buffer declares " + n + " decompressed bytes but holds " + got);
    }
  }

  /** Decompresses a ZSTD stream with no length prefix into a new, exactly sized array. */
  private byte[] bareZstd(byte[] src, int off, int len, int maxLength) {
    byte[] out = new byte[(int) Math.min(maxLength, Math.min(4L * len + 64, 1 << 24))];
    int n = 0;
    try (ZstdInputStream in = openBareZstd(src, off, len)) {
      while (true) {
        if (n == out.length) {
          if (n == maxLength) {
            checkEnd(in, maxLength);
            break;
          }
          out = Arrays.copyOf(out, (int) Math.min(maxLength, 2L * n));
        }
        int r = readSome(in, out, n, out.length - n);
        if (r < 0) {
          break;
        }
        n += r;
      }
    } catch (IOException | RuntimeException e) {
      throw malformedStream(len, e);
    }
    return n == out.length ? out : Arrays.copyOf(out, n);
  }

  /** Decompresses a ZSTD stream with no length prefix into {@code dst}; returns the length. */
  private int bareZstdInto(byte[] src, int off, int len, byte[] dst, int dstOff, int maxLength) {
    int n = 0;
    try (ZstdInputStream in = openBareZstd(src, off, len)) {
      while (true) {
        if (n == maxLength) {
          checkEnd(in, maxLength);
          break;
        }
        int r = readSome(in, dst, dstOff + n, maxLength - n);
        if (r < 0) {
          break;
        }
        n += r;
      }
    } catch (IOException | RuntimeException e) {
      throw malformedStream(len, e);
    }
    return n;
  }

  private static ZstdInputStream openBareZstd(byte[] src, int off, int len) {
    if (len < ZSTD_PREFIX) {
      throw new IllegalArgumentException("ZSTD buffer of " + len + " bytes is too short to hold a frame");
    }
    return new ZstdInputStream(new ByteArrayInputStream(src, off, len));
  }

  /** Reads at least one byte ({@code len > 0}) or returns -1 at the end; never spins. */
  private static int readSome(ZstdInputStream in, byte[] b, int off, int len) throws IOException {
    for (int tries = 0; tries < 1024; tries++) {
      int r = in.read(b, off, len);
      if (r != 0) {
        return r;
      }
    }
    throw new IOException("ZSTD stream makes no progress");
  }

  private static void checkEnd(ZstdInputStream in, int maxLength) throws IOException {
    if (in.read() >= 0) {
      throw new IllegalArgumentException("ZSTD stream holds more than the bound of " + maxLength + " bytes");
    }
  }

  private static IllegalArgumentException malformedStream(int len, Exception e) {
    if (e instanceof IllegalArgumentException iae) {
      return iae;
    }
    return new IllegalArgumentException("Malformed ZSTD stream of " + len + " bytes: " + e.getMessage(), e);
  }

  private static boolean isBareZstd(byte[] src, int off, int len) {
    if (len < ZSTD_PREFIX) {
      return true;
    }
    // Lance checks the bit it calls reserved (0x10) in the frame header descriptor; a length
    // prefix that happens to start with the magic (a value of over 4 GiB) would have it set.
    return getIntLe(src, off) == ZSTD_MAGIC && (src[off + 4] & 0x10) == 0;
  }

  private ZstdCompressor zstdCompressor() {
    if (zstdCompressor == null) {
      zstdCompressor = new ZstdCompressor();
    }
    return zstdCompressor;
  }

  private ZstdDecompressor zstdDecompressor() {
    if (zstdDecompressor == null) {
      zstdDecompressor = new ZstdDecompressor();
    }
    return zstdDecompressor;
  }

  private Lz4Compressor lz4Compressor() {
    if (lz4Compressor == null) {
      lz4Compressor = new Lz4Compressor();
    }
    return lz4Compressor;
  }

  private Lz4Decompressor lz4Decompressor() {
    if (lz4Decompressor == null) {
      lz4Decompressor = new Lz4Decompressor();
    }
    return lz4Decompressor;
  }

  private static void checkRange(byte[] a, int off, int len, String what) {
    if (off < 0 || len < 0 || off > a.length - len) {
      throw new IllegalArgumentException("Bad " + what + " range: offset " + off + ", length " + len
          + ", array of " + a.length);
    }
  }

  private static void putLongLe(byte[] a, int off, long v) {
    for (int i = 0; i < 8; i++) {
      a[off + i] = (byte) (v >>> (8 * i));
    }
  }

  private static void putIntLe(byte[] a, int off, int v) {
    for (int i = 0; i < 4; i++) {
      a[off + i] = (byte) (v >>> (8 * i));
    }
  }

  private static long getLongLe(byte[] a, int off) {
    long v = 0;
    for (int i = 7; i >= 0; i--) {
      v = v << 8 | (a[off + i] & 0xFF);
    }
    return v;
  }

  private static int getIntLe(byte[] a, int off) {
    return (a[off] & 0xFF) | (a[off + 1] & 0xFF) << 8 | (a[off + 2] & 0xFF) << 16 | (a[off + 3] & 0xFF) << 24;
  }
}
