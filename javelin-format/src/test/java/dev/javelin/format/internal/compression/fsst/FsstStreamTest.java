package dev.javelin.format.internal.compression.fsst;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * The fast paths of compression and chunk decoding: the bytes the encoder produces are pinned to
 * what it produced before they were tuned (so lance-core reads them as it did), and the one-stream
 * chunk decoder agrees with the value-by-value decoder, errors included.
 */
class FsstStreamTest {

  /** Values like CompactionBenchmark's {@code name} column: "user-" and a number. */
  private static BinaryValues userNames(int n, long first) {
    byte[][] v = new byte[n][];
    for (int i = 0; i < n; i++) {
      v[i] = ("user-" + ((first + i) * 7919 % 1_000_003)).getBytes(UTF_8);
    }
    return BinaryValues.of(v);
  }

  /** Short words, some followed by a random byte, so there are escapes. */
  private static BinaryValues words(int n, long seed) {
    String[] w = {"the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "lance", "javelin", "column",
        "page", "http://", "www.", ".com", "user", "name", "score", "alpha", "beta", "gamma"};
    Random r = new Random(seed);
    byte[][] v = new byte[n][];
    for (int i = 0; i < n; i++) {
      ByteArrayOutputStream o = new ByteArrayOutputStream();
      for (int k = r.nextInt(6); k > 0; k--) {
        o.writeBytes(w[r.nextInt(w.length)].getBytes(UTF_8));
        if (r.nextInt(3) == 0) {
          o.write(r.nextInt(256));
        }
        o.write(' ');
      }
      v[i] = o.toByteArray();
    }
    return BinaryValues.of(v);
  }

  /** SHA-256 (first 8 bytes, hex) of the serialized table, the compressed bytes and their offsets. */
  private static String digest(BinaryValues values) throws Exception {
    FsstEncoder e = FsstEncoder.train(values);
    BinaryValues c = e.compress(values);
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    md.update(e.table().serialize());
    md.update(c.bytes(), 0, c.dataLength());
    for (int i = 0; i <= c.count(); i++) {
      int o = c.offsets()[i];
      md.update(new byte[] {(byte) o, (byte) (o >> 8), (byte) (o >> 16)});
    }
    return HexFormat.of().formatHex(md.digest()).substring(0, 16);
  }

  @Test
  void encodesExactlyAsBeforeTheFastPaths() throws Exception {
    // Digests taken with the encoder as of fe656dc (before match/compress were reworked): the
    // symbol table and compressed bytes must not change, since lance-core was checked on them.
    assertThat(digest(userNames(250_000, 0))).isEqualTo("d009fe42e9465333");
    assertThat(digest(userNames(3000, 0))).isEqualTo("d38b08ee58ba39f7");
    assertThat(digest(words(100_000, 1))).isEqualTo("02d8edf469d926ae");
    assertThat(digest(words(2000, 2))).isEqualTo("2359d3120b04f0bd");
  }

