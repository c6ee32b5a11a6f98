package dev.javelin.format.internal.v21;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.internal.compression.fsst.BinaryValues;
import dev.javelin.format.internal.compression.fsst.FsstEncoder;
import dev.javelin.format.internal.compression.general.GeneralCodec;
import dev.javelin.format.proto.Encodings21.AllNullLayout;
import dev.javelin.format.proto.Encodings21.BlobLayout;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;
import dev.javelin.format.proto.Encodings21.Fsst;
import dev.javelin.format.proto.Encodings21.FullZipLayout;
import dev.javelin.format.proto.Encodings21.PackedStruct;
import dev.javelin.format.proto.Encodings21.PageLayout;
import dev.javelin.format.proto.Encodings21.RepDefLayer;
import dev.javelin.format.proto.Encodings21.VariablePackedStruct;
import dev.javelin.io.CountingInputFile;
import dev.javelin.io.LocalInputFile;
import dev.javelin.testing.AllocatorHook;
import dev.javelin.testing.ArrowData;
import dev.javelin.testing.TestAllocator;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Full-zip pages with per-value compression (FSST, ZSTD, LZ4, packed structs), repetition indices
 * of every byte width, constant pages of format 2.2 and blob pages, built by hand; takes read
 * only the rows' index entries and bytes.
 */
@AddLifecycleHook(AllocatorHook.class)
class FullZipDecodeTest {
  @TestAllocator private BufferAllocator allocator;
  private Path dir;
  private int counter;

  @BeforeProperty
  void open() throws Exception {
    dir = Files.createTempDirectory("fzdecode");
  }

  @AfterProperty
  void close() throws Exception {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Provide
  Arbitrary<Long> seeds() {
    return Arbitraries.longs();
  }

  /** Zips nullable values: a 1-byte control word (the definition level), a u32 length, the bytes. */
  static byte[][] zip(List<byte[]> stored, int indexWidth) {
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    ByteBuffer index = ByteBuffer.allocate((stored.size() + 1) * indexWidth).order(ByteOrder.LITTLE_ENDIAN);
    for (byte[] v : stored) {
      index.put(DecodePages.le(data.size(), indexWidth));
      data.write(v == null ? 1 : 0);
      if (v != null) {
        data.write(DecodePages.le(v.length, 4), 0, 4);
        data.write(v, 0, v.length);
      }
    }
    index.put(DecodePages.le(data.size(), indexWidth));
    return new byte[][] {data.toByteArray(), index.array()};
  }

  static int indexWidth(long dataSize, Random r) {
    int w = dataSize < 256 ? 1 : dataSize < 65536 ? 2 : 4;
    return r.nextInt(3) == 0 ? 8 : w;
  }

  Path fullZip(Field field, CompressiveEncoding values, List<byte[]> stored, Random r) throws Exception {
    int size = 0;
    for (byte[] v : stored) {
      size += 5 + (v == null ? 0 : v.length);
    }
    byte[][] zipped = zip(stored, indexWidth(size, r));
    FullZipLayout layout = FullZipLayout.newBuilder().setBitsDef(1).setBitsPerOffset(32).setNumItems(stored.size())
        .setNumVisibleItems(stored.size()).setValueCompression(values).addLayers(RepDefLayer.REPDEF_NULLABLE_ITEM)
        .build();
    return DecodePages.write(dir.resolve("f" + counter++ + ".lance"), field, LanceFileVersion.V2_1,
        new DecodePages.Page(PageLayout.newBuilder().setFullZipLayout(layout).build(), stored.size(),
            List.of(zipped)));
  }

  static List<byte[]> strings(Random r, int n) {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (r.nextInt(8) == 0) {
        out.add(null);
        continue;
      }
      StringBuilder b = new StringBuilder();
      for (int k = 256 + r.nextInt(2000); b.length() < k;) {
        b.append(r.nextInt(5) == 0 ? "€uro " : "value-" + r.nextInt(100) + " ");
      }
      out.add(b.toString().getBytes(StandardCharsets.UTF_8));
    }
    return out;
  }

