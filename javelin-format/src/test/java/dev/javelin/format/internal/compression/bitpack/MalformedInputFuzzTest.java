package dev.javelin.format.internal.compression.bitpack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Arbitrary bytes, counts and widths fed to every decoder: each call either decodes or throws
 * {@link IllegalArgumentException}, never anything else (no index errors, negative sizes, huge
 * allocations or hangs). The interesting extremes (0, 1024, 1025, MAX_VALUE, negative counts; bad
 * widths) are drawn explicitly, so jqwik's own edge cases are off.
 */
class MalformedInputFuzzTest {
  @Provide
  Arbitrary<byte[]> bytes() {
    return Arbitraries.bytes().array(byte[].class).ofMaxSize(3000);
  }

  @Provide
  Arbitrary<Integer> counts() {
    return Arbitraries.oneOf(Arbitraries.integers().between(-3, 5000),
        Arbitraries.of(0, 1, 1023, 1024, 1025, Integer.MAX_VALUE, Integer.MIN_VALUE));
  }

  @Provide
  Arbitrary<Integer> valueBits() {
    return Arbitraries.of(8, 16, 32, 64, 0, 7, 128, -8);
  }

  private static void decodesOrRejects(Runnable r) {
    try {
      r.run();
    } catch (IllegalArgumentException expected) {
      assertThat(expected.getMessage()).isNotBlank();
    }
  }

  private static ByteBuffer out(int size) {
    return ByteBuffer.allocate(Math.max(0, Math.min(size, 1 << 16)));
  }

  @Property(edgeCases = EdgeCasesMode.NONE, tries = 400)
  void inlineChunks(@ForAll("bytes") byte[] data, @ForAll("counts") int n, @ForAll("valueBits") int bits,
      @ForAll @IntRange(min = 0, max = 70000) int room) {
    decodesOrRejects(() -> InlineBitpackingCodec.decodeChunk(ByteBuffer.wrap(data), n, bits, out(room)));
  }

  @Property(edgeCases = EdgeCasesMode.NONE, tries = 400)
  void inlineChunksWithAPlausibleHeader(@ForAll @IntRange(min = 0, max = 3) int lane,
      @ForAll @IntRange(min = -1, max = 70) int width, @ForAll @IntRange(min = -2, max = 2) int sizeError,
      @ForAll @IntRange(min = 0, max = 1030) int n) {
    int bits = 8 << lane;
    int size = Math.max(0, (1 + 1024 / bits * Math.max(0, width)) * bits / 8 + sizeError);
    ByteBuffer chunk = ByteBuffer.allocate(size).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    if (size >= bits / 8) {
      switch (bits) {
        case 8: chunk.put(0, (byte) width); break;
        case 16: chunk.putShort(0, (short) width); break;
        case 32: chunk.putInt(0, width); break;
        default: chunk.putLong(0, width); break;
      }
    }
    decodesOrRejects(() -> InlineBitpackingCodec.decodeChunk(chunk, n, bits, out(8 * 1024)));
  }

  @Property(edgeCases = EdgeCasesMode.NONE, tries = 400)
  void outOfLineBuffers(@ForAll("bytes") byte[] data, @ForAll("counts") int n, @ForAll("valueBits") int bits,
      @ForAll @IntRange(min = -2, max = 70) int width, @ForAll @IntRange(min = 0, max = 70000) int room) {
    decodesOrRejects(() -> OutOfLineBitpackingCodec.decode(ByteBuffer.wrap(data), n, width, bits, out(room)));
  }

  @Property(edgeCases = EdgeCasesMode.NONE, tries = 400)
  void rleBuffers(@ForAll("bytes") byte[] values, @ForAll("bytes") byte[] lengths, @ForAll("counts") int n,
      @ForAll("valueBits") int bits, @ForAll @IntRange(min = 0, max = 70000) int room) {
    decodesOrRejects(() -> RleCodec.decode(ByteBuffer.wrap(values), ByteBuffer.wrap(lengths), n, bits, out(room)));
  }

  @Property(edgeCases = EdgeCasesMode.NONE, tries = 200)
  void rleWithConsistentRunCounts(@ForAll @IntRange(min = 0, max = 300) int runs, @ForAll("counts") int n,
      @ForAll @IntRange(min = 0, max = 3) int lane, @ForAll long seed) {
    int bytes = 1 << lane;
    byte[] values = new byte[runs * bytes];
    byte[] lengths = new byte[runs];
    SplittableRandom rnd = new SplittableRandom(seed);
    rnd.nextBytes(values);
    rnd.nextBytes(lengths);
    decodesOrRejects(() -> RleCodec.decode(ByteBuffer.wrap(values), ByteBuffer.wrap(lengths), n, bytes * 8,
        out(n * bytes)));
  }

  @Property(edgeCases = EdgeCasesMode.NONE, tries = 300)
  void byteStreamSplitChunks(@ForAll("bytes") byte[] data, @ForAll("counts") int n, @ForAll("valueBits") int bits,
      @ForAll @IntRange(min = 0, max = 70000) int room) {
    decodesOrRejects(() -> ByteStreamSplitCodec.decodeChunk(ByteBuffer.wrap(data), n, bits, out(room)));
  }

  @Property(edgeCases = EdgeCasesMode.NONE, tries = 200)
  void constants(@ForAll("bytes") byte[] value, @ForAll("counts") int n,
      @ForAll @IntRange(min = 0, max = 70000) int room) {
    decodesOrRejects(() -> ConstantCodec.decode(value, n, out(room)));
  }

  @Property(edgeCases = EdgeCasesMode.NONE, tries = 200)
  void corruptedValidChunksStillDecodeOrAreRejected(@ForAll @IntRange(min = 0, max = 3) int lane,
      @ForAll @IntRange(min = 1, max = 2000) int n, @ForAll long seed) {
    Lane l = Lane.values()[lane];
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] v = l.random(rnd, n, rnd.nextInt(l.bits + 1));
    MiniBlockChunks inline = l.encodeInline(v);
    byte[] chunk = java.util.Arrays.copyOf(inline.buffer(0), inline.chunkBufferSize(0, 0));
    chunk[rnd.nextInt(chunk.length)] = (byte) rnd.nextInt();
    byte[] corrupt = chunk;
    int count = (int) inline.chunkNumValues(0);
    decodesOrRejects(() -> InlineBitpackingCodec.decodeChunk(ByteBuffer.wrap(corrupt), count, l.bits,
        ByteBuffer.allocate(count * l.bytes())));

    MiniBlockChunks rle = l.encodeRle(v);
    byte[] lengths = java.util.Arrays.copyOf(rle.buffer(1), rle.chunkBufferSize(0, 1));
    lengths[rnd.nextInt(lengths.length)] = (byte) rnd.nextInt();
    int rleCount = (int) rle.chunkNumValues(0);
    decodesOrRejects(() -> RleCodec.decode(Lane.slice(rle, 0, 0), ByteBuffer.wrap(lengths), rleCount, l.bits,
        ByteBuffer.allocate(rleCount * l.bytes())));
  }
}
