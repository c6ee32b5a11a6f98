package dev.javelin.format.internal.compression.fsst;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class FsstDecoderTest {
  private static final int ESC = 255;
  /** Codes 0..4. */
  private static final FsstSymbolTable TABLE = FsstSymbolTable.of(ascii("he"), ascii("llo"), ascii(" "),
      ascii("world!!!"), ascii("x"));
  private final FsstDecoder decoder = new FsstDecoder(TABLE);

  private static byte[] ascii(String s) {
    return s.getBytes(US_ASCII);
  }

  private static byte[] codes(int... codes) {
    byte[] b = new byte[codes.length];
    for (int i = 0; i < codes.length; i++) {
      b[i] = (byte) codes[i];
    }
    return b;
  }

  /** One compressed value per argument. */
  private static BinaryValues compressed(byte[]... values) {
    return BinaryValues.of(values);
  }

  private String decodeOne(byte[] value) {
    return new String(decoder.decode(compressed(value), 1 << 20).value(0), US_ASCII);
  }

  /** A mini-block style chunk: n + 1 offsets counting from the chunk's start, then the bytes. */
  private static ByteBuffer chunk(int bits, byte[]... values) {
    int w = bits / 8;
    int head = w * (values.length + 1);
    int total = head + Arrays.stream(values).mapToInt(v -> v.length).sum();
    ByteBuffer b = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN);
    int at = head;
    for (int i = 0; i <= values.length; i++) {
      if (w == 4) {
        b.putInt(at);
      } else {
        b.putLong(at);
      }
      if (i < values.length) {
        at += values[i].length;
      }
    }
    for (byte[] v : values) {
      b.put(v);
    }
    return b.flip();
  }

  private static List<String> strings(BinaryValues v) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < v.count(); i++) {
      out.add(new String(v.value(i), US_ASCII));
    }
    return out;
  }

  @Test
  void expandsSymbols() {
    assertThat(decodeOne(codes(0, 1, 2, 3))).isEqualTo("hello world!!!");
    assertThat(decodeOne(codes(3, 3, 4))).isEqualTo("world!!!world!!!x");
    assertThat(decodeOne(codes())).isEmpty();
  }

  @Test
  void escapeTakesTheNextByteLiterally() {
    assertThat(decodeOne(codes(ESC, 'Q', 4))).isEqualTo("Qx");
    // An escape among four codes, and the escaped byte itself 0xFF.
    assertThat(decodeOne(codes(0, 1, ESC, '!', 3))).isEqualTo("hello!world!!!");
    assertThat(decoder.decode(compressed(codes(ESC, 0xFF, ESC, 0)), 100).value(0)).containsExactly(0xFF, 0);
  }

  @Test
  void decodesLancesValues() {
    FsstDecoder lance = new FsstDecoder(FsstSymbolTable.parse(LanceSamples.table()));
    byte[][] values = Arrays.stream(LanceSamples.COMPRESSED).map(HexFormat.of()::parseHex).toArray(byte[][]::new);
    BinaryValues out = lance.decode(chunk(32, values), 32, values.length, chunk(32, values), 1 << 20);
    for (int i = 0; i < values.length; i++) {
      assertThat(new String(out.value(i), US_ASCII)).isEqualTo(LanceSamples.value(i));
    }
  }

  @Test
  void splitsValuesByOffsets() {
    BinaryValues out = decoder.decode(compressed(codes(0, 1), codes(), codes(ESC, 'Q', 4), codes(2)), 100);
    assertThat(strings(out)).containsExactly("hello", "", "Qx", " ");
    assertThat(Arrays.copyOf(out.offsets(), 5)).containsExactly(0, 5, 5, 7, 8);
  }

  @Test
  void readsChunksWith32And64BitOffsets() {
    for (int bits : new int[] {32, 64}) {
      ByteBuffer c = chunk(bits, codes(0, 1), codes(3), codes());
      BinaryValues out = decoder.decode(c, bits, 3, c, 100);
      assertThat(strings(out)).containsExactly("hello", "world!!!", "");
      assertThat(c.position()).isZero();
    }
  }

  @Test
  void honoursBufferPositionsAndDirectBuffers() {
    ByteBuffer c = chunk(32, codes(0, 1, 2, 3));
    byte[] shifted = new byte[c.remaining() + 7];
    c.get(0, shifted, 3, c.remaining());
    ByteBuffer heap = ByteBuffer.wrap(shifted, 3, c.remaining()).slice();
    ByteBuffer direct = ByteBuffer.allocateDirect(c.remaining()).put(c.duplicate()).flip();
    for (ByteBuffer b : List.of(heap, direct, c.asReadOnlyBuffer())) {
      assertThat(strings(decoder.decode(b, 32, 1, b, 100))).containsExactly("hello world!!!");
    }
  }

  @Test
  void offsetsMayStartAnywhereInTheData() {
    // Offsets and bytes in separate buffers, the offsets counting from byte 3 of the bytes.
    ByteBuffer offsets = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putInt(3).putInt(4).putInt(6).flip();
    ByteBuffer data = ByteBuffer.wrap(codes(9, 9, 9, 4, 0, 1));
    assertThat(strings(decoder.decode(offsets, 32, 2, data, 100))).containsExactly("x", "hello");
  }

  @Test
  void appendsToABuilderAcrossCalls() {
    BinaryValues.Builder out = new BinaryValues.Builder(0, 0, 1000);
    ByteBuffer a = chunk(32, codes(0, 1));
    ByteBuffer b = chunk(32, codes(4), codes(3));
    decoder.decode(a, 32, 1, a, out);
    decoder.decode(b, 32, 2, b, out);
    decoder.decodeValue(codes(7, 7, 2, 7), 2, 1, out);
    assertThat(strings(out.build())).containsExactly("hello", "x", "world!!!", " ");
  }

  @Test
  void decodesFullZipStyleValuesOneByOne() {
    // [u32 length][codes] per value, as a full-zip page stores them.
    ByteArrayOutputStream zip = new ByteArrayOutputStream();
    for (byte[] v : List.of(codes(0, 1), codes(ESC, 'Z'), codes())) {
      zip.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v.length).array());
      zip.writeBytes(v);
    }
    byte[] z = zip.toByteArray();
    BinaryValues.Builder out = new BinaryValues.Builder(3, 16, 1000);
    int pos = 0;
    for (int i = 0; i < 3; i++) {
      int len = ByteBuffer.wrap(z, pos, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
      decoder.decodeValue(z, pos + 4, len, out);
      pos += 4 + len;
    }
    assertThat(strings(out.build())).containsExactly("hello", "Z", "");
  }

  @Test
  void rawTableCopiesValues() {
    FsstDecoder raw = new FsstDecoder(FsstSymbolTable.raw());
    ByteBuffer c = chunk(32, ascii("plain"), ascii(""), ascii("text~"));
    assertThat(strings(raw.decode(c, 32, 3, c, 100))).containsExactly("plain", "", "text~");
    assertThatThrownBy(() -> raw.decode(c, 32, 3, c, 9))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Values need at least 10 bytes, more than the bound of 9");
  }

  @Test
  void rejectsCodesTheTableLacks() {
    String msg = "FSST value 0 uses code 5 but the symbol table has 5 symbols";
    // Alone, and among four codes without an escape (the fast path).
    assertThatThrownBy(() -> decodeOne(codes(5))).isInstanceOf(IllegalArgumentException.class).hasMessage(msg);
    assertThatThrownBy(() -> decodeOne(codes(0, 1, 2, 5, 0))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage(msg);
    assertThatThrownBy(() -> decodeOne(codes(0, 1, 2, 3, 0, 1, 2, 254))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("FSST value 0 uses code 254 but the symbol table has 5 symbols");
  }

  @Test
  void rejectsAnEscapeAtTheEndOfAValue() {
    String msg = "FSST value 1 ends with an escape code and no byte to escape";
    assertThatThrownBy(() -> decoder.decode(compressed(codes(0), codes(0, ESC), codes(ESC, 'a')), 100))
        .isInstanceOf(IllegalArgumentException.class).hasMessage(msg);
    assertThatThrownBy(() -> decoder.decode(compressed(codes(0), codes(0, 1, 2, ESC)), 100))
        .isInstanceOf(IllegalArgumentException.class).hasMessage(msg);
  }

  @Test
  void rejectsBadOffsets() {
    ByteBuffer data = ByteBuffer.wrap(new byte[20]);
    assertThatThrownBy(() -> decoder.decode(offsets32(5, 3), 32, 1, data, 100))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("FSST offsets go backwards at value 0: 5 then 3");
    assertThatThrownBy(() -> decoder.decode(offsets32(0, 4, 100), 32, 2, data, 100))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("FSST offset 2 is 100, outside the 20 data bytes");
    assertThatThrownBy(() -> decoder.decode(offsets32(0, -1), 32, 1, data, 100))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("FSST offset 1 is 4294967295, outside the 20 data bytes");
    ByteBuffer neg = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(0).putLong(-1).flip();
    assertThatThrownBy(() -> decoder.decode(neg, 64, 1, data, 100))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("FSST offset 1 is 18446744073709551615, outside the 20 data bytes");
    assertThatThrownBy(() -> decoder.decode(offsets32(0, 1), 32, 10, data, 100))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("FSST data has 10 values but room for only 2 offsets of 32 bits");
    assertThatThrownBy(() -> decoder.decode(offsets32(0, 1), 16, 1, data, 100))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("FSST offsets must be 32 or 64 bits, not 16");
    assertThatThrownBy(() -> decoder.decode(offsets32(0, 1), 32, -1, data, 100))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> decoder.decodeValue(new byte[4], 2, 3, new BinaryValues.Builder(1, 1, 10)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Bad FSST value range: offset 2, length 3, array of 4");
  }

  private static ByteBuffer offsets32(int... offsets) {
    ByteBuffer b = ByteBuffer.allocate(4 * offsets.length).order(ByteOrder.LITTLE_ENDIAN);
    for (int o : offsets) {
      b.putInt(o);
    }
    return b.flip();
  }

  @Test
  void stopsAtTheBoundAndLeavesTheBuilderAsItWas() {
    BinaryValues.Builder out = new BinaryValues.Builder(4, 4, 20);
    ByteBuffer first = chunk(32, codes(0, 1));
    decoder.decode(first, 32, 1, first, out); // "hello"
    ByteBuffer big = chunk(32, codes(4), codes(3, 3)); // "x" then 16 bytes: 22 in all
    assertThatThrownBy(() -> decoder.decode(big, 32, 2, big, out))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Values need at least 22 bytes, more than the bound of 20");
    assertThat(out.count()).isEqualTo(1);
    assertThat(out.dataLength()).isEqualTo(5);
    assertThat(strings(out.build())).containsExactly("hello");
  }

  @Test
  void fillsTheBoundExactlyWhenTheWorstCaseWouldNotFit() {
    // 3000 one-byte codes decode to exactly 3000 bytes, though up to 24000 was possible.
    byte[] many = new byte[3000];
    Arrays.fill(many, (byte) 4);
    BinaryValues values = compressed(many, codes(4, 4, 4));
    assertThat(decoder.decode(values, 3003).dataLength()).isEqualTo(3003);
    assertThatThrownBy(() -> decoder.decode(values, 3002))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Values need at least 3003 bytes, more than the bound of 3002");
  }

  @Test
  void decodesManyValuesAcrossGroups() {
    // Enough compressed bytes for several 64 KiB groups, and values of 8-byte symbols.
    int n = 50_000;
    byte[][] values = new byte[n][];
    for (int i = 0; i < n; i++) {
      values[i] = i % 2 == 0 ? codes(3, 3, 0, 1) : codes(ESC, (byte) i, 2);
    }
    BinaryValues out = decoder.decode(compressed(values), Integer.MAX_VALUE);
    assertThat(out.count()).isEqualTo(n);
    assertThat(new String(out.value(10_000), US_ASCII)).isEqualTo("world!!!world!!!hello");
    assertThat(out.value(10_001)).containsExactly((byte) 10_001, ' ');
    assertThat(out.dataLength()).isEqualTo(n / 2 * 21 + n / 2 * 2);
  }

  /** decodeChunk into a fresh array with room, starting at {@code pos}; returns the values as strings. */
  private static List<String> decodeChunk(FsstDecoder d, ByteBuffer c, int bits, int n, int pos) {
    byte[] src = new byte[c.remaining() + 5];
    c.get(0, src, 5, c.remaining());
    byte[] dst = new byte[pos + (int) FsstDecoder.worstCaseBytes(c.remaining())];
    long[] ends = new long[n + 2];
    int end = d.decodeChunk(src, 5, c.remaining(), bits, n, dst, pos, ends, 2);
    List<String> out = new ArrayList<>();
    long start = pos;
    for (int i = 0; i < n; i++) {
      out.add(new String(dst, (int) start, (int) (ends[2 + i] - start), ISO_8859_1));
      start = ends[2 + i];
    }
    assertThat(end).isEqualTo(n == 0 ? pos : (int) ends[1 + n]);
    return out;
  }

  @Test
  void decodesChunksStraightIntoTheCallersArray() {
    for (int bits : new int[] {32, 64}) {
      ByteBuffer c = chunk(bits, codes(0, 1), codes(), codes(ESC, 'Q', 4), codes(3, 3, 2));
      assertThat(decodeChunk(decoder, c, bits, 4, 7)).containsExactly("hello", "", "Qx", "world!!!world!!! ");
    }
    ByteBuffer raw = chunk(32, ascii("plain"), ascii(""), ascii("text~"));
    assertThat(decodeChunk(new FsstDecoder(FsstSymbolTable.raw()), raw, 32, 3, 1)).containsExactly("plain", "", "text~");
    assertThat(decodeChunk(decoder, chunk(32), 32, 0, 3)).isEmpty();
    FsstDecoder lance = new FsstDecoder(FsstSymbolTable.parse(LanceSamples.table()));
    byte[][] values = Arrays.stream(LanceSamples.COMPRESSED).map(HexFormat.of()::parseHex).toArray(byte[][]::new);
    List<String> out = decodeChunk(lance, chunk(32, values), 32, values.length, 0);
    for (int i = 0; i < values.length; i++) {
      assertThat(out.get(i)).isEqualTo(LanceSamples.value(i));
    }
  }

  @Test
  void rejectsMalformedChunks() {
    // A symbol table that lies (codes past its symbols), an escape ending a value, offsets that
    // go backwards or past the chunk, more values than the chunk has room for, no room to write.
    ByteBuffer badCode = chunk(32, codes(0), codes(0, 7));
    assertThatThrownBy(() -> decodeChunk(decoder, badCode, 32, 2, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("FSST value 1 uses code 7 but the symbol table has 5 symbols");
    ByteBuffer escape = chunk(32, codes(0, ESC), codes(1));
    assertThatThrownBy(() -> decodeChunk(decoder, escape, 32, 2, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("FSST value 0 ends with an escape code and no byte to escape");
    ByteBuffer backwards = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putInt(12).putInt(14).putInt(13)
        .putInt(0).flip();
    assertThatThrownBy(() -> decodeChunk(decoder, backwards, 32, 2, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("FSST offsets go backwards at value 1: 14 then 13");
    ByteBuffer past = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putInt(8).putInt(13).putInt(0).flip();
    assertThatThrownBy(() -> decodeChunk(decoder, past, 32, 1, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("FSST offset 1 is 13, outside the 12 chunk bytes");
    ByteBuffer huge = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(0).putLong(-1).flip();
    assertThatThrownBy(() -> decodeChunk(decoder, huge, 64, 1, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("FSST offset 1 is 18446744073709551615, outside the 16 chunk bytes");
    assertThatThrownBy(() -> decodeChunk(decoder, chunk(32, codes(0)), 32, 5, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("FSST data has 5 values but room for only 2 offsets of 32 bits");
    assertThatThrownBy(() -> decoder.decodeChunk(new byte[9], 0, 9, 32, 1, new byte[79], 0, new long[1], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("No room to decode an FSST chunk of 9 bytes and 1 values");
    assertThatThrownBy(() -> decoder.decodeChunk(new byte[9], 2, 9, 32, 1, new byte[100], 0, new long[1], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Bad FSST chunk range: offset 2, length 9, array of 9");
  }

  /** decodeChunk agrees with the builder-based decode on random tables and codes, errors included. */
  @Property(tries = 200)
  void chunkDecodeAgreesWithBuilderDecode(@ForAll @Size(max = 255) List<@Size(min = 1, max = 8) byte[]> symbols,
      @ForAll @Size(max = 40) List<@Size(max = 30) byte[]> values) {
    FsstDecoder d = new FsstDecoder(FsstSymbolTable.of(symbols.toArray(new byte[0][])));
    byte[][] vals = values.stream().map(v -> {
      byte[] c = v.clone();
      for (int i = 0; i < c.length; i++) {
        int code = c[i] & 0xFF;
        if (code != ESC && !symbols.isEmpty() && code % 16 != 0) {
          c[i] = (byte) (code % symbols.size());
        }
      }
      return c;
    }).toArray(byte[][]::new);
    ByteBuffer c = chunk(32, vals);
    String expected;
    try {
      BinaryValues v = d.decode(c, 32, vals.length, c, Integer.MAX_VALUE);
      List<String> all = new ArrayList<>();
      for (int i = 0; i < v.count(); i++) {
        all.add(new String(v.value(i), ISO_8859_1));
      }
      expected = String.join("|", all);
    } catch (IllegalArgumentException e) {
      expected = "error";
    }
    String actual;
    try {
      actual = String.join("|", decodeChunk(d, c, 32, vals.length, 3));
    } catch (IllegalArgumentException e) {
      actual = "error";
    }
    assertThat(actual).isEqualTo(expected);
  }

  /** Decoding agrees with a plain reference decoder on random tables and random codes. */
  @Property(tries = 300)
  void agreesWithAReferenceDecoder(@ForAll @Size(max = 255) List<@Size(min = 1, max = 8) byte[]> symbols,
      @ForAll @Size(max = 40) List<@Size(max = 30) byte[]> values, @ForAll @IntRange(min = 0, max = 255) int bias) {
    FsstSymbolTable table = FsstSymbolTable.of(symbols.toArray(new byte[0][]));
    // Steer most codes into the table so that not every case fails.
    byte[][] vals = values.stream().map(v -> {
      byte[] c = v.clone();
      for (int i = 0; i < c.length; i++) {
        int code = c[i] & 0xFF;
        if (code != ESC && !symbols.isEmpty() && (code + bias) % 16 != 0) {
          c[i] = (byte) (code % symbols.size());
        }
      }
      return c;
    }).toArray(byte[][]::new);
    String expected;
    try {
      expected = reference(symbols, vals);
    } catch (IllegalArgumentException e) {
      expected = "error";
    }
    String actual;
    try {
      BinaryValues out = new FsstDecoder(table).decode(compressed(vals), Integer.MAX_VALUE);
      StringBuilder s = new StringBuilder();
      for (int i = 0; i < out.count(); i++) {
        s.append(HexFormat.of().formatHex(out.value(i))).append('|');
      }
      actual = s.toString();
    } catch (IllegalArgumentException e) {
      actual = "error";
    }
    assertThat(actual).isEqualTo(expected);
  }

  private static String reference(List<byte[]> symbols, byte[][] values) {
    StringBuilder s = new StringBuilder();
    for (byte[] v : values) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      for (int i = 0; i < v.length; i++) {
        int code = v[i] & 0xFF;
        if (code == ESC) {
          if (i + 1 == v.length) {
            throw new IllegalArgumentException();
          }
          out.write(v[++i]);
        } else if (code < symbols.size()) {
          out.writeBytes(symbols.get(code));
        } else {
          throw new IllegalArgumentException();
        }
      }
      s.append(HexFormat.of().formatHex(out.toByteArray())).append('|');
    }
    return s.toString();
  }
}
