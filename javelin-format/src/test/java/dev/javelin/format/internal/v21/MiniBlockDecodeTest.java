package dev.javelin.format.internal.v21;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.internal.compression.bitpack.ByteStreamSplitCodec;
import dev.javelin.format.internal.compression.bitpack.InlineBitpackingCodec;
import dev.javelin.format.internal.compression.bitpack.MiniBlockChunks;
import dev.javelin.format.internal.compression.bitpack.OutOfLineBitpackingCodec;
import dev.javelin.format.internal.compression.bitpack.RleCodec;
import dev.javelin.format.internal.compression.fsst.BinaryValues;
import dev.javelin.format.internal.compression.fsst.FsstEncoder;
import dev.javelin.format.internal.compression.general.GeneralCodec;
import dev.javelin.format.proto.Encodings21.BufferCompression;
import dev.javelin.format.proto.Encodings21.ByteStreamSplit;
import dev.javelin.format.proto.Encodings21.CompressionScheme;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;
import dev.javelin.format.proto.Encodings21.Constant;
import dev.javelin.format.proto.Encodings21.Fsst;
import dev.javelin.format.proto.Encodings21.General;
import dev.javelin.format.proto.Encodings21.InlineBitpacking;
import dev.javelin.format.proto.Encodings21.MiniBlockLayout;
import dev.javelin.format.proto.Encodings21.OutOfLineBitpacking;
import dev.javelin.format.proto.Encodings21.PackedStruct;
import dev.javelin.format.proto.Encodings21.PageLayout;
import dev.javelin.format.proto.Encodings21.RepDefLayer;
import dev.javelin.format.proto.Encodings21.Rle;
import dev.javelin.testing.AllocatorHook;
import dev.javelin.testing.ArrowData;
import dev.javelin.testing.TestAllocator;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Mini-block pages built by hand from the pure codecs' output (bit-packing, RLE, byte stream
 * split, FSST, ZSTD/LZ4, dictionaries, constants, packed structs, 16- and 32-bit chunk grammars,
 * bit-packed levels) decode to the values that went in: whole, by row range and by take.
 */
@AddLifecycleHook(AllocatorHook.class)
class MiniBlockDecodeTest {
  @TestAllocator private BufferAllocator allocator;
  private Path dir;
  private int counter;

  @BeforeProperty
  void open() throws Exception {
    dir = Files.createTempDirectory("mbdecode");
  }

