package dev.javelin.format.internal.v21;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.google.protobuf.Any;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.exceptions.CorruptFileException;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.format.internal.container.FileMetadata;
import dev.javelin.format.internal.encoding.ColumnSource;
import dev.javelin.format.internal.encoding.FieldDecoder;
import dev.javelin.format.internal.encoding.RowRanges;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;
import dev.javelin.format.proto.Encodings21.Dictionary;
import dev.javelin.format.proto.Encodings21.PageLayout;
import dev.javelin.format.proto.Encodings21.RepDefLayer;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.io.ByteArrayInputFile;
import dev.javelin.testing.ArrowData;
import dev.javelin.testing.TestAllocator;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged 2.1 files fail with {@link CorruptFileException} naming the column and page, never with
 * an index, size or memory error, and never hang.
 */
class V21CorruptionTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private byte[] file(List<Field> fields, int rows, long pageBytes, ArrowData.Gen g) throws Exception {
    Schema schema = new Schema(fields);
    try (VectorSchemaRoot root = ArrowData.root(schema, ArrowData.randomRows(schema, rows, g), allocator)) {
      Path f = V21Fixtures.write(dir.resolve("c" + System.nanoTime() + ".lance"), V21Fixtures.v21(pageBytes), root);
      return Files.readAllBytes(f);
    }
  }

  private static Field f32() {
    return ArrowData.field("item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE));
  }

  // Reads everything in batches and takes a few rows; returns normally or throws.
  private void readAll(byte[] bytes) throws Exception {
    try (LanceFileReader r = LanceFileReader.open(new ByteArrayInputFile(bytes), allocator)) {
      try (ArrowReader it = r.read(ReadOptions.builder().batchSize(500).build())) {
        while (it.loadNextBatch()) {
          it.getVectorSchemaRoot().getRowCount();
        }
      }
      long n = r.numRows();
      try (VectorSchemaRoot t = r.take(new long[] {0, n / 3, n / 2, n - 1}, null)) {
        t.getRowCount();
      }
    }
  }

  @Test
  void flippedDataBytesFailCleanly() throws Exception {
    ArrowData.Gen g = new ArrowData.Gen(11);
    g.nullRate = 0.15;
    g.emptyRate = 0.15;
    List<Field> fields = new ArrayList<>(List.of(
        ArrowData.field("i", new ArrowType.Int(32, true)),
        ArrowData.field("s", ArrowType.Utf8.INSTANCE),
        ArrowData.list("l", ArrowData.field("item", new ArrowType.Int(16, true))),
        ArrowData.fsl("v", 128, f32()),
        ArrowData.fsl("small", 4, ArrowData.field("item", new ArrowType.Int(32, true))),
        ArrowData.field("b", ArrowType.Bool.INSTANCE),
        ArrowData.struct("st", ArrowData.field("x", new ArrowType.Int(64, true)),
            ArrowData.list("ll", ArrowData.list("item", ArrowData.field("item", ArrowType.Utf8.INSTANCE))))));
    byte[] good = file(fields, 1500, 16 * 1024, g);
    ArrowData.Gen wide = new ArrowData.Gen(12);
    wide.minString = 260;
    wide.maxString = 400;
    wide.nullRate = 0.2;
    wide.emptyRate = 0.2;
    byte[] good2 = file(List.of(ArrowData.field("w", ArrowType.Utf8.INSTANCE),
        ArrowData.list("lw", ArrowData.field("item", ArrowType.LargeBinary.INSTANCE))), 400, 64 * 1024, wide);
    readAll(good);
    readAll(good2);
    Random r = new Random(99);
    int corrupt = 0;
    int fine = 0;
    for (byte[] base : List.of(good, good2)) {
      long dataEnd;
      try (ByteArrayInputFile m = new ByteArrayInputFile(base)) {
        dataEnd = FileMetadata.read(m).globalBuffer(0)[0];
      }
      for (int iter = 0; iter < 250; iter++) {
        byte[] bytes = base.clone();
        int flips = 1 + r.nextInt(4);
        for (int k = 0; k < flips; k++) {
          int at = r.nextInt((int) dataEnd);
          bytes[at] = r.nextInt(3) == 0 ? (byte) 0xFF : (byte) (bytes[at] ^ (1 << r.nextInt(8)));
        }
        boolean failed = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
          try {
            readAll(bytes);
            return false;
          } catch (CorruptFileException e) {
            assertThat(e.getMessage()).containsPattern("[Cc]olumn \\d+");
            return true;
          }
        });
        if (failed) {
          corrupt++;
        } else {
          fine++;
        }
      }
    }
    // Most flips land in values (any bytes are valid) or padding; the rest must be caught.
    assertThat(corrupt).isGreaterThan(20);
    assertThat(fine).isGreaterThan(20);
  }

  // ---- Targeted damage, through a ColumnSource over edited metadata and bytes.

  private FieldVector decode(byte[] bytes, UnaryOperator<ColumnMetadata> edit) throws Exception {
    ByteArrayInputFile m = new ByteArrayInputFile(bytes);
    FileMetadata md = FileMetadata.read(m);
    List<ColumnMetadata> cols = new ArrayList<>(md.columns());
    cols.set(0, edit.apply(cols.get(0)));
    ColumnSource src = new ColumnSource(m, md.version(), cols, md.numRows());
    try (FieldDecoder d = V21Encoding.INSTANCE.newDecoder(md.schema().fields().get(0), src)) {
      return d.read(RowRanges.of(0, md.numRows()), allocator);
    }
  }

  private static ColumnMetadata editLayout(ColumnMetadata c, UnaryOperator<PageLayout> edit) {
    try {
      ColumnMetadata.Page p = c.getPages(0);
      Any any = Any.parseFrom(p.getEncoding().getDirect().getEncoding());
      PageLayout l = edit.apply(PageLayout.parseFrom(any.getValue()));
      return c.toBuilder().setPages(0, p.toBuilder().setEncoding(Protos21.direct(l, Protos21.PAGE_LAYOUT_URL))).build();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static long bufferOffset(byte[] bytes, int buffer) throws Exception {
    return FileMetadata.read(new ByteArrayInputFile(bytes)).columns().get(0).getPages(0).getBufferOffsets(buffer);
  }

  private static void putShort(byte[] b, long at, int v) {
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putShort((int) at, (short) v);
  }

  private static void putInt(byte[] b, long at, int v) {
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt((int) at, v);
  }

  private byte[] ints() throws Exception {
    ArrowData.Gen g = new ArrowData.Gen(1);
    return file(List.of(ArrowData.field("i", new ArrowType.Int(32, true))), 5000, 32 << 20, g);
  }

  private void assertCorrupt(byte[] bytes, UnaryOperator<ColumnMetadata> edit, String message) {
    assertThatThrownBy(() -> {
      try (FieldVector v = decode(bytes, edit)) {
        v.getValueCount();
      }
    }).isInstanceOf(CorruptFileException.class).hasMessageContaining("Column 0 page 0").hasMessageContaining(message);
  }

  // Mutates one number of the first column's metadata: a page length, a buffer offset or size, or
  // a field of the page layout.
  private static ColumnMetadata mutate(ColumnMetadata c, Random r) {
    int pageIndex = r.nextInt(c.getPagesCount());
    ColumnMetadata.Page p = c.getPages(pageIndex);
    ColumnMetadata.Page.Builder pb = p.toBuilder();
    long[] nasty = {0, 1, -1, 2, 7, 255, 65536, Integer.MAX_VALUE, Long.MAX_VALUE, 1L << 40};
    long v = r.nextBoolean() ? nasty[r.nextInt(nasty.length)] : r.nextInt(100_000);
    int what = r.nextInt(5);
    if (what == 0) {
      pb.setLength(v);
    } else if (what == 1 && p.getBufferSizesCount() > 0) {
      pb.setBufferSizes(r.nextInt(p.getBufferSizesCount()), v);
    } else if (what == 2 && p.getBufferOffsetsCount() > 0) {
      pb.setBufferOffsets(r.nextInt(p.getBufferOffsetsCount()), v);
    } else {
      try {
        PageLayout l = PageLayout.parseFrom(Any.parseFrom(p.getEncoding().getDirect().getEncoding()).getValue());
        PageLayout.Builder lb = l.toBuilder();
        int k = r.nextInt(6);
        if (l.hasMiniBlockLayout()) {
          var m = lb.getMiniBlockLayoutBuilder();
          switch (k) {
            case 0: m.setNumItems(v); break;
            case 1: m.setNumBuffers(v); break;
            case 2: m.setRepetitionIndexDepth((int) v); break;
            case 3: if (m.getLayersCount() > 0) { m.setLayers(r.nextInt(m.getLayersCount()), RepDefLayer.forNumber(r.nextInt(7))); } break;
            case 4: m.setValueCompression(Protos21.flat(v)); break;
            default: m.clearRepCompression(); break;
          }
        } else if (l.hasFullZipLayout()) {
          var f = lb.getFullZipLayoutBuilder();
          switch (k) {
            case 0: f.setBitsRep((int) v); break;
            case 1: f.setBitsDef((int) v); break;
            case 2: f.setBitsPerValue((int) v); break;
            case 3: f.setBitsPerOffset((int) v); break;
            case 4: if (f.getLayersCount() > 0) { f.setLayers(r.nextInt(f.getLayersCount()), RepDefLayer.forNumber(r.nextInt(7))); } break;
            default: f.setNumItems((int) v); break;
          }
        } else if (l.hasAllNullLayout()) {
          var a = lb.getAllNullLayoutBuilder();
          if (a.getLayersCount() > 0) {
            a.setLayers(r.nextInt(a.getLayersCount()), RepDefLayer.forNumber(r.nextInt(7)));
          }
        }
        pb.setEncoding(Protos21.direct(lb.build(), Protos21.PAGE_LAYOUT_URL));
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }
    return c.toBuilder().setPages(pageIndex, pb).build();
  }

  @Test
  void mutatedPageMetadataFailsCleanly() throws Exception {
    ArrowData.Gen g = new ArrowData.Gen(21);
    g.nullRate = 0.2;
    g.emptyRate = 0.2;
    ArrowData.Gen wide = new ArrowData.Gen(22);
    wide.minString = 260;
    wide.maxString = 300;
    wide.nullRate = 0.2;
    wide.emptyRate = 0.2;
    List<byte[]> files = List.of(
        file(List.of(ArrowData.field("i", new ArrowType.Int(32, true))), 3000, 4096, g),
        file(List.of(ArrowData.list("l", ArrowData.field("item", ArrowType.Utf8.INSTANCE))), 2000, 4096, g),
        file(List.of(ArrowData.list("l", ArrowData.field("item", ArrowType.Utf8.INSTANCE))), 300, 1 << 20, wide),
        file(List.of(ArrowData.fsl("v", 100, f32())), 300, 1 << 20, g),
        file(List.of(ArrowData.struct("st", ArrowData.field("x", new ArrowType.Int(8, true)))), 300, 1 << 20, nulls()));
    Random r = new Random(5);
    for (byte[] bytes : files) {
      for (int iter = 0; iter < 150; iter++) {
        long seed = r.nextLong();
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
          try (FieldVector v = decode(bytes, c -> mutate(c, new Random(seed)))) {
            v.getValueCount();
          } catch (CorruptFileException | UnsupportedFormatException e) {
            assertThat(e.getMessage()).contains("olumn");
          }
        });
      }
    }
  }

  private static ArrowData.Gen nulls() {
    ArrowData.Gen g = new ArrowData.Gen(23);
    g.alwaysNull.add("x");
    return g;
  }

  @Test
  void chunkPastTheBuffer() throws Exception {
    byte[] b = ints();
    putShort(b, bufferOffset(b, 0), 0xFFF0 | 10);
    assertCorrupt(b, c -> c, "past the chunk buffer");
  }

  @Test
  void numLevelsNonsense() throws Exception {
    byte[] b = ints();
    putShort(b, bufferOffset(b, 1), 65535);
    assertCorrupt(b, c -> c, "levels");
  }

  @Test
  void badVariableOffsets() throws Exception {
    ArrowData.Gen g = new ArrowData.Gen(2);
    g.nullRate = 0;
    byte[] b = file(List.of(ArrowData.field("s", ArrowType.Utf8.INSTANCE)), 3000, 32 << 20, g);
    long chunk = bufferOffset(b, 1);
    putInt(b, chunk + 8 + 4 * 3, 0x7FFFFFF0);
    assertCorrupt(b, c -> c, "offset");
  }

  @Test
  void layersThatDoNotFitTheField() throws Exception {
    byte[] b = ints();
    assertCorrupt(b, c -> editLayout(c, l -> l.toBuilder()
        .setMiniBlockLayout(l.getMiniBlockLayout().toBuilder().addLayers(RepDefLayer.REPDEF_NULLABLE_LIST)).build()),
        "layers");
    assertCorrupt(b, c -> editLayout(c, l -> l.toBuilder()
        .setMiniBlockLayout(l.getMiniBlockLayout().toBuilder().setLayers(0, RepDefLayer.REPDEF_UNSPECIFIED)).build()),
        "layer 0");
  }

  @Test
  void inconsistentCounts() throws Exception {
    byte[] b = ints();
    assertCorrupt(b, c -> editLayout(c, l -> l.toBuilder()
        .setMiniBlockLayout(l.getMiniBlockLayout().toBuilder().setNumItems(5001)).build()), "values");
    assertCorrupt(b, c -> editLayout(c, l -> l.toBuilder()
        .setMiniBlockLayout(l.getMiniBlockLayout().toBuilder().setNumBuffers(2)).build()), "buffers");
    assertThatThrownBy(() -> decode(b, c -> c.toBuilder().setPages(0, c.getPages(0).toBuilder().setLength(4000)).build()))
        .isInstanceOf(CorruptFileException.class).hasMessageContaining("Column 0");
    assertCorrupt(b, c -> c.toBuilder().setPages(0, c.getPages(0).toBuilder().setBufferSizes(1, 100)).build(),
        "chunk");
  }

  @Test
  void repetitionIndexThatDoesNotAddUp() throws Exception {
    ArrowData.Gen g = new ArrowData.Gen(3);
    byte[] b = file(List.of(ArrowData.list("l", ArrowData.field("item", new ArrowType.Int(32, true)))), 3000,
        32 << 20, g);
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putLong((int) bufferOffset(b, 2), 1L << 40);
    assertCorrupt(b, c -> c, "repetition index");
  }

  @Test
  void fullZipLengthsAndIndex() throws Exception {
    ArrowData.Gen g = new ArrowData.Gen(4);
    g.minString = 300;
    g.maxString = 300;
    g.nullRate = 0;
    byte[] good = file(List.of(ArrowData.field("w", ArrowType.Utf8.INSTANCE)), 100, 32 << 20, g);
    byte[] b = good.clone();
    putInt(b, bufferOffset(b, 0), 0x10000000);
    assertCorrupt(b, c -> c, "passes the end");
    byte[] b2 = good.clone();
    // 33 KiB of data: the index has 2-byte entries. Point the end past the data.
    putShort(b2, bufferOffset(b2, 1) + 200, 0xFFFF);
    assertCorrupt(b2, c -> c, "repetition index");
  }

  @Test
  void allNullPageWithAValidItem() throws Exception {
    ArrowData.Gen g = new ArrowData.Gen(5);
    g.nullRate = 0;
    g.alwaysNull.add("x");
    byte[] b = file(List.of(ArrowData.struct("st", ArrowData.field("x", new ArrowType.Int(32, true)))), 100,
        32 << 20, g);
    putShort(b, bufferOffset(b, 1) + 6, 0);
    assertCorrupt(b, c -> c, "valid item");
  }

  @Test
  void unsupportedEncodingIsNamed() throws Exception {
    byte[] b = ints();
    // Lance never applies the Dictionary compressive encoding to values or levels (its
    // dictionaries live in the mini-block layout), so Javelin has no decoder for it there.
    CompressiveEncoding bitpacked = CompressiveEncoding.newBuilder()
        .setDictionary(Dictionary.getDefaultInstance()).build();
    assertThatThrownBy(() -> decode(b, c -> editLayout(c, l -> l.toBuilder()
        .setMiniBlockLayout(l.getMiniBlockLayout().toBuilder().setValueCompression(bitpacked)).build())))
        .isInstanceOf(UnsupportedFormatException.class)
        .hasMessageContaining("dictionary")
        .hasMessageContaining("Column 0 page 0");
    assertThatThrownBy(() -> decode(b, c -> editLayout(c, l -> l.toBuilder()
        .setMiniBlockLayout(l.getMiniBlockLayout().toBuilder().setDefCompression(bitpacked)).build())))
        .isInstanceOf(UnsupportedFormatException.class)
        .hasMessageContaining("dictionary");
  }
}
