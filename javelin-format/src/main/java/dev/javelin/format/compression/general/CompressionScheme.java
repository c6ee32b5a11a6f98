package dev.javelin.format.compression.general;

import java.util.Locale;

/**
 * A general-purpose compression scheme Lance applies to whole buffers or single values.
 *
 * <p>In 2.1 files the scheme is {@code lance.encodings21.CompressionScheme} inside
 * {@code BufferCompression} ({@link #protoNumber()}); in 2.0 files it is the string
 * {@code lance.encodings.Compression.scheme} ({@link #lanceName()}).
 */
public enum CompressionScheme {
  LZ4(1, "lz4"),
  ZSTD(2, "zstd");

  private final int protoNumber;
  private final String lanceName;

  CompressionScheme(int protoNumber, String lanceName) {
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
  public static CompressionScheme fromProtoNumber(int number) {
    for (CompressionScheme s : values()) {
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
  public static CompressionScheme fromLanceName(String name) {
    for (CompressionScheme s : values()) {
      if (s.lanceName.equals(name.toLowerCase(Locale.ROOT))) {
        return s;
      }
    }
    throw new IllegalArgumentException("Unknown general compression scheme '" + name + "'");
  }
}
