package dev.javelin.format.internal.v20;

import static dev.javelin.testing.RandomBatches.INT32;
import static dev.javelin.testing.RandomBatches.UTF8;
import static dev.javelin.testing.RandomBatches.field;
import static dev.javelin.testing.RandomBatches.item;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.WriteOptions;
import dev.javelin.format.proto.Encodings20.ArrayEncoding;
import dev.javelin.format.proto.Encodings20.ColumnEncoding;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.io.LocalInputFile;
import dev.javelin.testing.RandomBatches;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pages Javelin writes have the shapes Lance's 2.0 writer gives them (checked against files
 * lance-core 7.0.0 wrote; see V20SmokeTest in javelin-compat for the reverse direction).
 */
class V20LayoutTest {
  @TempDir Path dir;
  @TestAllocator private BufferAllocator allocator;

  private static ArrayEncoding page(ColumnMetadata c, int i) throws IOException {
    Any any = Any.parseFrom(c.getPages(i).getEncoding().getDirect().getEncoding());
    assertThat(any.getTypeUrl()).isEqualTo("/lance.encodings.ArrayEncoding");
    return ArrayEncoding.parseFrom(any.getValue());
  }

  private static long[] longs(Path file, ColumnMetadata c, int page, int buffer) throws IOException {
    try (LocalInputFile in = LocalInputFile.open(file)) {
      ByteBuffer b = in.read(c.getPages(page).getBufferOffsets(buffer), (int) c.getPages(page).getBufferSizes(buffer));
      long[] out = new long[b.remaining() / 8];
      for (int i = 0; i < out.length; i++) {
        out[i] = b.getLong(i * 8);
      }
      return out;
    }
  }

  @Test
  void listsStructsAndStringsLookLikeLances() throws IOException {
    Schema schema = new Schema(List.of(
        field("l", ArrowType.List.INSTANCE, item(INT32)),
        field("s", ArrowType.Struct.INSTANCE, field("a", INT32), field("b", UTF8)),
        field("str", UTF8),
        field("n", INT32)));
    Path file = dir.resolve("layout.lance");
    LanceFileWriter writer = null;
    for (int batch = 0; batch < 2; batch++) {
      try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
        // l = [[1, 2], null, [], [3]]
        ListVector l = (ListVector) root.getVector("l");
        l.allocateNew();
        IntVector items = (IntVector) l.getDataVector();
        items.allocateNew(3);
        items.set(0, 1);
        items.set(1, 2);
        items.set(2, 3);
        items.setValueCount(3);
        l.startNewValue(0);
        l.endValue(0, 2);
        l.setNull(1);
        l.startNewValue(2);
        l.endValue(2, 0);
        l.startNewValue(3);
        l.endValue(3, 1);
        l.setValueCount(4);
        StructVector s = (StructVector) root.getVector("s");
        RandomBatches.populate(s, 4, new java.util.Random(1), 0.2);
        VarCharVector str = (VarCharVector) root.getVector("str");
        str.allocateNew();
        str.setSafe(0, "ab".getBytes());
        str.setNull(1);
        str.setSafe(2, "".getBytes());
        str.setSafe(3, "cde".getBytes());
        str.setValueCount(4);
        IntVector n = (IntVector) root.getVector("n");
        n.allocateNew(4);
        n.setValueCount(4);
        root.setRowCount(4);
        if (writer == null) {
          writer = LanceFileWriter.create(file, RandomBatches.vectorSchema(root), V20Files.options(1 << 20));
        }
        writer.write(root);
      }
    }
    writer.close();

