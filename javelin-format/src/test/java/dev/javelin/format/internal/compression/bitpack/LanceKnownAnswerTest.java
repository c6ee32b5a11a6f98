package dev.javelin.format.internal.compression.bitpack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * Bytes written by the real Lance (lance-core 7.0.0, {@code LanceFileWriter} with file version 2.1 and
 * default settings unless noted), taken out of the mini-block chunks of its files: whole buffers as
 * hex where they are small, SHA-256 digests of the concatenated chunk buffers otherwise. The data is
 * defined by the formulas below, so each case re-encodes it with our codecs, compares the bytes, and
 * decodes Lance's bytes back.
 */
class LanceKnownAnswerTest {
  private static final HexFormat HEX = HexFormat.of();

  static long hash(int i) {
    long x = (i + 1) * 0x9E3779B97F4A7C15L;
    x ^= x >>> 29;
    x *= 0xBF58476D1CE4E5B9L;
    x ^= x >>> 32;
    return x & Long.MAX_VALUE;
  }

  /** Runs of 1..maxLen values, lengths and values from {@link #hash}. */
  static long[] shortRuns(int n, int maxLen, long mask) {
    long[] v = new long[n];
    int i = 0;
    for (int k = 0; i < n; k++) {
      int len = 1 + (int) (hash(100000 + k) % maxLen);
      long value = hash(200000 + k) & mask;
      for (int j = 0; j < len && i < n; j++) {
        v[i++] = value;
      }
    }
    return v;
  }

  static boolean isNull(int i) {
    return i % 3 == 1 || (i > 4000 && i % 5 == 0);
  }

