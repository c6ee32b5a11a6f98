package dev.javelin.format.internal.compression.general;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.format.internal.compression.general.GeneralCodec.Scheme;
import io.airlift.compress.zstd.ZstdOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class GeneralCodecTest {
  /**
   * A full-zip value lance-core 7.0.0 wrote with General ZSTD (level 0): 40 KiB of "0123456789"
   * repeated, as the u64 length followed by a ZSTD frame.
   */
  private static final String LANCE_ZSTD_VALUE =
      "00a000000000000028b52ffd60009f95000050303132333435363738390100f39fea0509";

  /**
   * The first mini-block chunk buffer lance-core 7.0.0 wrote for a string column with
   * {@code lance-encoding:compression=lz4}: u32 length, then an LZ4 block holding the Variable
   * buffer of 16 values (17 u32 offsets from 68, then value i = 196 × 'a' + "%04d" of i).
   */
  private static final String LANCE_LZ4_CHUNK = "c40c0000ff37440000000c010000d40100009c020000640300002c040000"
      + "f4040000bc050000840600004c07000014080000dc080000a40900006c0a0000340b0000fc0b0000c40c000061610200af4f"
      + "30303030c600af01c800103108000f0200ad4f30303032c400ad000200403030303308000f0200ad4f30303034c400ad0002"
      + "00403030303508000f0200ad4f30303036c400ad000200403030303708000f0200ad4f30303038c400ad00020040303030"
      + "3908000f0200ad3f303031d007b41f31d007b41f31d007b41f31d007b41f31d007b1506130303135";

  private static byte[] hex(String s) {
    return HexFormat.of().parseHex(s);
  }

  private static byte[] digits(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) ('0' + i % 10);
    }
    return b;
  }

  private static List<byte[]> samples() {
    Random r = new Random(1);
    byte[] noise = new byte[100_000];
    r.nextBytes(noise);
    byte[] text = "the quick brown fox jumps over the lazy dog; ".repeat(25_000).getBytes(StandardCharsets.US_ASCII);
    return List.of(new byte[0], new byte[] {42}, digits(1000), text, noise);
  }

  @Test
  void decodesLancesZstdValue() {
    byte[] lance = hex(LANCE_ZSTD_VALUE);
    GeneralCodec zstd = GeneralCodec.zstd();
    assertThat(zstd.declaredLength(lance, 0, lance.length)).isEqualTo(40960);
    assertThat(zstd.decompress(lance, 0, lance.length, 40960)).isEqualTo(digits(40960));
  }

  @Test
  void decodesLancesLz4Chunk() {
    byte[] lance = hex(LANCE_LZ4_CHUNK);
    ByteBuffer expected = ByteBuffer.allocate(68 + 16 * 200).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i <= 16; i++) {
      expected.putInt(68 + 200 * i);
    }
    for (int i = 0; i < 16; i++) {
      byte[] v = new byte[200];
      Arrays.fill(v, (byte) 'a');
      System.arraycopy(String.format("%04d", i).getBytes(StandardCharsets.US_ASCII), 0, v, 196, 4);
      expected.put(v);
    }
    GeneralCodec lz4 = GeneralCodec.lz4();
    assertThat(lz4.declaredLength(lance, 0, lance.length)).isEqualTo(3268);
    assertThat(lz4.decompress(lance, 0, lance.length, 1 << 20)).isEqualTo(expected.array());
  }

  @Test
  void roundTripsWithLancesFraming() {
    for (Scheme scheme : Scheme.values()) {
      GeneralCodec codec = GeneralCodec.of(scheme);
      for (byte[] in : samples()) {
        byte[] c = codec.compress(in, 0, in.length);
        ByteBuffer b = ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN);
        if (scheme == Scheme.ZSTD) {
          assertThat(b.getLong(0)).isEqualTo(in.length);
          assertThat(b.getInt(8)).isEqualTo(0xFD2FB528); // then a ZSTD frame
        } else {
          assertThat(b.getInt(0)).isEqualTo(in.length);
        }
        assertThat(codec.declaredLength(c, 0, c.length)).isEqualTo(in.length);
        assertThat(codec.decompress(c, 0, c.length, in.length)).isEqualTo(in);
        assertThat(codec.decompress(ByteBuffer.wrap(c).asReadOnlyBuffer(), in.length)).isEqualTo(in);
      }
    }
  }

  @Test
  void compressesRepetitiveData() {
    byte[] text = samples().get(3);
    assertThat(GeneralCodec.zstd().compress(text, 0, text.length).length).isLessThan(text.length / 100);
    assertThat(GeneralCodec.lz4().compress(text, 0, text.length).length).isLessThan(text.length / 50);
  }

  @Test
  void worksOnArraySlices() {
    byte[] in = digits(5000);
    GeneralCodec codec = GeneralCodec.zstd();
    byte[] dst = new byte[codec.maxCompressedLength(1000) + 20];
    int n = codec.compress(in, 100, 1000, dst, 7);
    byte[] out = new byte[1010];
    assertThat(codec.decompress(dst, 7, n, out, 5, 1000)).isEqualTo(1000);
    assertThat(Arrays.copyOfRange(out, 5, 1005)).isEqualTo(Arrays.copyOfRange(in, 100, 1100));
  }

  @Test
  void emptyZstdBufferIsAnEmptyValue() {
    // Lance decodes a zero-length ZSTD buffer to nothing.
    assertThat(GeneralCodec.zstd().decompress(new byte[0], 0, 0, 0)).isEmpty();
    assertThatThrownBy(() -> GeneralCodec.lz4().decompress(new byte[0], 0, 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("LZ4 buffer of 0 bytes is too short for its 4-byte length prefix");
  }

  @Test
  void readsBareZstdStreams() throws IOException {
    GeneralCodec zstd = GeneralCodec.zstd();
    byte[] in = samples().get(3);
    byte[] framed = zstd.compress(in, 0, in.length);
    byte[] bare = Arrays.copyOfRange(framed, 8, framed.length);
    assertThat(zstd.declaredLength(bare, 0, bare.length)).isEqualTo(-1);
    assertThat(zstd.decompress(bare, 0, bare.length, in.length)).isEqualTo(in);
    // Several frames in a row decode to their concatenation, as with zstd's own stream decoder.
    byte[] twice = new byte[2 * bare.length];
    System.arraycopy(bare, 0, twice, 0, bare.length);
    System.arraycopy(bare, 0, twice, bare.length, bare.length);
    byte[] both = zstd.decompress(twice, 0, twice.length, 2 * in.length);
    assertThat(Arrays.copyOfRange(both, 0, in.length)).isEqualTo(in);
    assertThat(Arrays.copyOfRange(both, in.length, both.length)).isEqualTo(in);

    // A streamed frame that does not state its size, as older Lance writers made.
    ByteArrayOutputStream streamed = new ByteArrayOutputStream();
    try (ZstdOutputStream out = new ZstdOutputStream(streamed)) {
      out.write(in);
    }
    byte[] s = streamed.toByteArray();
    assertThat(zstd.decompress(s, 0, s.length, in.length)).isEqualTo(in);
    byte[] into = new byte[in.length];
    assertThat(zstd.decompress(s, 0, s.length, into, 0, in.length)).isEqualTo(in.length);
    assertThat(into).isEqualTo(in);
    assertThatThrownBy(() -> zstd.decompress(s, 0, s.length, in.length - 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ZSTD stream holds more than the bound of " + (in.length - 1) + " bytes");
  }

  @Test
  void refusesToAllocatePastTheBound() {
    byte[] lance = hex(LANCE_ZSTD_VALUE);
    assertThatThrownBy(() -> GeneralCodec.zstd().decompress(lance, 0, lance.length, 40959))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ZSTD buffer declares 40960 decompressed bytes, more than the bound of 40959");
    byte[] huge = lance.clone();
    huge[7] = (byte) 0x7F; // declares about 9 EB
    assertThatThrownBy(() -> GeneralCodec.zstd().decompress(huge, 0, huge.length, Integer.MAX_VALUE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("ZSTD buffer declares 9151314442816888832 decompressed bytes");
    byte[] lz4 = hex(LANCE_LZ4_CHUNK);
    lz4[3] = (byte) 0xFF;
    assertThatThrownBy(() -> GeneralCodec.lz4().decompress(lz4, 0, lz4.length, 1 << 30))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("LZ4 buffer declares 4278193348 decompressed bytes, more than the bound of 1073741824");
  }

  @Test
  void rejectsLengthsThatDisagreeWithTheData() {
    byte[] in = digits(500);
    for (Scheme scheme : Scheme.values()) {
      GeneralCodec codec = GeneralCodec.of(scheme);
      byte[] c = codec.compress(in, 0, in.length);
      c[1] = 0x02; // 500 (0x1F4) -> 756
      assertThatThrownBy(() -> codec.decompress(c, 0, c.length, 1000))
          .as(scheme.toString())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(scheme + " buffer declares 756 decompressed bytes but holds 500");
      c[1] = 0x01;
      c[0] = 0x00; // -> 256
      assertThatThrownBy(() -> codec.decompress(c, 0, c.length, 1000))
          .as(scheme.toString())
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void rejectsDamagedInputWithIllegalArgumentOnly() {
    Random r = new Random(2);
    for (Scheme scheme : Scheme.values()) {
      GeneralCodec codec = GeneralCodec.of(scheme);
      for (byte[] in : samples()) {
        byte[] good = codec.compress(in, 0, Math.min(in.length, 20_000));
        for (int trial = 0; trial < 300; trial++) {
          byte[] bad = trial % 3 == 0
              ? Arrays.copyOf(good, r.nextInt(good.length + 1))
              : flip(good, r, 1 + r.nextInt(3));
          try {
            byte[] out = codec.decompress(bad, 0, bad.length, 40_000);
            assertThat(out.length).isLessThanOrEqualTo(40_000);
          } catch (IllegalArgumentException expected) {
            // fine: anything else fails the test
          }
        }
      }
    }
  }

  private static byte[] flip(byte[] good, Random r, int n) {
    byte[] b = good.clone();
    for (int i = 0; i < n && b.length > 0; i++) {
      b[r.nextInt(b.length)] ^= (byte) (1 + r.nextInt(255));
    }
    return b;
  }

  @Test
  void checksRanges() {
    GeneralCodec codec = GeneralCodec.zstd();
    assertThatThrownBy(() -> codec.compress(new byte[4], 2, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Bad input range: offset 2, length 3, array of 4");
    byte[] c = codec.compress(new byte[100], 0, 100);
    assertThatThrownBy(() -> codec.decompress(c, 0, c.length, new byte[50], 0, 100))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Bad output range: offset 0, length 100, array of 50");
  }

  @Test
  void mapsSchemesLikeLance() {
    assertThat(Scheme.fromProtoNumber(1)).isEqualTo(Scheme.LZ4);
    assertThat(Scheme.fromProtoNumber(2)).isEqualTo(Scheme.ZSTD);
    assertThat(Scheme.fromLanceName("zstd")).isEqualTo(Scheme.ZSTD);
    assertThat(Scheme.fromLanceName("LZ4")).isEqualTo(Scheme.LZ4);
    assertThat(Scheme.ZSTD.protoNumber()).isEqualTo(2);
    assertThat(Scheme.LZ4.lanceName()).isEqualTo("lz4");
    assertThatThrownBy(() -> Scheme.fromProtoNumber(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Unknown general compression scheme number 0");
    assertThatThrownBy(() -> Scheme.fromLanceName("fsst"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Unknown general compression scheme 'fsst'");
  }
}