    try (LanceFileReader reader = LanceFileReader.open(file, allocator)) {
      List<ColumnMetadata> cols = reader.metadata().columns();
      // Pre-order: l, l.item, s (header), s.a, s.b, str, n.
      assertThat(cols).hasSize(7);
      assertThat(reader.metadata().version()).isEqualTo(LanceFileVersion.V2_0);
      for (ColumnMetadata c : cols) {
        Any any = Any.parseFrom(c.getEncoding().getDirect().getEncoding());
        assertThat(any.getTypeUrl()).isEqualTo("/lance.encodings.ColumnEncoding");
        assertThat(ColumnEncoding.parseFrom(any.getValue()).hasValues()).isTrue();
        for (ColumnMetadata.Page p : c.getPagesList()) {
          assertThat(p.getPriority()).isZero();
          assertThat(p.getBufferOffsetsList()).allSatisfy(o -> assertThat(o % 64).isZero());
        }
      }

      // Both batches went into one page; offsets are end offsets with no leading 0, a null list
      // adds num_items + 1.
      ArrayEncoding list = page(cols.get(0), 0);
      assertThat(cols.get(0).getPagesCount()).isEqualTo(1);
      assertThat(cols.get(0).getPages(0).getLength()).isEqualTo(8);
      assertThat(list.getList().getNumItems()).isEqualTo(6);
      assertThat(list.getList().getNullOffsetAdjustment()).isEqualTo(7);
      assertThat(list.getList().getOffsets().getNullable().getNoNulls().getValues().getFlat().getBitsPerValue())
          .isEqualTo(64);
      assertThat(longs(file, cols.get(0), 0, 0)).containsExactly(2, 9, 2, 3, 5, 12, 5, 6);
      assertThat(cols.get(1).getPages(0).getLength()).isEqualTo(6);
      assertThat(page(cols.get(1), 0).getNullable().hasNoNulls()).isTrue();

      // The struct header: one page over all rows, SimpleStruct, no buffers.
      assertThat(cols.get(2).getPagesCount()).isEqualTo(1);
      assertThat(cols.get(2).getPages(0).getLength()).isEqualTo(8);
      assertThat(cols.get(2).getPages(0).getBufferOffsetsCount()).isZero();
      assertThat(page(cols.get(2), 0).hasStruct()).isTrue();

      // Strings: u64 cumulative ends, a null adds total bytes + 1; bytes in buffer 1.
      ArrayEncoding str = page(cols.get(5), 0);
      assertThat(str.getBinary().getNullAdjustment()).isEqualTo(11);
      assertThat(str.getBinary().getIndices().getNullable().getNoNulls().getValues().getFlat().getBitsPerValue())
          .isEqualTo(64);
      assertThat(str.getBinary().getBytes().getFlat().getBuffer().getBufferIndex()).isEqualTo(1);
      assertThat(longs(file, cols.get(5), 0, 0)).containsExactly(2, 13, 2, 5, 7, 18, 7, 10);

      // A column with no values set is all null: no buffers.
      assertThat(page(cols.get(6), 0).getNullable().hasAllNulls()).isTrue();
      assertThat(cols.get(6).getPages(0).getBufferOffsetsCount()).isZero();
    }
  }

  @Test
  void nullableValuesHaveValidityThenValues() throws IOException {
    Path file = dir.resolve("v.lance");
    Schema schema = new Schema(List.of(field("i", INT32), field("v", new ArrowType.FixedSizeList(2), item(INT32))));
    List<List<Object>> expected = V20Files.write(file, schema, new int[] {50}, 5, V20Files.options(1 << 20), allocator);
    try (LanceFileReader reader = LanceFileReader.open(file, allocator)) {
      ArrayEncoding i = page(reader.metadata().columns().get(0), 0);
      assertThat(i.getNullable().getSomeNulls().getValidity().getFlat().getBitsPerValue()).isEqualTo(1);
      assertThat(i.getNullable().getSomeNulls().getValidity().getFlat().getBuffer().getBufferIndex()).isZero();
      assertThat(i.getNullable().getSomeNulls().getValues().getFlat().getBitsPerValue()).isEqualTo(32);
      assertThat(i.getNullable().getSomeNulls().getValues().getFlat().getBuffer().getBufferIndex()).isEqualTo(1);
      ArrayEncoding v = page(reader.metadata().columns().get(1), 0);
      ArrayEncoding fsl = v.getNullable().getSomeNulls().getValues();
      assertThat(fsl.getFixedSizeList().getDimension()).isEqualTo(2);
      ArrayEncoding items = fsl.getFixedSizeList().getItems();
      assertThat(items.getNullable().getSomeNulls().getValidity().getFlat().getBuffer().getBufferIndex()).isEqualTo(1);
      assertThat(items.getNullable().getSomeNulls().getValues().getFlat().getBuffer().getBufferIndex()).isEqualTo(2);
      assertThat(V20Files.read(reader, ReadOptions.all())).isEqualTo(expected);
    }
  }

  @Test
  void pagesAreSplitAtMaxPageBytes() throws IOException {
    Path file = dir.resolve("split.lance");
    Schema schema = new Schema(List.of(field("x", new ArrowType.Int(64, true))));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        LanceFileWriter writer = LanceFileWriter.create(file, schema, V20Files.options(1024))) {
      BigIntVector x = (BigIntVector) root.getVector(0);
      x.allocateNew(1000);
      for (int i = 0; i < 1000; i++) {
        x.set(i, i);
      }
      root.setRowCount(1000);
      writer.write(root);
    }
    try (LanceFileReader reader = LanceFileReader.open(file, allocator)) {
      ColumnMetadata c = reader.metadata().columns().get(0);
      assertThat(c.getPagesCount()).isBetween(7, 9);
      long rows = 0;
      for (ColumnMetadata.Page p : c.getPagesList()) {
        assertThat(p.getBufferSizesList().stream().mapToLong(Long::longValue).sum()).isLessThanOrEqualTo(1024 + 64);
        rows += p.getLength();
      }
      assertThat(rows).isEqualTo(1000);
    }
  }

  @Test
  void itemPagesNeverSpanTwoOffsetsPages() throws IOException {
    // Lance's 2.0 reader cannot share an items page between offsets pages.
    Path file = dir.resolve("items.lance");
    Schema schema = new Schema(List.of(field("l", ArrowType.List.INSTANCE, item(ArrowType.Binary.INSTANCE))));
    V20Files.write(file, schema, new int[] {400, 300}, 9, V20Files.options(1024), allocator);
    try (LanceFileReader reader = LanceFileReader.open(file, allocator)) {
      List<ColumnMetadata> cols = reader.metadata().columns();
      Set<Long> itemBoundaries = new HashSet<>();
      long at = 0;
      for (ColumnMetadata.Page p : cols.get(1).getPagesList()) {
        at += p.getLength();
        itemBoundaries.add(at);
      }
      List<Long> offsetBoundaries = new ArrayList<>();
      long items = 0;
      for (int i = 0; i < cols.get(0).getPagesCount(); i++) {
        items += page(cols.get(0), i).getList().getNumItems();
        offsetBoundaries.add(items);
      }
      assertThat(cols.get(0).getPagesCount()).isGreaterThan(1);
      assertThat(cols.get(1).getPagesCount()).isGreaterThan(cols.get(0).getPagesCount());
      assertThat(itemBoundaries).containsAll(offsetBoundaries);
    }
  }

  @Test
  void lowCardinalityStringPagesAreDictionaries() throws IOException {
    Schema schema = new Schema(List.of(field("lowcard", UTF8), field("utf8", UTF8)));
    Path dict = dir.resolve("dict.lance");
    List<List<Object>> expected = V20Files.write(dict, schema, new int[] {1000}, 3, V20Files.options(1 << 20), allocator);
    try (LanceFileReader reader = LanceFileReader.open(dict, allocator)) {
      ArrayEncoding low = page(reader.metadata().columns().get(0), 0);
      assertThat(low.hasDictionary()).isTrue();
      assertThat(low.getDictionary().getNumDictionaryItems()).isEqualTo(5);
      assertThat(low.getDictionary().getIndices().getNullable().getNoNulls().getValues().getFlat().getBitsPerValue())
          .isEqualTo(8);
      assertThat(page(reader.metadata().columns().get(1), 0).hasBinary()).isTrue();
      assertThat(V20Files.read(reader, ReadOptions.builder().batchSize(99).build())).isEqualTo(expected);
      long[] take = {999, 0, 500, 500};
      assertThat(V20Files.take(reader, take, null)).isEqualTo(V20Files.pick(expected, take));
    }

    Path plain = dir.resolve("plain.lance");
    WriteOptions noDict = WriteOptions.builder().version(LanceFileVersion.V2_0).dictionaryEncoding(false).build();
    V20Files.write(plain, schema, new int[] {1000}, 3, noDict, allocator);
    try (LanceFileReader reader = LanceFileReader.open(plain, allocator)) {
      assertThat(page(reader.metadata().columns().get(0), 0).hasBinary()).isTrue();
      assertThat(V20Files.read(reader, ReadOptions.all())).isEqualTo(expected);
    }
  }
}