  @AfterProperty
  void close() throws Exception {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  static CompressiveEncoding flat(int bits) {
    return Protos21.flat(bits);
  }

  static CompressiveEncoding inline(int bits) {
    return CompressiveEncoding.newBuilder()
        .setInlineBitpacking(InlineBitpacking.newBuilder().setUncompressedBitsPerValue(bits)).build();
  }

  static CompressiveEncoding outOfLine(int bits, int width) {
    return CompressiveEncoding.newBuilder().setOutOfLineBitpacking(OutOfLineBitpacking.newBuilder()
        .setUncompressedBitsPerValue(bits).setValues(flat(width))).build();
  }

  static CompressiveEncoding rle(int bits) {
    return CompressiveEncoding.newBuilder().setRle(Rle.newBuilder().setValues(flat(bits)).setRunLengths(flat(8)))
        .build();
  }

  static CompressiveEncoding general(GeneralCodec.Scheme scheme, CompressiveEncoding inner) {
    CompressionScheme s = scheme == GeneralCodec.Scheme.ZSTD ? CompressionScheme.COMPRESSION_ALGORITHM_ZSTD
        : CompressionScheme.COMPRESSION_ALGORITHM_LZ4;
    return CompressiveEncoding.newBuilder().setGeneral(General.newBuilder()
        .setCompression(BufferCompression.newBuilder().setScheme(s)).setValues(inner)).build();
  }

  static MiniBlockLayout.Builder layout(CompressiveEncoding values, int numBuffers, long items, RepDefLayer... layers) {
    MiniBlockLayout.Builder b = MiniBlockLayout.newBuilder().setValueCompression(values).setNumBuffers(numBuffers)
        .setNumItems(items);
    for (RepDefLayer l : layers.length == 0 ? new RepDefLayer[] {RepDefLayer.REPDEF_ALL_VALID_ITEM} : layers) {
      b.addLayers(l);
    }
    return b;
  }

  static DecodePages.Page page(MiniBlockLayout.Builder layout, long rows, List<DecodePages.Chunk> chunks,
      byte[]... extra) {
    byte[][] mb = DecodePages.miniBlock(chunks, layout.getHasLargeChunk());
    List<byte[]> bufs = new ArrayList<>(List.of(mb));
    bufs.addAll(List.of(extra));
    return new DecodePages.Page(PageLayout.newBuilder().setMiniBlockLayout(layout).build(), rows, bufs);
  }

  Path file(Field field, LanceFileVersion version, DecodePages.Page... pages) throws Exception {
    return DecodePages.write(dir.resolve("f" + counter++ + ".lance"), field, version, pages);
  }

  /** Reads the file whole, by a row range and by a take; each must equal {@code expected}. */
  void assertReads(Path f, List<Object> expected, Random r) throws Exception {
    List<List<Object>> want = new ArrayList<>();
    for (Object o : expected) {
      List<Object> row = new ArrayList<>();
      row.add(o);
      want.add(row);
    }
    assertThat(V21Fixtures.readAll(allocator, f, 1 + r.nextInt(3000))).isEqualTo(want);
    int n = expected.size();
    int a = r.nextInt(n);
    int b = a + 1 + r.nextInt(n - a);
    List<List<Object>> range = new ArrayList<>();
    try (LanceFileReader reader = LanceFileReader.open(f, allocator);
        ArrowReader it = reader.read(ReadOptions.builder().rows(a, b).batchSize(333).build())) {
      while (it.loadNextBatch()) {
        range.addAll(V21Fixtures.rows(it.getVectorSchemaRoot()));
      }
    }
    assertThat(range).isEqualTo(want.subList(a, b));
    long[] rows = new long[Math.min(50, n)];
    List<List<Object>> taken = new ArrayList<>();
    for (int i = 0; i < rows.length; i++) {
      rows[i] = r.nextInt(n);
      taken.add(want.get((int) rows[i]));
    }
    try (LanceFileReader reader = LanceFileReader.open(f, allocator); VectorSchemaRoot t = reader.take(rows, null)) {
      assertThat(V21Fixtures.rows(t)).isEqualTo(taken);
    }
  }

  static Field intField(int bits) {
    return ArrowData.field("x", new ArrowType.Int(bits, true));
  }

  /** The value Arrow's getObject returns for a signed integer of the given width. */
  static Object boxed(long v, int bits) {
    switch (bits) {
      case 8:
        return (byte) v;
      case 16:
        return (short) v;
      case 32:
        return (int) v;
      default:
        return v;
    }
  }

  static long[] randomValues(Random r, int n, int bits) {
    int width = r.nextInt(bits + 1);
    long[] v = new long[n];
    for (int i = 0; i < n; i++) {
      long x = width == 64 ? r.nextLong() : r.nextLong() & ((1L << width) - 1);
      // Runs now and then, so that RLE has something to do.
      v[i] = i > 0 && r.nextInt(4) != 0 ? v[i - 1] : x;
    }
    return v;
  }

  static MiniBlockChunks encodeInline(long[] v, int bits) {
    switch (bits) {
      case 8: {
        byte[] a = new byte[v.length];
        for (int i = 0; i < a.length; i++) {
          a[i] = (byte) v[i];
        }
        return InlineBitpackingCodec.encode(a, 0, a.length);
      }
      case 16: {
        short[] a = new short[v.length];
        for (int i = 0; i < a.length; i++) {
          a[i] = (short) v[i];
        }
        return InlineBitpackingCodec.encode(a, 0, a.length);
      }
      case 32: {
        int[] a = new int[v.length];
        for (int i = 0; i < a.length; i++) {
          a[i] = (int) v[i];
        }
        return InlineBitpackingCodec.encode(a, 0, a.length);
      }
      default:
        return InlineBitpackingCodec.encode(v, 0, v.length);
    }
  }

  static MiniBlockChunks encodeRle(long[] v, int bits) {
    switch (bits) {
      case 8: {
        byte[] a = new byte[v.length];
        for (int i = 0; i < a.length; i++) {
          a[i] = (byte) v[i];
        }
        return RleCodec.encode(a, 0, a.length);
      }
      case 16: {
        short[] a = new short[v.length];
        for (int i = 0; i < a.length; i++) {
          a[i] = (short) v[i];
        }
        return RleCodec.encode(a, 0, a.length);
      }
      case 32: {
        int[] a = new int[v.length];
        for (int i = 0; i < a.length; i++) {
          a[i] = (int) v[i];
        }
        return RleCodec.encode(a, 0, a.length);
      }
      default:
        return RleCodec.encode(v, 0, v.length);
    }
  }

  static byte[] littleEndian(long[] v, int bits) {
    ByteBuffer b = ByteBuffer.allocate(v.length * bits / 8).order(ByteOrder.LITTLE_ENDIAN);
    for (long x : v) {
      b.put(DecodePages.le(x, bits / 8));
    }
    return b.array();
  }

  static List<Object> expected(long[] v, int bits) {
    List<Object> out = new ArrayList<>();
    for (long x : v) {
      out.add(boxed(x, bits));
    }
    return out;
  }

  /** Inline bit-packing of every word width, in 16-bit (2.1) and 32-bit (2.2) chunk grammars. */
  @Property(seed = "20261130", tries = 100)
  void inlineBitpacking(@ForAll("seeds") long seed, @ForAll @IntRange(min = 1, max = 5000) int n) throws Exception {
    Random r = new Random(seed);
    int bits = 8 << r.nextInt(4);
    boolean large = r.nextBoolean();
    long[] v = randomValues(r, n, bits);
    MiniBlockLayout.Builder l = layout(inline(bits), 1, n).setHasLargeChunk(large);
    Path f = file(intField(bits), large ? LanceFileVersion.V2_2 : LanceFileVersion.V2_1,
        page(l, n, DecodePages.chunks(encodeInline(v, bits))));
    assertReads(f, expected(v, bits), r);
  }

  /** RLE of every word width, whose chunks may hold runs past their declared counts. */
  @Property(seed = "20261130", tries = 100)
  void runLengths(@ForAll("seeds") long seed, @ForAll @IntRange(min = 1, max = 12000) int n) throws Exception {
    Random r = new Random(seed);
    int bits = 8 << r.nextInt(4);
    long[] v = randomValues(r, n, bits);
    Path f = file(intField(bits), LanceFileVersion.V2_1, page(layout(rle(bits), 2, n), n,
        DecodePages.chunks(encodeRle(v, bits))));
    assertReads(f, expected(v, bits), r);
  }

  /** Byte stream split of 32- and 64-bit values under ZSTD or LZ4, as Lance writes it with compression metadata. */
  @Property(seed = "20261130", tries = 50)
  void byteStreamSplitUnderGeneralCompression(@ForAll("seeds") long seed, @ForAll @IntRange(min = 1, max = 5000) int n)
      throws Exception {
    Random r = new Random(seed);
    int bits = r.nextBoolean() ? 32 : 64;
    GeneralCodec.Scheme scheme = r.nextBoolean() ? GeneralCodec.Scheme.ZSTD : GeneralCodec.Scheme.LZ4;
    long[] v = randomValues(r, n, bits);
    List<DecodePages.Chunk> chunks = new ArrayList<>();
    GeneralCodec codec = GeneralCodec.of(scheme);
    for (DecodePages.Chunk c : DecodePages.chunks(ByteStreamSplitCodec.encode(littleEndian(v, bits), 0, n, bits))) {
      chunks.add(DecodePages.Chunk.of(c.values, codec.compress(c.buffers[0], 0, c.buffers[0].length)));
    }
    CompressiveEncoding bss = CompressiveEncoding.newBuilder()
        .setByteStreamSplit(ByteStreamSplit.newBuilder().setValues(flat(bits))).build();
    Path f = file(intField(bits), LanceFileVersion.V2_1, page(layout(general(scheme, bss), 1, n), n, chunks));
    assertReads(f, expected(v, bits), r);
  }

  static List<byte[]> randomStrings(Random r, int n, int distinct) {
    String[] pool = new String[distinct];
    for (int i = 0; i < distinct; i++) {
      StringBuilder b = new StringBuilder();
      for (int k = r.nextInt(30); k > 0; k--) {
        b.append(r.nextInt(7) == 0 ? "ü" : "the quick brown fox".substring(r.nextInt(10), 10 + r.nextInt(9)));
      }
      pool[i] = b.toString();
    }
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(pool[r.nextInt(distinct)].getBytes(StandardCharsets.UTF_8));
    }
    return out;
  }

