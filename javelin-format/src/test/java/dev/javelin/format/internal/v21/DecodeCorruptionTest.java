package dev.javelin.format.internal.v21;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.exceptions.CorruptFileException;
import dev.javelin.format.internal.compression.bitpack.InlineBitpackingCodec;
import dev.javelin.format.internal.compression.bitpack.RleCodec;
import dev.javelin.format.internal.compression.fsst.BinaryValues;
import dev.javelin.format.internal.compression.fsst.FsstEncoder;
import dev.javelin.format.internal.compression.fsst.FsstSymbolTable;
import dev.javelin.format.internal.compression.general.GeneralCodec;
import dev.javelin.format.proto.Encodings21.AllNullLayout;
import dev.javelin.format.proto.Encodings21.BlobLayout;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;
import dev.javelin.format.proto.Encodings21.Fsst;
import dev.javelin.format.proto.Encodings21.FullZipLayout;
import dev.javelin.format.proto.Encodings21.MiniBlockLayout;
import dev.javelin.format.proto.Encodings21.PackedStruct;
import dev.javelin.format.proto.Encodings21.PageLayout;
import dev.javelin.format.proto.Encodings21.RepDefLayer;
import dev.javelin.testing.ArrowData;
import dev.javelin.testing.TestAllocator;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pages whose compressed bytes or descriptions lie fail with a {@link CorruptFileException}
 * naming the column and page and saying what is wrong: bit widths wider than the values, symbol
 * tables that do not cover the codes, compressed buffers declaring more bytes than they can hold,
 * runs that stop short, dictionary indices past the dictionary, value buffers that do not parse,
 * blobs outside the file. None of them may allocate what the lie asks for.
 */
class DecodeCorruptionTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;
  int counter;

  private static final Field INT32 = ArrowData.field("x", new ArrowType.Int(32, true));
  private static final Field UTF8 = ArrowData.field("x", ArrowType.Utf8.INSTANCE);

  private Path write(Field field, LanceFileVersion version, DecodePages.Page page) throws Exception {
    return DecodePages.write(dir.resolve("c" + counter++ + ".lance"), field, version, page);
  }

  private Path write(Field field, DecodePages.Page page) throws Exception {
    return write(field, LanceFileVersion.V2_1, page);
  }

  /**
   * Scanning and taking the last, middle and first rows both fail; the message names the page and
   * contains {@code what}.
   */
  private void assertCorrupt(Path f, String what) {
    assertThatThrownBy(() -> {
      try (LanceFileReader r = LanceFileReader.open(f, allocator);
          ArrowReader it = r.read(ReadOptions.builder().build())) {
        while (it.loadNextBatch()) {
          it.getVectorSchemaRoot();
        }
      }
    }).isInstanceOf(CorruptFileException.class).hasMessageContaining("Column 0 page 0").hasMessageContaining(what);
    assertThatThrownBy(() -> {
      try (LanceFileReader r = LanceFileReader.open(f, allocator);
          VectorSchemaRoot t = r.take(new long[] {r.numRows() - 1, r.numRows() / 2, 0}, null)) {
        t.getRowCount();
      }
    }).isInstanceOf(CorruptFileException.class).hasMessageContaining(what);
  }

  private static int[] ints(int n) {
    int[] v = new int[n];
    for (int i = 0; i < n; i++) {
      v[i] = i * 7 % 1000;
    }
    return v;
  }

  private DecodePages.Page inlinePage(int n, java.util.function.Consumer<List<DecodePages.Chunk>> damage) {
    List<DecodePages.Chunk> chunks = DecodePages.chunks(InlineBitpackingCodec.encode(ints(n), 0, n));
    damage.accept(chunks);
    return MiniBlockDecodeTest.page(MiniBlockDecodeTest.layout(MiniBlockDecodeTest.inline(32), 1, n), n, chunks);
  }

  @Test
  void bitWidthWiderThanTheValues() throws Exception {
    Path f = write(INT32, inlinePage(3000, c -> ByteBuffer.wrap(c.get(1).buffers[0]).order(ByteOrder.LITTLE_ENDIAN)
        .putInt(0, 40)));
    assertCorrupt(f, "40 bits");
  }

  @Test
  void bitPackedBlockShorterThanItsWidthSays() throws Exception {
    Path f = write(INT32, inlinePage(3000, c -> ByteBuffer.wrap(c.get(0).buffers[0]).order(ByteOrder.LITTLE_ENDIAN)
        .putInt(0, 31)));
    assertCorrupt(f, "passes the end");
  }

  @Test
  void chunkBufferSizePastTheChunk() throws Exception {
    // Large-chunk grammar: a u32 buffer size of 2^31 in the first chunk's header.
    List<DecodePages.Chunk> chunks = DecodePages.chunks(InlineBitpackingCodec.encode(ints(3000), 0, 3000));
    MiniBlockLayout.Builder l = MiniBlockDecodeTest.layout(MiniBlockDecodeTest.inline(32), 1, 3000).setHasLargeChunk(true);
    byte[][] mb = DecodePages.miniBlock(chunks, true);
    ByteBuffer.wrap(mb[1]).order(ByteOrder.LITTLE_ENDIAN).putInt(2, Integer.MIN_VALUE);
    Path f = write(INT32, LanceFileVersion.V2_2,
        new DecodePages.Page(PageLayout.newBuilder().setMiniBlockLayout(l).build(), 3000, List.of(mb)));
    assertCorrupt(f, "declares more bytes");
  }

  @Test
  void runsThatStopShort() throws Exception {
    int n = 2000;
    List<DecodePages.Chunk> chunks = DecodePages.chunks(RleCodec.encode(ints(n), 0, n));
    byte[] lengths = chunks.get(0).buffers[1];
    lengths[0] = 0;
    Path f = write(INT32, MiniBlockDecodeTest.page(MiniBlockDecodeTest.layout(MiniBlockDecodeTest.rle(32), 2, n), n,
        chunks));
    assertCorrupt(f, "runs cover");
  }

  private DecodePages.Page fsstPage(byte[] table, List<byte[]> codes) {
    CompressiveEncoding fsst = CompressiveEncoding.newBuilder().setFsst(Fsst.newBuilder()
        .setSymbolTable(ByteString.copyFrom(table)).setValues(Protos21.variable(32))).build();
    return MiniBlockDecodeTest.page(MiniBlockDecodeTest.layout(fsst, 1, codes.size()), codes.size(),
        List.of(DecodePages.Chunk.of(codes.size(), DecodePages.variableChunk(codes))));
  }

  @Test
  void symbolTableThatLies() throws Exception {
    byte[][] words = {"alpha".getBytes(), "alphabet".getBytes(), "beta".getBytes(), "alphabeta".getBytes()};
    FsstEncoder enc = FsstEncoder.train(BinaryValues.of(words));
    List<byte[]> codes = new ArrayList<>();
    BinaryValues c = enc.compress(BinaryValues.of(words));
    for (int i = 0; i < c.count(); i++) {
      codes.add(c.value(i));
    }
    // The same codes with a table of one symbol: codes past it are not defined.
    byte[] small = FsstSymbolTable.of("a".getBytes()).serialize();
    codes.add(new byte[] {(byte) 200});
    assertCorrupt(write(UTF8, fsstPage(small, codes)), "the symbol table has 1 symbols");
    // A table that is not one.
    byte[] garbage = enc.table().serialize();
    garbage[7] ^= 0x55;
    assertCorrupt(write(UTF8, fsstPage(garbage, codes)), "symbol table");
  }

  private DecodePages.Page zstdStringPage(byte[] compressedChunk, int n) {
    CompressiveEncoding e = MiniBlockDecodeTest.general(GeneralCodec.Scheme.ZSTD, Protos21.variable(32));
    return MiniBlockDecodeTest.page(MiniBlockDecodeTest.layout(e, 1, n), n,
        List.of(DecodePages.Chunk.of(n, compressedChunk)));
  }

  @Test
  void compressedBuffersThatDeclareTooMuch() throws Exception {
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      values.add(("value " + i).getBytes(StandardCharsets.UTF_8));
    }
    byte[] raw = DecodePages.variableChunk(values);
    byte[] z = GeneralCodec.zstd().compress(raw, 0, raw.length);
    // The u64 length prefix claims a terabyte: refused before any allocation.
    byte[] huge = z.clone();
    ByteBuffer.wrap(huge).order(ByteOrder.LITTLE_ENDIAN).putLong(0, 1L << 40);
    assertCorrupt(write(UTF8, zstdStringPage(huge, 100)), "bytes");
    // A prefix that disagrees with the frame's own content size.
    byte[] off = z.clone();
    ByteBuffer.wrap(off).order(ByteOrder.LITTLE_ENDIAN).putLong(0, raw.length + 1);
    assertCorrupt(write(UTF8, zstdStringPage(off, 100)), "frame");
    // LZ4: a u32 prefix of 4 GiB for a few hundred bytes.
    byte[] lz = GeneralCodec.lz4().compress(raw, 0, raw.length);
    ByteBuffer.wrap(lz).order(ByteOrder.LITTLE_ENDIAN).putInt(0, -16);
    CompressiveEncoding e = MiniBlockDecodeTest.general(GeneralCodec.Scheme.LZ4, Protos21.variable(32));
    assertCorrupt(write(UTF8, MiniBlockDecodeTest.page(MiniBlockDecodeTest.layout(e, 1, 100), 100,
        List.of(DecodePages.Chunk.of(100, lz)))), "LZ4");
  }

  private DecodePages.Page dictionaryPage(long[] indices, List<byte[]> dict, long declaredItems, byte[] block) {
    MiniBlockLayout.Builder l = MiniBlockDecodeTest.layout(MiniBlockDecodeTest.inline(32), 1, indices.length)
        .setDictionary(Protos21.variable(32)).setNumDictionaryItems(declaredItems);
    return MiniBlockDecodeTest.page(l, indices.length,
        DecodePages.chunks(MiniBlockDecodeTest.encodeInline(indices, 32)), block);
  }

  @Test
  void dictionaryIndicesAndItemsThatLie() throws Exception {
    List<byte[]> dict = List.of("a".getBytes(), "b".getBytes(), "c".getBytes());
    long[] indices = new long[500];
    for (int i = 0; i < indices.length; i++) {
      indices[i] = i % 3;
    }
    indices[444] = 9;
    assertCorrupt(write(UTF8, dictionaryPage(indices, dict, 3, DecodePages.variableBlock(dict))), "dictionary index 9");
    indices[444] = 1;
    assertCorrupt(write(UTF8, dictionaryPage(indices, dict, 4, DecodePages.variableBlock(dict))), "dictionary");
    byte[] block = DecodePages.variableBlock(dict);
    ByteBuffer.wrap(block).order(ByteOrder.LITTLE_ENDIAN).putInt(4, 9999);
    assertCorrupt(write(UTF8, dictionaryPage(indices, dict, 3, block)), "bytes start");
  }

  @Test
  void levelsWiderThanSixteenBits() throws Exception {
    MiniBlockLayout.Builder l = MiniBlockDecodeTest.layout(MiniBlockDecodeTest.flat(32), 1, 10,
        RepDefLayer.REPDEF_NULLABLE_ITEM).setDefCompression(MiniBlockDecodeTest.outOfLine(16, 17));
    Path f = write(INT32, MiniBlockDecodeTest.page(l, 10, List.of(new DecodePages.Chunk(10, 10, null, new byte[32],
        new byte[40]))));
    assertCorrupt(f, "17 bits");
  }

  @Test
  void levelsShorterThanTheirCount() throws Exception {
    MiniBlockLayout.Builder l = MiniBlockDecodeTest.layout(MiniBlockDecodeTest.flat(32), 1, 2000,
        RepDefLayer.REPDEF_NULLABLE_ITEM).setDefCompression(MiniBlockDecodeTest.outOfLine(16, 1));
    Path f = write(INT32, MiniBlockDecodeTest.page(l, 2000, List.of(new DecodePages.Chunk(2000, 2000, null,
        new byte[64], new byte[8000]))));
    assertCorrupt(f, "levels");
  }

  @Test
  void constantsOfTheWrongWidth() throws Exception {
    AllNullLayout inline = AllNullLayout.newBuilder().addLayers(RepDefLayer.REPDEF_ALL_VALID_ITEM)
        .setInlineValue(ByteString.copyFrom(new byte[3])).build();
    assertCorrupt(write(INT32, LanceFileVersion.V2_2, new DecodePages.Page(
        PageLayout.newBuilder().setAllNullLayout(inline).build(), 10, List.of())), "3-byte value");
    // A value buffer for a string that declares three buffers.
    byte[] value = DecodePages.concat(DecodePages.le(3, 4), DecodePages.le(0, 4), DecodePages.le(0, 4),
        DecodePages.le(0, 4));
    AllNullLayout buffered = AllNullLayout.newBuilder().addLayers(RepDefLayer.REPDEF_ALL_VALID_ITEM).build();
    assertCorrupt(write(UTF8, LanceFileVersion.V2_2, new DecodePages.Page(
        PageLayout.newBuilder().setAllNullLayout(buffered).build(), 10, List.of(value))), "buffers");
  }

  @Test
  void blobsOutsideTheFile() throws Exception {
    ByteBuffer desc = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
    desc.putLong(0).putLong(0).putLong(1L << 40).putLong(100);
    CompressiveEncoding ps = CompressiveEncoding.newBuilder().setPackedStruct(PackedStruct.newBuilder()
        .addBitsPerValue(64).addBitsPerValue(64).setValues(Protos21.flat(128))).build();
    byte[][] mb = DecodePages.miniBlock(List.of(DecodePages.Chunk.of(2, desc.array())), false);
    BlobLayout layout = BlobLayout.newBuilder().addLayers(RepDefLayer.REPDEF_NULLABLE_ITEM)
        .setInnerLayout(PageLayout.newBuilder().setMiniBlockLayout(MiniBlockDecodeTest.layout(ps, 1, 2))).build();
    Field field = new Field("b", new FieldType(true, ArrowType.LargeBinary.INSTANCE, null,
        Map.of("lance-encoding:blob", "true")), List.of());
    Path f = write(field, new DecodePages.Page(PageLayout.newBuilder().setBlobLayout(layout).build(), 2, List.of(mb)));
    assertCorrupt(f, "passes the end of the file");
  }

  @Test
  void fullZipValueWithAnUndefinedCode() throws Exception {
    byte[] table = FsstSymbolTable.of("ab".getBytes(), "cd".getBytes()).serialize();
    List<byte[]> stored = List.of(new byte[] {0, 1, 0}, new byte[] {1, (byte) 254});
    byte[][] zipped = FullZipDecodeTest.zip(stored, 1);
    FullZipLayout layout = FullZipLayout.newBuilder().setBitsDef(1).setBitsPerOffset(32).setNumItems(2)
        .setNumVisibleItems(2).addLayers(RepDefLayer.REPDEF_NULLABLE_ITEM).setValueCompression(
            CompressiveEncoding.newBuilder().setFsst(Fsst.newBuilder().setSymbolTable(ByteString.copyFrom(table))
                .setValues(Protos21.variable(32)))).build();
    Path f = write(UTF8, new DecodePages.Page(PageLayout.newBuilder().setFullZipLayout(layout).build(), 2,
        List.of(zipped)));
    assertThatThrownBy(() -> {
      try (LanceFileReader r = LanceFileReader.open(f, allocator); VectorSchemaRoot t = r.take(new long[] {1}, null)) {
        t.getRowCount();
      }
    }).isInstanceOf(CorruptFileException.class).hasMessageContaining("Column 0 page 0").hasMessageContaining("code 254");
  }

  /**
   * An item count of a billion must not make the reader allocate a billion values; a dictionary
   * of a billion items is beyond what Javelin reads.
   */
  @Test
  void itemCountsThatLie() throws Exception {
    List<DecodePages.Chunk> chunks = DecodePages.chunks(InlineBitpackingCodec.encode(ints(3000), 0, 3000));
    MiniBlockLayout.Builder l = MiniBlockDecodeTest.layout(MiniBlockDecodeTest.inline(32), 1, 1_000_000_000L);
    assertCorrupt(write(INT32, MiniBlockDecodeTest.page(l, 3000, chunks)), "chunks hold at most");
    List<byte[]> dict = List.of("a".getBytes(), "b".getBytes());
    long[] indices = new long[100];
    Path f = write(UTF8, dictionaryPage(indices, dict, 1_000_000_000L, DecodePages.variableBlock(dict)));
    assertThatThrownBy(() -> V21Fixtures.readAll(allocator, f, 100))
        .isInstanceOf(dev.javelin.format.exceptions.UnsupportedFormatException.class).hasMessageContaining("dictionary of");
  }

  @Test
  void nonFinalChunkWithoutAPowerOfTwoCount() throws Exception {
    List<DecodePages.Chunk> chunks = DecodePages.chunks(InlineBitpackingCodec.encode(ints(3000), 0, 3000));
    byte[][] mb = DecodePages.miniBlock(chunks, false);
    mb[0][0] &= (byte) 0xF0;
    MiniBlockLayout.Builder l = MiniBlockDecodeTest.layout(MiniBlockDecodeTest.inline(32), 1, 3000);
    Path f = write(INT32, new DecodePages.Page(PageLayout.newBuilder().setMiniBlockLayout(l).build(), 3000,
        List.of(mb)));
    assertCorrupt(f, "power-of-two");
  }
}
