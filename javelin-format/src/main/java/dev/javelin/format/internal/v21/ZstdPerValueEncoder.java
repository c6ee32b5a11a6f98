package dev.javelin.format.internal.v21;

import dev.javelin.format.internal.compression.general.GeneralCodec;
import dev.javelin.format.internal.encoding.ByteBuilder;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;

/**
 * Large variable-width values in a full-zip page, each compressed on its own with zstd
 * ({@code General{zstd, Variable}}): a value is its stored length, then Lance's zstd framing
 * (u64 uncompressed length, one frame). lance-core 7.0.0 does this when a page's longest value is
 * over 32 KiB. Compresses into one reused scratch buffer.
 */
final class ZstdPerValueEncoder implements PerValueEncoder {
  /** Values longer than this make Lance compress each value. */
  static final int MIN_MAX_LENGTH = 32 * 1024;
  private final VarValues values;
  private final int w;
  private final GeneralCodec codec = GeneralCodec.zstd();
  private byte[] scratch = new byte[0];

  ZstdPerValueEncoder(VarValues values) {
    this.values = values;
    this.w = values.offsetBytes;
  }

  @Override
  public CompressiveEncoding encoding() {
    return CompressionProtos.zstd(Protos21.variable(w * 8));
  }

  @Override
  public boolean isVariable() {
    return true;
  }

  @Override
  public int bits() {
    return w * 8;
  }

  @Override
  public void write(int index, ByteBuilder out) {
    int len = values.length(index);
    int max = codec.maxCompressedLength(len);
    if (scratch.length < max) {
      scratch = new byte[Math.max(max, scratch.length * 2)];
    }
    int n = codec.compress(values.data(), (int) values.start(index), len, scratch, 0);
    out.appendUnsigned(n, w);
    out.append(scratch, 0, n);
  }
}