  static List<Object> expectedStrings(List<byte[]> values) {
    List<Object> out = new ArrayList<>();
    for (byte[] v : values) {
      out.add(new String(v, StandardCharsets.UTF_8));
    }
    return out;
  }

  /** FSST over Variable: each chunk holds its values' offsets then their codes. */
  @Property(seed = "20261130", tries = 50)
  void fsstStrings(@ForAll("seeds") long seed, @ForAll @IntRange(min = 1, max = 3000) int n) throws Exception {
    Random r = new Random(seed);
    List<byte[]> values = randomStrings(r, n, 1 + r.nextInt(500));
    FsstEncoder enc = FsstEncoder.train(BinaryValues.of(values.toArray(new byte[0][])));
    List<DecodePages.Chunk> chunks = new ArrayList<>();
    int per = 1 << (4 + r.nextInt(6));
    for (int s = 0; s < n; s += per) {
      List<byte[]> part = values.subList(s, Math.min(n, s + per));
      BinaryValues c = enc.compress(BinaryValues.of(part.toArray(new byte[0][])));
      List<byte[]> codes = new ArrayList<>();
      for (int i = 0; i < c.count(); i++) {
        codes.add(c.value(i));
      }
      chunks.add(DecodePages.Chunk.of(part.size(), DecodePages.variableChunk(codes)));
    }
    CompressiveEncoding fsst = CompressiveEncoding.newBuilder().setFsst(Fsst.newBuilder()
        .setSymbolTable(ByteString.copyFrom(enc.table().serialize())).setValues(Protos21.variable(32))).build();
    Path f = file(ArrowData.field("x", ArrowType.Utf8.INSTANCE), LanceFileVersion.V2_1,
        page(layout(fsst, 1, n), n, chunks));
    assertReads(f, expectedStrings(values), r);
  }