  static String sha256(byte[] bytes) {
    try {
      return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  static String sha256(ByteBuffer b) {
    byte[] bytes = new byte[b.remaining()];
    b.duplicate().get(bytes);
    return sha256(bytes);
  }

  static long[] values(int n, java.util.function.IntToLongFunction f) {
    long[] v = new long[n];
    for (int i = 0; i < n; i++) {
      v[i] = f.applyAsLong(i);
    }
    return v;
  }

  static void assertChunkLayout(MiniBlockChunks m, int[] logs, int[][] sizes) {
    assertThat(m.numChunks()).isEqualTo(logs.length);
    for (int c = 0; c < logs.length; c++) {
      assertThat(m.chunkLogNumValues(c)).as("chunk %d log", c).isEqualTo(logs[c]);
      for (int b = 0; b < sizes[c].length; b++) {
        assertThat(m.chunkBufferSize(c, b)).as("chunk %d buffer %d size", c, b).isEqualTo(sizes[c][b]);
      }
    }
  }

  // ---------------------------------------------------------------- inline bitpacking

  @Test
  void inlineBitpackingOf32BitZerosAndOnes() {
    // 1100 values i % 2: chunk 0 (1024 values) and a last chunk of 76 values padded to a block.
    long[] v = values(1100, i -> i % 2);
    MiniBlockChunks m = Lane.U32.encodeInline(v);
    assertChunkLayout(m, new int[] {10, 0}, new int[][] {{132}, {132}});
    String lastChunk = "010000000000000001010100000000000101010000000000010101000000000001010100"
        + "000000000101010000000000010101000000000001000100000000000100010000000000"
        + "010001000000000001000100000000000100010000000000010001000000000001000100"
        + "000000000100010000000000010001000000000001000100";
    assertThat(HEX.formatHex(m.buffer(0), 132, 264)).isEqualTo(lastChunk);
    assertThat(sha256(m.buffer(0))).isEqualTo("5d7f3c21c3985a47cf9eddc12dd1afa687154309632f521ea693c84877002d7a");
    assertThat(Lane.U32.decodeInlineChunk(ByteBuffer.wrap(HEX.parseHex(lastChunk)), 76))
        .isEqualTo(values(76, i -> i % 2));
  }

  @Test
  void inlineBitpackingOf8BitValues() {
    MiniBlockChunks m = Lane.U8.encodeInline(values(1100, i -> i % 3));
    assertChunkLayout(m, new int[] {10, 0}, new int[][] {{257}, {257}});
    assertThat(sha256(m.buffer(0))).isEqualTo("a881c1e068c6b22694b2371439a802212703a5aad00ccb17019172f0083a261c");
    assertThat(sha256(Lane.slice(m, 1, 0)))
        .isEqualTo("b39f9590d769c14b13e00d2d6ce63266da8b945511e29d299b83d852e36a3873");

    m = Lane.U8.encodeInline(values(3000, i -> hash(i) % 50));
    assertChunkLayout(m, new int[] {10, 10, 0}, new int[][] {{769}, {769}, {769}});
    assertThat(sha256(m.buffer(0))).isEqualTo("6783655bf753e1102b92142f1eefeecc7a9e2e3bfddee725079a5d1000906f0d");
  }

  @Test
  void inlineBitpackingWithGrowingWidths() {
    // 0..4095: chunks packed at 10, 11, 12 and 12 bits.
    MiniBlockChunks m = Lane.U32.encodeInline(values(4096, i -> i));
    assertChunkLayout(m, new int[] {10, 10, 10, 0}, new int[][] {{1284}, {1412}, {1540}, {1540}});
    assertThat(sha256(m.buffer(0))).isEqualTo("fa53639ddaf89a551af3e75f621fc14c59d85b05e710b79765cc7da35e9b3763");
  }

  @Test
  void inlineBitpackingOf16And64BitValues() {
    MiniBlockChunks m16 = Lane.U16.encodeInline(values(3000, i -> hash(i) % 300));
    assertChunkLayout(m16, new int[] {10, 10, 0}, new int[][] {{1154}, {1154}, {1154}});
    assertThat(sha256(m16.buffer(0))).isEqualTo("bc94612080e43d9ecc7ab5d55b43d030c1a846a6a3ff485de8504c8025495be3");
    MiniBlockChunks m64 = Lane.U64.encodeInline(values(3000, i -> hash(i) % 100000));
    assertChunkLayout(m64, new int[] {10, 10, 0}, new int[][] {{2184}, {2184}, {2184}});
    assertThat(sha256(m64.buffer(0))).isEqualTo("b3a165df07b42fc24c3073cf865a5370a117a92e9948ad615a2993db58c73098");
  }

  @Test
  void inlineBitpackingOfANullableColumnKeepsZerosForNulls() {
    MiniBlockChunks m = Lane.U32.encodeInline(values(6000, i -> isNull(i) ? 0 : i % 1000));
    assertThat(sha256(m.buffer(0))).isEqualTo("2592759fe4da44d798ebbd09abc7db52e44264f4259d59f3fd1aa5bd3ef59925");
  }

  // ---------------------------------------------------------------- definition levels (block compression)

  static short[] defLevels(int from, int n) {
    short[] d = new short[n];
    for (int i = 0; i < n; i++) {
      d[i] = (short) (isNull(from + i) ? 1 : 0);
    }
    return d;
  }

  @Test
  void outOfLineDefinitionLevelsWithARawTail() {
    // A 1074-row nullable column: def levels OutOfLineBitpacking(16 -> 1 bit), compressed per chunk.
    // The last chunk's 50 levels cost less raw (50 words) than padded (64 words).
    String rawTail = "010000000000010000000000010000000000010000000000010000000000010000000000"
        + "010000000000010000000000010000000000010000000000010000000000010000000000"
        + "01000000000001000000000001000000000001000000000001000000";
    short[] levels = defLevels(1024, 50);
    assertThat(HEX.formatHex(OutOfLineBitpackingCodec.encode(levels, 0, 50, 1))).isEqualTo(rawTail);
    short[] back = new short[50];
    OutOfLineBitpackingCodec.decode(ByteBuffer.wrap(HEX.parseHex(rawTail)), 50, 1, back, 0);
    assertThat(back).isEqualTo(levels);
    assertThat(sha256(OutOfLineBitpackingCodec.encode(defLevels(0, 1024), 0, 1024, 1)))
        .isEqualTo("0909b7db3ecc4bbd51f761d2c724fdd9263fe5e29f09f5402f4fb4fe934f16f3");
  }

  @Test
  void outOfLineDefinitionLevelsWithAPackedTail() {
    // The last chunk of a 6000-row column holds 880 levels: padding to a block (64 words) wins.
    byte[] packed = OutOfLineBitpackingCodec.encode(defLevels(5120, 880), 0, 880, 1);
    assertThat(packed).hasSize(128);
    assertThat(sha256(packed)).isEqualTo("2d36e71d1271194b99a6feee72d3b417af61aae66accaa590ade4dc518a3ce3e");
  }

  @Test
  void inlineDefinitionLevelsForSmallPages() {
    // A 1000-row page has at most 1024 levels: InlineBitpacking(16), a u16 width word then one block.
    MiniBlockChunks m = InlineBitpackingCodec.encode(defLevels(0, 1000), 0, 1000);
    assertThat(m.buffer(0)).hasSize(130);
    assertThat(m.buffer(0)[0]).isEqualTo((byte) 1);
    assertThat(m.buffer(0)[1]).isZero();
    assertThat(sha256(m.buffer(0))).isEqualTo("718522de86c70b186f6575d25a7deea628a6f45f1ce8cfbb4c20337632f73217");
  }

  // ---------------------------------------------------------------- RLE

  @Test
  void rleOf8BitRunsLongerThan255() {
    MiniBlockChunks m = Lane.U8.encodeRle(values(5000, i -> (i / 300) % 100));
    assertChunkLayout(m, new int[] {12, 0}, new int[][] {{27, 27}, {6, 6}});
    assertThat(HEX.formatHex(m.buffer(0))).isEqualTo("00000101020203030404050506060707080809090a0a0b0b0c0c0d" + "0d0e0e0f0f10");
    assertThat(HEX.formatHex(m.buffer(1))).isEqualTo("ff2dff2dff2dff2dff2dff2dff2dff2dff2dff2dff2dff2dff2dc4" + "68ff2dff2dc8");
    byte[] out = new byte[904];
    RleCodec.decode(ByteBuffer.wrap(HEX.parseHex("0d0e0e0f0f10")), ByteBuffer.wrap(HEX.parseHex("68ff2dff2dc8")),
        904, out, 0);
    for (int i = 0; i < 904; i++) {
      assertThat(out[i]).isEqualTo((byte) (((4096 + i) / 300) % 100));
    }
  }

  @Test
  void rleOf32BitRunsCutAt4096() {
    MiniBlockChunks m = Lane.U32.encodeRle(values(5000, i -> i / 50));
    assertChunkLayout(m, new int[] {12, 0}, new int[][] {{328, 82}, {76, 19}});
    assertThat(sha256(m.buffer(0))).isEqualTo("6f3b92ecb75a3f3ee3e2b60e26c38ad3245df851f914e514a200e7b274cbf0e2");
    assertThat(sha256(m.buffer(1))).isEqualTo("9db9470993be51d1e8ed1e969720d5760580862c4f65232dfc298e1e62a2fa02");
    assertThat(sha256(Lane.slice(m, 1, 0)))
        .isEqualTo("101a994a35551ee9b9cdb9b93e0d13315f08e3a72a14eada0db90a1e7d5f9092");
    assertThat(sha256(Lane.slice(m, 1, 1)))
        .isEqualTo("0170c0413ca61d5efd8c5f77f57fcc13065529595ef2d4827efed3de1e8af264");
  }

  @Test
  void rleChunksLimitedByBytesFallBackToCheckpoints() {
    // Written with field metadata lance-encoding:rle-threshold=0.9 so short runs still get RLE.
    MiniBlockChunks m64 = Lane.U64.encodeRle(shortRuns(6000, 3, -1L));
    assertChunkLayout(m64, new int[] {10, 10, 10, 10, 10, 0},
        new int[][] {{4056, 507}, {4104, 513}, {4088, 511}, {4184, 523}, {4088, 511}, {3488, 436}});
    assertThat(sha256(m64.buffer(0))).isEqualTo("b077356680c6571d980fa3a6874b099d87e91aeac07abb476fb783d62d0ae8b9");
    assertThat(sha256(m64.buffer(1))).isEqualTo("1c4cd1edc6a8b524ef5532ddd97d05d1f9d5d4f593e51174960a7c3900310df8");
    assertThat(RleCodecTest.decodeAll(Lane.U64, m64)).isEqualTo(shortRuns(6000, 3, -1L));

    MiniBlockChunks m32 = Lane.U32.encodeRle(shortRuns(6000, 3, 0xFFFFFFFFL));
    assertChunkLayout(m32, new int[] {11, 11, 0}, new int[][] {{4076, 1019}, {4132, 1033}, {3788, 947}});
    assertThat(sha256(m32.buffer(0))).isEqualTo("5ca80e79d8a42eb1ebdd26c4a25984c7054266a392f71892101d519613c109cf");
    assertThat(sha256(m32.buffer(1))).isEqualTo("169e75264d33fafd840aa871f328778b2b94deb2aeff25df876af245ef4981b6");
  }

  // ---------------------------------------------------------------- byte stream split

  @Test
  void byteStreamSplitOfFloats() {
    // Written with lance-encoding:bss=on and compression=zstd; under 4 KiB, so Lance left it unwrapped.
    ByteBuffer raw = ByteBuffer.allocate(4000).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 1000; i++) {
      raw.putFloat(20f + (i % 100) * 0.25f);
    }
    MiniBlockChunks m = ByteStreamSplitCodec.encode(raw.array(), 0, 1000, 32);
    assertChunkLayout(m, new int[] {0}, new int[][] {{4000}});
    assertThat(sha256(m.buffer(0))).isEqualTo("e44da754f3a3d02eb84acffea46681f200e8edffb1508e634004f9bcbb6f0870");
  }
}