  void assertTakes(Path f, List<Object> expected, Random r) throws Exception {
    List<List<Object>> want = new ArrayList<>();
    for (Object o : expected) {
      List<Object> row = new ArrayList<>();
      row.add(o);
      want.add(row);
    }
    assertThat(V21Fixtures.readAll(allocator, f, 1 + r.nextInt(500))).isEqualTo(want);
    long[] rows = new long[Math.min(20, expected.size())];
    List<List<Object>> taken = new ArrayList<>();
    for (int i = 0; i < rows.length; i++) {
      rows[i] = r.nextInt(expected.size());
      taken.add(want.get((int) rows[i]));
    }
    try (LanceFileReader reader = LanceFileReader.open(f, allocator); VectorSchemaRoot t = reader.take(rows, null)) {
      assertThat(V21Fixtures.rows(t)).isEqualTo(taken);
    }
  }

  static List<Object> asStrings(List<byte[]> values) {
    List<Object> out = new ArrayList<>();
    for (byte[] v : values) {
      out.add(v == null ? null : new String(v, StandardCharsets.UTF_8));
    }
    return out;
  }

  /** Each value compressed on its own with FSST, ZSTD or LZ4; repetition indices of 1 to 8 bytes. */
  @Property(tries = 40)
  void perValueCompression(@ForAll("seeds") long seed, @ForAll @IntRange(min = 1, max = 300) int n) throws Exception {
    Random r = new Random(seed);
    List<byte[]> values = strings(r, n);
    List<byte[]> stored = new ArrayList<>();
    CompressiveEncoding encoding;
    int kind = r.nextInt(3);
    if (kind == 0) {
      List<byte[]> present = new ArrayList<>();
      for (byte[] v : values) {
        if (v != null) {
          present.add(v);
        }
      }
      present.add(new byte[] {'x'});
      FsstEncoder enc = FsstEncoder.train(BinaryValues.of(present.toArray(new byte[0][])));
      for (byte[] v : values) {
        stored.add(v == null ? null : enc.compress(BinaryValues.of(v)).value(0));
      }
      encoding = CompressiveEncoding.newBuilder().setFsst(Fsst.newBuilder()
          .setSymbolTable(ByteString.copyFrom(enc.table().serialize())).setValues(Protos21.variable(32))).build();
    } else {
      GeneralCodec.Scheme scheme = kind == 1 ? GeneralCodec.Scheme.ZSTD : GeneralCodec.Scheme.LZ4;
      GeneralCodec codec = GeneralCodec.of(scheme);
      for (byte[] v : values) {
        stored.add(v == null ? null : codec.compress(v, 0, v.length));
      }
      encoding = MiniBlockDecodeTest.general(scheme, Protos21.variable(32));
    }
    Path f = fullZip(ArrowData.field("x", ArrowType.Utf8.INSTANCE), encoding, stored, r);
    assertTakes(f, asStrings(values), r);
  }

  /** A take of one row of a big full-zip page reads two index entries and the row's bytes. */
  @Property(tries = 5)
  void takesReadTheirRowsOnly(@ForAll("seeds") long seed) throws Exception {
    Random r = new Random(seed);
    List<byte[]> values = strings(r, 2000);
    GeneralCodec codec = GeneralCodec.zstd();
    List<byte[]> stored = new ArrayList<>();
    for (byte[] v : values) {
      stored.add(v == null ? null : codec.compress(v, 0, v.length));
    }
    Path f = fullZip(ArrowData.field("x", ArrowType.Utf8.INSTANCE),
        MiniBlockDecodeTest.general(GeneralCodec.Scheme.ZSTD, Protos21.variable(32)), stored, r);
    int row = r.nextInt(2000);
    CountingInputFile in = new CountingInputFile(LocalInputFile.open(f));
    try (LanceFileReader reader = LanceFileReader.open(in, allocator)) {
      in.reset();
      try (VectorSchemaRoot t = reader.take(new long[] {row}, null)) {
        assertThat(V21Fixtures.rows(t).get(0).get(0)).isEqualTo(asStrings(values).get(row));
      }
      long value = stored.get(row) == null ? 1 : 5 + stored.get(row).length;
      assertThat(in.bytesRead()).isLessThanOrEqualTo(value + 2 * 8);
    }
  }