  /** A dictionary page: bit-packed indices in the chunks, the dictionary (a Variable block) in buffer 2. */
  @Property(seed = "20261130", tries = 50)
  void dictionaryStrings(@ForAll("seeds") long seed, @ForAll @IntRange(min = 1, max = 5000) int n) throws Exception {
    Random r = new Random(seed);
    int distinct = 1 + r.nextInt(40);
    List<byte[]> dict = randomStrings(r, distinct, distinct);
    long[] idx = new long[n];
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      idx[i] = r.nextInt(distinct);
      values.add(dict.get((int) idx[i]));
    }
    boolean zstdDictionary = r.nextBoolean();
    byte[] block = DecodePages.variableBlock(dict);
    CompressiveEncoding dictEncoding = Protos21.variable(32);
    if (zstdDictionary) {
      block = GeneralCodec.zstd().compress(block, 0, block.length);
      dictEncoding = general(GeneralCodec.Scheme.ZSTD, dictEncoding);
    }
    MiniBlockLayout.Builder l = layout(inline(32), 1, n).setDictionary(dictEncoding).setNumDictionaryItems(distinct);
    Path f = file(ArrowData.field("x", ArrowType.Utf8.INSTANCE), LanceFileVersion.V2_1,
        page(l, n, DecodePages.chunks(encodeInline(idx, 32)), block));
    assertReads(f, expectedStrings(values), r);
  }

  /** Nullable values: Flat values, definition levels bit-packed (inline or out of line) per chunk. */
  @Property(seed = "20261130", tries = 50)
  void outOfLineLevels(@ForAll("seeds") long seed, @ForAll @IntRange(min = 1, max = 5000) int n) throws Exception {
    Random r = new Random(seed);
    long[] v = randomValues(r, n, 32);
    short[] def = new short[n];
    List<Object> expected = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      def[i] = (short) (r.nextInt(4) == 0 ? 1 : 0);
      expected.add(def[i] == 0 ? (Object) (int) v[i] : null);
    }
    // Lance packs a page's levels inline when it has at most 1024 of them, out of line otherwise.
    boolean inline = r.nextBoolean();
    List<DecodePages.Chunk> chunks = new ArrayList<>();
    int per = 512;
    for (int s = 0; s < n; s += per) {
      int k = Math.min(per, n - s);
      byte[] levels = inline ? InlineBitpackingCodec.encode(def, s, k).buffer(0)
          : OutOfLineBitpackingCodec.encode(def, s, k, 1);
      byte[] values = littleEndian(java.util.Arrays.copyOfRange(v, s, s + k), 32);
      chunks.add(new DecodePages.Chunk(k, k, null, levels, values));
    }
    MiniBlockLayout.Builder l = layout(flat(32), 1, n, RepDefLayer.REPDEF_NULLABLE_ITEM)
        .setDefCompression(inline ? inline(16) : outOfLine(16, 1));
    Path f = file(intField(32), LanceFileVersion.V2_1, page(l, n, chunks));
    assertReads(f, expected, r);
  }

  /** Constant values (no buffers) and a packed struct (rows of two children, split on read). */
  @Property(seed = "20261130", tries = 10)
  void constantsAndPackedStructs(@ForAll("seeds") long seed, @ForAll @IntRange(min = 1, max = 3000) int n)
      throws Exception {
    Random r = new Random(seed);
    long c = r.nextLong();
    CompressiveEncoding constant = CompressiveEncoding.newBuilder()
        .setConstant(Constant.newBuilder().setValue(ByteString.copyFrom(DecodePages.le(c, 8)))).build();
    List<DecodePages.Chunk> empty = new ArrayList<>();
    for (int s = 0; s < n; s += 1024) {
      empty.add(DecodePages.Chunk.of(Math.min(1024, n - s)));
    }
    Path f = file(intField(64), LanceFileVersion.V2_1, page(layout(constant, 0, n), n, empty));
    List<Object> expected = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      expected.add(c);
    }
    assertReads(f, expected, r);

    Field packed = new Field("p", new FieldType(false, ArrowType.Struct.INSTANCE, null, Map.of("packed", "true")),
        List.of(ArrowData.notNull("a", new ArrowType.Int(16, true)), ArrowData.notNull("b", new ArrowType.Int(64, true))));
    ByteBuffer rows = ByteBuffer.allocate(10 * n).order(ByteOrder.LITTLE_ENDIAN);
    List<Object> structs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      short a = (short) r.nextInt();
      long b = r.nextLong();
      rows.putShort(a).putLong(b);
      Map<String, Object> m = new java.util.LinkedHashMap<>();
      m.put("a", a);
      m.put("b", b);
      structs.add(m);
    }
    List<DecodePages.Chunk> chunks = new ArrayList<>();
    for (int s = 0; s < n; s += 256) {
      int k = Math.min(256, n - s);
      chunks.add(DecodePages.Chunk.of(k, java.util.Arrays.copyOfRange(rows.array(), 10 * s, 10 * (s + k))));
    }
    CompressiveEncoding ps = CompressiveEncoding.newBuilder().setPackedStruct(PackedStruct.newBuilder()
        .addBitsPerValue(16).addBitsPerValue(64).setValues(flat(80))).build();
    Path g = file(packed, LanceFileVersion.V2_1, page(layout(ps, 1, n), n, chunks));
    assertReads(g, structs, r);
  }

  /** Fixed-size lists whose flattened items are themselves bit-packed (Lance writes Flat items, but may not). */
  @Property(seed = "20261130", tries = 20)
  void fixedSizeListsOfBitPackedItems(@ForAll("seeds") long seed, @ForAll @IntRange(min = 1, max = 2000) int n)
      throws Exception {
    Random r = new Random(seed);
    int dim = 1 + r.nextInt(8);
    long[] items = randomValues(r, n * dim, 32);
    List<DecodePages.Chunk> chunks = new ArrayList<>();
    int per = 1024 / Integer.highestOneBit(dim) / 2;
    for (int s = 0; s < n; s += per) {
      int k = Math.min(per, n - s);
      MiniBlockChunks packed = encodeInline(java.util.Arrays.copyOfRange(items, s * dim, (s + k) * dim), 32);
      chunks.add(DecodePages.Chunk.of(k, packed.buffer(0)));
    }
    CompressiveEncoding fsl = Protos21.fsl(dim, false, inline(32));
    Field field = ArrowData.notNull("v", new ArrowType.FixedSizeList(dim), ArrowData.field("item",
        new ArrowType.Int(32, true)));
    Path f = file(field, LanceFileVersion.V2_1, page(layout(fsl, 1, n), n, chunks));
    List<Object> expected = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      List<Object> l = new ArrayList<>();
      for (int k = 0; k < dim; k++) {
        l.add((int) items[i * dim + k]);
      }
      expected.add(l);
    }
    assertReads(f, expected, r);
  }

  @net.jqwik.api.Provide
  net.jqwik.api.Arbitrary<Long> seeds() {
    return net.jqwik.api.Arbitraries.longs();
  }
}
