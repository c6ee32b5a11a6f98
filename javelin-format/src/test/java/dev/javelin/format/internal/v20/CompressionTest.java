package dev.javelin.format.internal.v20;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.airlift.compress.Compressor;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.zstd.ZstdCompressor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The zstd and lz4 framings Lance 2.0 uses for compressed string bytes. */
class CompressionTest {
  private static final byte[] TEXT =
      "value number 1 value number 2 value number 3 value number 4 value number 5".repeat(20)
          .getBytes(StandardCharsets.UTF_8);

  private static byte[] compress(Compressor c, byte[] in) {
    byte[] out = new byte[c.maxCompressedLength(in.length)];
    int n = c.compress(in, 0, in.length, out, 0, out.length);
    return Arrays.copyOf(out, n);
  }

  private static byte[] prefixed(int prefixBytes, long length, byte[] body) {
    ByteBuffer b = ByteBuffer.allocate(prefixBytes + body.length).order(ByteOrder.LITTLE_ENDIAN);
    if (prefixBytes == 8) {
      b.putLong(length);
    } else {
      b.putInt((int) length);
    }
    return b.put(body).array();
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  @Test
  void zstdWithAndWithoutTheLengthPrefix() {
    byte[] frame = compress(new ZstdCompressor(), TEXT);
    assertThat(bytes(Compression.decompress("zstd", ByteBuffer.wrap(frame), TEXT.length))).isEqualTo(TEXT);
    byte[] lance = prefixed(8, TEXT.length, frame);
    assertThat(bytes(Compression.decompress("zstd", ByteBuffer.wrap(lance), TEXT.length))).isEqualTo(TEXT);
  }

  @Test
  void lz4WithItsLengthPrefix() {
    byte[] lance = prefixed(4, TEXT.length, compress(new Lz4Compressor(), TEXT));
    assertThat(bytes(Compression.decompress("lz4", ByteBuffer.wrap(lance), TEXT.length))).isEqualTo(TEXT);
  }

  @Test
  void emptyInputIsEmpty() {
    assertThat(Compression.decompress("zstd", ByteBuffer.allocate(0), 0).remaining()).isZero();
  }

  @Test
  void wrongLengthsAndGarbageAreRejected() {
    byte[] frame = compress(new ZstdCompressor(), TEXT);
    assertThatThrownBy(() -> Compression.decompress("zstd", ByteBuffer.wrap(prefixed(8, 5, frame)), TEXT.length))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected");
    assertThatThrownBy(() -> Compression.decompress("zstd", ByteBuffer.wrap(frame), TEXT.length - 1))
        .isInstanceOf(IllegalArgumentException.class);
    byte[] lz4 = prefixed(4, TEXT.length, compress(new Lz4Compressor(), TEXT));
    assertThatThrownBy(() -> Compression.decompress("lz4", ByteBuffer.wrap(lz4), TEXT.length + 10))
        .isInstanceOf(IllegalArgumentException.class);
    byte[] garbage = prefixed(8, TEXT.length, new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9});
    assertThatThrownBy(() -> Compression.decompress("zstd", ByteBuffer.wrap(garbage), TEXT.length))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Compression.decompress("lz4", ByteBuffer.wrap(new byte[] {1, 2}), 3))
        .isInstanceOf(IllegalArgumentException.class);
    for (int i = 0; i < lz4.length; i++) {
      byte[] flipped = lz4.clone();
      flipped[i] ^= (byte) 0xFF;
      try {
        Compression.decompress("lz4", ByteBuffer.wrap(flipped), TEXT.length);
      } catch (IllegalArgumentException expected) {
        // Either outcome is fine; anything else escapes and fails the test.
      }
    }
  }
}