  /** Value sets that stress the encoder: empty, long, every byte value, runs, escapes, array tails. */
  @Provide
  Arbitrary<List<byte[]>> adversarial() {
    Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(40);
    Arbitrary<byte[]> allBytes = Arbitraries.integers().between(0, 255).map(s -> {
      byte[] b = new byte[256];
      for (int i = 0; i < 256; i++) {
        b[i] = (byte) (i + s);
      }
      return b;
    });
    Arbitrary<byte[]> runs = Arbitraries.integers().between(0, 3000).flatMap(len -> Arbitraries.bytes()
        .map(b -> {
          byte[] v = new byte[len];
          Arrays.fill(v, b);
          return v;
        }));
    Arbitrary<byte[]> text = Arbitraries.strings().withChars("user-0123456789 ab\u00e9\u00ff").ofMaxLength(30)
        .map(s -> s.getBytes(UTF_8));
    Arbitrary<byte[]> one = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(4, text), net.jqwik.api.Tuple.of(3, random), net.jqwik.api.Tuple.of(1, allBytes),
        net.jqwik.api.Tuple.of(1, runs), net.jqwik.api.Tuple.of(1, Arbitraries.just(new byte[0])));
    return one.list().ofMaxSize(300);
  }

  /** Trains on one part, compresses all, decodes as mini-block chunks of at most chunkValues values. */
  @Property(tries = 150)
  void roundTripsThroughChunks(@ForAll("adversarial") List<byte[]> values,
      @ForAll @IntRange(min = 1, max = 64) int chunkValues, @ForAll boolean trainOnHalf) {
    BinaryValues all = BinaryValues.of(values.toArray(new byte[0][]));
    BinaryValues training = trainOnHalf
        ? BinaryValues.of(values.subList(0, values.size() / 2).toArray(new byte[0][])) : all;
    FsstEncoder encoder = FsstEncoder.train(training);
    BinaryValues c = encoder.compress(all);
    FsstDecoder decoder = new FsstDecoder(FsstSymbolTable.parse(encoder.table().serialize()));
    List<byte[]> decoded = new ArrayList<>();
    for (int from = 0; from < c.count(); from += chunkValues) {
      int to = Math.min(c.count(), from + chunkValues);
      byte[][] part = new byte[to - from][];
      for (int i = from; i < to; i++) {
        part[i - from] = c.value(i);
      }
      decoded.addAll(decodeChunk(decoder, chunk(part), part.length));
    }
    assertThat(decoded).hasSize(values.size());
    for (int i = 0; i < values.size(); i++) {
      assertThat(decoded.get(i)).as("value %d", i).isEqualTo(values.get(i));
    }
  }

  /** On random tables and codes, chunk decoding and builder decoding give the same values or the same error. */
  @Property(tries = 300)
  void chunkDecodeFailsLikeBuilderDecode(@ForAll @Size(max = 255) List<@Size(min = 1, max = 8) byte[]> symbols,
      @ForAll @Size(max = 40) List<@Size(max = 20) byte[]> values, @ForAll @IntRange(min = 0, max = 63) int bias) {
    FsstDecoder d = new FsstDecoder(FsstSymbolTable.of(symbols.toArray(new byte[0][])));
    byte[][] vals = values.stream().map(v -> {
      byte[] c = v.clone();
      for (int i = 0; i < c.length; i++) {
        int code = c[i] & 0xFF;
        if (code != 255 && !symbols.isEmpty() && (code + bias) % 64 != 0) {
          c[i] = (byte) (code % symbols.size());
        }
      }
      return c;
    }).toArray(byte[][]::new);
    ByteBuffer c = chunk(vals);
    String expected;
    try {
      BinaryValues v = d.decode(c, 32, vals.length, c, Integer.MAX_VALUE);
      StringBuilder s = new StringBuilder();
      for (int i = 0; i < v.count(); i++) {
        s.append(HexFormat.of().formatHex(v.value(i))).append('|');
      }
      expected = s.toString();
    } catch (IllegalArgumentException e) {
      expected = e.getMessage();
    }
    String actual;
    try {
      StringBuilder s = new StringBuilder();
      for (byte[] v : decodeChunk(d, c, vals.length)) {
        s.append(HexFormat.of().formatHex(v)).append('|');
      }
      actual = s.toString();
    } catch (IllegalArgumentException e) {
      actual = e.getMessage();
    }
    assertThat(actual).isEqualTo(expected);
  }

  /** A mini-block chunk: n + 1 u32 offsets from the chunk's start, then the values' codes. */
  private static ByteBuffer chunk(byte[]... values) {
    int header = 4 * (values.length + 1);
    int size = header + Arrays.stream(values).mapToInt(v -> v.length).sum();
    ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    int at = header;
    b.putInt(at);
    for (byte[] v : values) {
      at += v.length;
      b.putInt(at);
    }
    for (byte[] v : values) {
      b.put(v);
    }
    return b.flip();
  }

  /** decodeChunk at an odd place in a larger array, with junk around it. */
  private static List<byte[]> decodeChunk(FsstDecoder d, ByteBuffer c, int n) {
    byte[] src = new byte[c.remaining() + 9];
    Arrays.fill(src, (byte) 0xAB);
    c.duplicate().get(src, 5, c.remaining());
    byte[] dst = new byte[(int) FsstDecoder.worstCaseBytes(c.remaining()) + 20];
    long[] ends = new long[n + 3];
    int pos = 11;
    int end = d.decodeChunk(src, 5, c.remaining(), 32, n, dst, pos, ends, 3);
    List<byte[]> out = new ArrayList<>();
    long from = pos;
    for (int i = 0; i < n; i++) {
      out.add(Arrays.copyOfRange(dst, (int) from, (int) ends[3 + i]));
      from = ends[3 + i];
    }
    assertThat(from).isEqualTo(n == 0 ? pos : end);
    return out;
  }
}