  /** Format 2.2 packed structs with a variable-width child: one full-zip value per row. */
  @Property(tries = 20)
  void variablePackedStructs(@ForAll("seeds") long seed, @ForAll @IntRange(min = 1, max = 500) int n) throws Exception {
    Random r = new Random(seed);
    Field field = new Field("p", new FieldType(true, ArrowType.Struct.INSTANCE, null, Map.of("packed", "true")),
        List.of(ArrowData.notNull("a", new ArrowType.Int(32, true)), ArrowData.notNull("s", ArrowType.Utf8.INSTANCE)));
    List<byte[]> stored = new ArrayList<>();
    List<Object> expected = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (r.nextInt(6) == 0) {
        stored.add(null);
        expected.add(null);
        continue;
      }
      int a = r.nextInt();
      byte[] s = ("row " + i + " " + "z".repeat(r.nextInt(40))).getBytes(StandardCharsets.UTF_8);
      stored.add(DecodePages.concat(DecodePages.le(a, 4), DecodePages.le(s.length, 4), s));
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("a", a);
      m.put("s", new String(s, StandardCharsets.UTF_8));
      expected.add(m);
    }
    CompressiveEncoding vps = CompressiveEncoding.newBuilder().setVariablePackedStruct(VariablePackedStruct.newBuilder()
        .addFields(VariablePackedStruct.FieldEncoding.newBuilder().setValue(Protos21.flat(32)).setBitsPerValue(32))
        .addFields(VariablePackedStruct.FieldEncoding.newBuilder().setValue(Protos21.variable(32)).setBitsPerLength(32)))
        .build();
    assertTakes(fullZip(field, vps, stored, r), expected, r);
  }

  /** Format 2.2 constant pages: a string value in a buffer, with definition levels beside it. */
  @Property(tries = 20)
  void constantPagesWithValueBuffers(@ForAll("seeds") long seed, @ForAll @IntRange(min = 1, max = 3000) int n)
      throws Exception {
    Random r = new Random(seed);
    byte[] s = ("constant " + r.nextInt()).getBytes(StandardCharsets.UTF_8);
    ByteBuffer value = ByteBuffer.allocate(4 + 8 + 8 + s.length).order(ByteOrder.LITTLE_ENDIAN);
    value.putInt(2).putInt(8).putInt(s.length).putInt(0).putInt(s.length).put(s);
    ByteBuffer def = ByteBuffer.allocate(2 * n).order(ByteOrder.LITTLE_ENDIAN);
    List<Object> expected = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      boolean nul = r.nextInt(3) == 0;
      def.putShort((short) (nul ? 1 : 0));
      expected.add(nul ? null : new String(s, StandardCharsets.UTF_8));
    }
    AllNullLayout layout = AllNullLayout.newBuilder().addLayers(RepDefLayer.REPDEF_NULLABLE_ITEM).build();
    Path f = DecodePages.write(dir.resolve("c" + counter++ + ".lance"), ArrowData.field("x", ArrowType.Utf8.INSTANCE),
        LanceFileVersion.V2_2, new DecodePages.Page(PageLayout.newBuilder().setAllNullLayout(layout).build(), n,
            List.of(value.array(), new byte[0], def.array())));
    assertTakes(f, expected, r);
  }

  /** Format 2.2 constant pages with an inline value and run-length-encoded definition levels. */
  @Property(tries = 20)
  void constantPagesWithEncodedLevels(@ForAll("seeds") long seed, @ForAll @IntRange(min = 1, max = 3000) int n)
      throws Exception {
    Random r = new Random(seed);
    long c = r.nextLong();
    short[] def = new short[n];
    List<Object> expected = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      def[i] = (short) (i > 0 && r.nextInt(10) != 0 ? def[i - 1] : r.nextInt(2));
      expected.add(def[i] == 0 ? c : null);
    }
    // One block of runs: u64 size of the run values, the u16 values, one u8 length per run.
    ByteArrayOutputStream values = new ByteArrayOutputStream();
    ByteArrayOutputStream lengths = new ByteArrayOutputStream();
    for (int i = 0; i < n;) {
      int j = i;
      while (j < n && j - i < 255 && def[j] == def[i]) {
        j++;
      }
      values.write(DecodePages.le(def[i], 2), 0, 2);
      lengths.write(j - i);
      i = j;
    }
    byte[] block = DecodePages.concat(DecodePages.le(values.size(), 8), values.toByteArray(), lengths.toByteArray());
    AllNullLayout layout = AllNullLayout.newBuilder().addLayers(RepDefLayer.REPDEF_NULLABLE_ITEM)
        .setInlineValue(ByteString.copyFrom(DecodePages.le(c, 8))).setDefCompression(MiniBlockDecodeTest.rle(16))
        .setNumDefValues(n).build();
    Path f = DecodePages.write(dir.resolve("c" + counter++ + ".lance"),
        ArrowData.field("x", new ArrowType.Int(64, true)), LanceFileVersion.V2_2,
        new DecodePages.Page(PageLayout.newBuilder().setAllNullLayout(layout).build(), n,
            List.of(new byte[0], block)));
    assertTakes(f, expected, r);
  }

  /** Blob pages: descriptions (position, size) in a mini-block page, the bytes anywhere before. */
  @Property(tries = 20)
  void blobs(@ForAll("seeds") long seed, @ForAll @IntRange(min = 1, max = 60) int n) throws Exception {
    Random r = new Random(seed);
    List<byte[]> blobs = new ArrayList<>();
    ByteBuffer desc = ByteBuffer.allocate(16 * n).order(ByteOrder.LITTLE_ENDIAN);
    List<Object> expected = new ArrayList<>();
    long pos = 0;
    for (int i = 0; i < n; i++) {
      int kind = r.nextInt(5);
      if (kind == 0) {
        desc.putLong(1L << 16).putLong(0);
        expected.add(null);
      } else if (kind == 1) {
        desc.putLong(0).putLong(0);
        expected.add(new byte[0]);
      } else {
        byte[] b = new byte[1 + r.nextInt(5000)];
        r.nextBytes(b);
        blobs.add(b);
        desc.putLong(pos).putLong(b.length);
        pos += (b.length + 63) / 64 * 64;
        expected.add(b);
      }
    }
    CompressiveEncoding ps = CompressiveEncoding.newBuilder().setPackedStruct(PackedStruct.newBuilder()
        .addBitsPerValue(64).addBitsPerValue(64).setValues(Protos21.flat(128))).build();
    List<DecodePages.Chunk> chunks = new ArrayList<>();
    for (int s = 0; s < n; s += 16) {
      int k = Math.min(16, n - s);
      chunks.add(DecodePages.Chunk.of(k, java.util.Arrays.copyOfRange(desc.array(), 16 * s, 16 * (s + k))));
    }
    byte[][] mb = DecodePages.miniBlock(chunks, false);
    PageLayout inner = PageLayout.newBuilder().setMiniBlockLayout(MiniBlockDecodeTest.layout(ps, 1, n)).build();
    BlobLayout layout = BlobLayout.newBuilder().setInnerLayout(inner).addLayers(RepDefLayer.REPDEF_NULLABLE_ITEM)
        .build();
    Field field = new Field("b", new FieldType(true, ArrowType.LargeBinary.INSTANCE, null,
        Map.of("lance-encoding:blob", "true")), List.of());
    Path f = DecodePages.write(dir.resolve("b" + counter++ + ".lance"), field, LanceFileVersion.V2_1, blobs,
        new DecodePages.Page(PageLayout.newBuilder().setBlobLayout(layout).build(), n, List.of(mb)));
    List<Object> plain = new ArrayList<>();
    for (Object o : expected) {
      plain.add(V21Fixtures.plain(o));
    }
    assertTakes(f, plain, r);
  }
}
