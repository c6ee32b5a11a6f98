package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.WriteOptions;
import dev.javelin.format.proto.Encodings20.ArrayEncoding;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.util.Range;

/**
 * Lance file format 2.0 between Javelin and lance-core 7.0.0, both ways, for every type Javelin
 * writes: nulls at every level, empty and null lists, all-null columns, many pages, and (from
 * lance-core) dictionary-encoded strings.
 */
class V20SmokeTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  @Test
  void lanceReadsWhatJavelinWrites() throws Exception {
    Path file = dir.resolve("javelin.lance");
    List<List<Object>> expected = new ArrayList<>();
    Random random = new Random(42);
    WriteOptions options = WriteOptions.builder().version(LanceFileVersion.V2_0).maxPageBytes(4096).build();
    dev.javelin.format.LanceFileWriter writer = null;
    try {
      for (int rows : new int[] {700, 0, 1, 1300}) {
        try (VectorSchemaRoot batch = Values.batch(Values.schema(), rows, random, allocator)) {
          if (writer == null) {
            writer = dev.javelin.format.LanceFileWriter.create(file, Values.vectorSchema(batch), options);
          }
          writer.write(batch);
          Values.append(expected, Values.canon(batch));
        }
      }
      writer.close();
    } catch (Exception e) {
      writer.abort();
      throw e;
    }
    try (dev.javelin.format.LanceFileReader javelin = dev.javelin.format.LanceFileReader.open(file, allocator)) {
      assertThat(javelin.metadata().columns().get(4).getPagesCount()).as("i64 pages").isGreaterThan(3);
      // Javelin's writer dictionary-encodes low-cardinality pages too: lance-core must decode them.
      int lowcard = javelin.lanceSchema().fields().indexOf(javelin.lanceSchema().field("lowcard").orElseThrow());
      assertThat(firstPage(javelin, lowcard).hasDictionary()).isTrue();
    }

    try (org.lance.file.LanceFileReader lance = org.lance.file.LanceFileReader.open(file.toString(), allocator)) {
      assertThat(lance.numRows()).isEqualTo(2001);
      assertThat(lanceRead(lance, null, 333)).isEqualTo(expected);
      List<Range> ranges = List.of(Range.of(5, 9), Range.of(690, 1710), Range.of(2000, 2001));
      List<List<Object>> want = new ArrayList<>();
      for (List<Object> col : expected) {
        List<Object> c = new ArrayList<>(col.subList(5, 9));
        c.addAll(col.subList(690, 1710));
        c.addAll(col.subList(2000, 2001));
        want.add(c);
      }
      assertThat(lanceRead(lance, ranges, 100)).isEqualTo(want);
    }
  }

  @Test
  void javelinReadsWhatLanceWrites() throws Exception {
    Path file = dir.resolve("lance.lance");
    List<List<Object>> expected = new ArrayList<>();
    Random random = new Random(7);
    Schema schema = Values.schema();
    try (org.lance.file.LanceFileWriter lance =
        org.lance.file.LanceFileWriter.open(file.toString(), allocator, null, Optional.of("2.0"), Map.of())) {
      for (int rows : new int[] {1200, 1, 0, 800}) {
        try (VectorSchemaRoot batch = Values.batch(schema, rows, random, allocator)) {
          lance.write(batch);
          Values.append(expected, Values.canon(batch));
        }
      }
    }

    try (dev.javelin.format.LanceFileReader javelin = dev.javelin.format.LanceFileReader.open(file, allocator)) {
      assertThat(javelin.version()).isEqualTo(LanceFileVersion.V2_0);
      assertThat(javelin.numRows()).isEqualTo(2001);
      // lance-core dictionary-encodes the low-cardinality strings: Javelin must decode that.
      int lowcard = javelin.lanceSchema().fields().indexOf(javelin.lanceSchema().field("lowcard").orElseThrow());
      assertThat(firstPage(javelin, lowcard).hasDictionary()).isTrue();

      for (int batchSize : new int[] {5000, 97}) {
        assertThat(javelinRead(javelin, ReadOptions.builder().batchSize(batchSize).build())).isEqualTo(expected);
      }
      List<List<Object>> want = new ArrayList<>();
      for (List<Object> col : expected) {
        want.add(new ArrayList<>(col.subList(1150, 1260)));
      }
      assertThat(javelinRead(javelin, ReadOptions.builder().rows(1150, 1260).batchSize(40).build())).isEqualTo(want);
      long[] rows = {2000, 3, 1200, 1201, 3};
      try (VectorSchemaRoot taken = javelin.take(rows, Values.reorderable())) {
        List<List<Object>> got = Values.canon(taken);
        for (int c = 0; c < got.size(); c++) {
          List<Object> col = expected.get(schema.getFields().indexOf(schema.findField(Values.reorderable().get(c))));
          for (int i = 0; i < rows.length; i++) {
            assertThat(got.get(c).get(i)).as("%s row %d", Values.reorderable().get(c), rows[i])
                .isEqualTo(col.get((int) rows[i]));
          }
        }
      }
    }
  }

  @Test
  void javelinReadsStringsLanceCompressed() throws Exception {
    Path file = dir.resolve("compressed.lance");
    Schema schema = new Schema(List.of(
        compressed(Values.field("zstd_utf8", ArrowType.Utf8.INSTANCE), "zstd"),
        compressed(Values.field("lz4_large_binary", ArrowType.LargeBinary.INSTANCE), "lz4"),
        compressed(Values.field("zstd_binary", ArrowType.Binary.INSTANCE), "zstd")));
    List<List<Object>> expected = new ArrayList<>();
    Random random = new Random(9);
    try (org.lance.file.LanceFileWriter lance =
        org.lance.file.LanceFileWriter.open(file.toString(), allocator, null, Optional.of("2.0"), Map.of())) {
      for (int rows : new int[] {900, 300}) {
        try (VectorSchemaRoot batch = Values.batch(schema, rows, random, allocator)) {
          lance.write(batch);
          Values.append(expected, Values.canon(batch));
        }
      }
    }
    try (dev.javelin.format.LanceFileReader javelin = dev.javelin.format.LanceFileReader.open(file, allocator)) {
      ArrayEncoding page = firstPage(javelin, 0);
      assertThat(page.getBinary().getBytes().getFlat().getCompression().getScheme()).isEqualTo("zstd");
      assertThat(firstPage(javelin, 1).getBinary().getBytes().getFlat().getCompression().getScheme()).isEqualTo("lz4");
      assertThat(javelinRead(javelin, ReadOptions.builder().batchSize(128).build())).isEqualTo(expected);
      long[] rows = {1199, 0, 650};
      try (VectorSchemaRoot taken = javelin.take(rows, null)) {
        List<List<Object>> got = Values.canon(taken);
        for (int c = 0; c < got.size(); c++) {
          for (int i = 0; i < rows.length; i++) {
            assertThat(got.get(c).get(i)).isEqualTo(expected.get(c).get((int) rows[i]));
          }
        }
      }
    }
  }

  private static Field compressed(Field f, String scheme) {
    return new Field(f.getName(), new FieldType(true, f.getType(), null,
        Map.of("lance-encoding:compression", scheme)), f.getChildren());
  }

  // The encoding of the first page of a top-level field's first column (2.0: one column per field).
  private static ArrayEncoding firstPage(dev.javelin.format.LanceFileReader reader, int fieldIndex)
      throws Exception {
    int c = 0;
    for (int i = 0; i < fieldIndex; i++) {
      c += reader.lanceSchema().fields().get(i).flatten().size();
    }
    ColumnMetadata column = reader.metadata().columns().get(c);
    return ArrayEncoding.parseFrom(Any.parseFrom(column.getPages(0).getEncoding().getDirect().getEncoding()).getValue());
  }

  private static List<List<Object>> lanceRead(org.lance.file.LanceFileReader lance, List<Range> ranges, int batch)
      throws Exception {
    List<List<Object>> out = new ArrayList<>();
    try (ArrowReader reader = lance.readAll(null, ranges, batch)) {
      while (reader.loadNextBatch()) {
        Values.append(out, Values.canon(reader.getVectorSchemaRoot()));
      }
    }
    return out;
  }

  private static List<List<Object>> javelinRead(dev.javelin.format.LanceFileReader javelin, ReadOptions options)
      throws Exception {
    List<List<Object>> out = new ArrayList<>();
    try (ArrowReader reader = javelin.read(options)) {
      while (reader.loadNextBatch()) {
        Values.append(out, Values.canon(reader.getVectorSchemaRoot()));
      }
    }
    return out;
  }

  /** Random values of every type and a canonical form to compare them by. */
  static final class Values {
    private static final ArrowType INT32 = new ArrowType.Int(32, true);
    private static final ArrowType F32 = new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
    private static final String[] WORDS = {"red", "green", "", "blue", "a much longer colour name"};

    static Field field(String name, ArrowType type, Field... children) {
      return new Field(name, FieldType.nullable(type), children.length == 0 ? null : List.of(children));
    }

    static Field item(ArrowType type, Field... children) {
      return field("item", type, children);
    }

    static Schema schema() {
      return new Schema(List.of(
          field("bool", ArrowType.Bool.INSTANCE),
          field("i8", new ArrowType.Int(8, true)),
          field("i16", new ArrowType.Int(16, true)),
          field("i32", INT32),
          field("i64", new ArrowType.Int(64, true)),
          field("u8", new ArrowType.Int(8, false)),
          field("u16", new ArrowType.Int(16, false)),
          field("u32", new ArrowType.Int(32, false)),
          field("u64", new ArrowType.Int(64, false)),
          field("f16", new ArrowType.FloatingPoint(FloatingPointPrecision.HALF)),
          field("f32", F32),
          field("f64", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
          field("date32", new ArrowType.Date(DateUnit.DAY)),
          field("date64", new ArrowType.Date(DateUnit.MILLISECOND)),
          field("time32s", new ArrowType.Time(TimeUnit.SECOND, 32)),
          field("time32ms", new ArrowType.Time(TimeUnit.MILLISECOND, 32)),
          field("time64us", new ArrowType.Time(TimeUnit.MICROSECOND, 64)),
          field("time64ns", new ArrowType.Time(TimeUnit.NANOSECOND, 64)),
          field("ts_s", new ArrowType.Timestamp(TimeUnit.SECOND, null)),
          field("ts_ms_tz", new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC")),
          field("ts_us_tz", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "America/New_York")),
          field("ts_ns", new ArrowType.Timestamp(TimeUnit.NANOSECOND, null)),
          field("dec128", new ArrowType.Decimal(20, 3, 128)),
          field("dec256", new ArrowType.Decimal(40, 5, 256)),
          field("dur_us", new ArrowType.Duration(TimeUnit.MICROSECOND)),
          field("fsl_fsl", new ArrowType.FixedSizeList(2), item(new ArrowType.FixedSizeList(3), item(new ArrowType.Int(16, true)))),
          field("large_list_large_list", ArrowType.LargeList.INSTANCE,
              item(ArrowType.LargeList.INSTANCE, item(ArrowType.LargeBinary.INSTANCE))),
          field("list_bool", ArrowType.List.INSTANCE, item(ArrowType.Bool.INSTANCE)),
          field("fsb5", new ArrowType.FixedSizeBinary(5)),
          field("utf8", ArrowType.Utf8.INSTANCE),
          field("large_utf8", ArrowType.LargeUtf8.INSTANCE),
          field("binary", ArrowType.Binary.INSTANCE),
          field("large_binary", ArrowType.LargeBinary.INSTANCE),
          field("lowcard", ArrowType.Utf8.INSTANCE),
          field("vec", new ArrowType.FixedSizeList(4), item(F32)),
          field("fsl_bool", new ArrowType.FixedSizeList(3), item(ArrowType.Bool.INSTANCE)),
          field("list_i32", ArrowType.List.INSTANCE, item(INT32)),
          field("large_list_utf8", ArrowType.LargeList.INSTANCE, item(ArrowType.Utf8.INSTANCE)),
          field("list_struct", ArrowType.List.INSTANCE,
              item(ArrowType.Struct.INSTANCE, field("a", INT32), field("b", ArrowType.Utf8.INSTANCE))),
          field("struct", ArrowType.Struct.INSTANCE,
              field("x", new ArrowType.Int(64, true)),
              field("l", ArrowType.List.INSTANCE, item(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))),
              field("s", ArrowType.Struct.INSTANCE, field("y", ArrowType.Bool.INSTANCE))),
          field("list_list", ArrowType.List.INSTANCE, item(ArrowType.List.INSTANCE, item(INT32))),
          field("list_fsl", ArrowType.List.INSTANCE, item(new ArrowType.FixedSizeList(2), item(F32))),
          field("all_null", INT32),
          field("all_null_utf8", ArrowType.Utf8.INSTANCE),
          field("all_null_list", ArrowType.List.INSTANCE, item(INT32)),
          field("all_null_fsl", new ArrowType.FixedSizeList(2), item(F32))));
    }

    /** Columns a take in random order can return (Arrow Java cannot copy a list of fixed-size lists). */
    static List<String> reorderable() {
      List<String> out = new ArrayList<>();
      for (Field f : schema().getFields()) {
        if (!f.getName().equals("list_fsl") && !f.getName().equals("large_list_large_list")) {
          out.add(f.getName());
        }
      }
      return out;
    }

    /** Arrow Java names list children "$data$"; Javelin's writer checks names, so files use these. */
    static Schema vectorSchema(VectorSchemaRoot root) {
      List<Field> fields = new ArrayList<>();
      for (FieldVector v : root.getFieldVectors()) {
        fields.add(v.getField());
      }
      return new Schema(fields);
    }

    static VectorSchemaRoot batch(Schema schema, int rows, Random random, BufferAllocator allocator) {
      VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
      for (FieldVector v : root.getFieldVectors()) {
        double[] rates = {0.0, 0.1, 0.5};
        populate(v, rows, random, v.getName().startsWith("all_null") ? 1.0 : rates[random.nextInt(3)]);
      }
      root.setRowCount(rows);
      return root;
    }

    static void populate(FieldVector v, int n, Random r, double nullRate) {
      if (v instanceof StructVector) {
        StructVector s = (StructVector) v;
        s.allocateNew();
        for (FieldVector c : s.getChildrenFromFields()) {
          populate(c, n, r, nullRate);
        }
        for (int i = 0; i < n; i++) {
          if (r.nextDouble() < nullRate) {
            s.setNull(i);
          } else {
            s.setIndexDefined(i);
          }
        }
        s.setValueCount(n);
      } else if (v instanceof FixedSizeListVector) {
        FixedSizeListVector l = (FixedSizeListVector) v;
        l.allocateNew();
        populate(l.getDataVector(), n * l.getListSize(), r, nullRate / 2);
        for (int i = 0; i < n; i++) {
          if (r.nextDouble() < nullRate) {
            l.setNull(i);
          } else {
            l.setNotNull(i);
          }
        }
        l.setValueCount(n);
      } else if (v instanceof ListVector || v instanceof LargeListVector) {
        int[] lengths = new int[n];
        boolean[] nulls = new boolean[n];
        int total = 0;
        for (int i = 0; i < n; i++) {
          nulls[i] = r.nextDouble() < nullRate;
          lengths[i] = nulls[i] ? 0 : (r.nextInt(8) == 0 ? r.nextInt(30) : r.nextInt(4));
          total += lengths[i];
        }
        v.allocateNew();
        FieldVector data = v instanceof ListVector ? ((ListVector) v).getDataVector()
            : ((LargeListVector) v).getDataVector();
        populate(data, total, r, nullRate / 2);
        for (int i = 0; i < n; i++) {
          if (v instanceof ListVector) {
            ((ListVector) v).startNewValue(i);
            ((ListVector) v).endValue(i, lengths[i]);
          } else {
            ((LargeListVector) v).startNewValue(i);
            ((LargeListVector) v).endValue(i, lengths[i]);
          }
          if (nulls[i]) {
            BitVectorHelper.unsetBit(v.getValidityBuffer(), i);
          }
        }
        v.setValueCount(n);
      } else if (v instanceof BitVector) {
        BitVector b = (BitVector) v;
        b.allocateNew(n);
        for (int i = 0; i < n; i++) {
          if (r.nextDouble() < nullRate) {
            b.setNull(i);
          } else {
            b.set(i, r.nextInt(2));
          }
        }
        b.setValueCount(n);
      } else if (v instanceof BaseFixedWidthVector) {
        BaseFixedWidthVector f = (BaseFixedWidthVector) v;
        f.allocateNew(n);
        byte[] bytes = new byte[f.getTypeWidth()];
        for (int i = 0; i < n; i++) {
          if (r.nextDouble() < nullRate) {
            f.setNull(i);
          } else {
            r.nextBytes(bytes);
            f.getDataBuffer().setBytes((long) i * bytes.length, bytes);
            BitVectorHelper.setBit(f.getValidityBuffer(), i);
          }
        }
        f.setValueCount(n);
      } else {
        v.allocateNew();
        for (int i = 0; i < n; i++) {
          if (r.nextDouble() < nullRate) {
            v.setNull(i);
            continue;
          }
          byte[] value;
          if (v.getName().equals("lowcard")) {
            value = WORDS[r.nextInt(WORDS.length)].getBytes();
          } else {
            value = new byte[r.nextInt(10) == 0 ? r.nextInt(300) : r.nextInt(12)];
            r.nextBytes(value);
          }
          if (v instanceof BaseVariableWidthVector) {
            ((BaseVariableWidthVector) v).setSafe(i, value);
          } else {
            ((BaseLargeVariableWidthVector) v).setSafe(i, value);
          }
        }
        v.setValueCount(n);
      }
    }

    /** Canonical values; struct validity is left out (2.0 does not store it). */
    static Object canon(FieldVector v, int i) {
      if (v instanceof StructVector) {
        List<Object> out = new ArrayList<>();
        for (FieldVector c : ((StructVector) v).getChildrenFromFields()) {
          out.add(canon(c, i));
        }
        return out;
      }
      if (v.isNull(i)) {
        return null;
      }
      List<Object> out = new ArrayList<>();
      if (v instanceof FixedSizeListVector) {
        FixedSizeListVector l = (FixedSizeListVector) v;
        for (int k = 0; k < l.getListSize(); k++) {
          out.add(canon(l.getDataVector(), i * l.getListSize() + k));
        }
        return out;
      }
      if (v instanceof ListVector) {
        ListVector l = (ListVector) v;
        for (int k = l.getElementStartIndex(i); k < l.getElementEndIndex(i); k++) {
          out.add(canon(l.getDataVector(), k));
        }
        return out;
      }
      if (v instanceof LargeListVector) {
        LargeListVector l = (LargeListVector) v;
        long s = l.getOffsetBuffer().getLong((long) i * 8);
        long e = l.getOffsetBuffer().getLong((long) i * 8 + 8);
        for (long k = s; k < e; k++) {
          out.add(canon(l.getDataVector(), (int) k));
        }
        return out;
      }
      if (v instanceof BitVector) {
        return ((BitVector) v).get(i) == 1;
      }
      if (v instanceof BaseFixedWidthVector) {
        BaseFixedWidthVector f = (BaseFixedWidthVector) v;
        byte[] b = new byte[f.getTypeWidth()];
        f.getDataBuffer().getBytes((long) i * b.length, b);
        return HexFormat.of().formatHex(b);
      }
      if (v instanceof BaseVariableWidthVector) {
        return HexFormat.of().formatHex(((BaseVariableWidthVector) v).get(i));
      }
      return HexFormat.of().formatHex(((BaseLargeVariableWidthVector) v).get(i));
    }

    static List<List<Object>> canon(VectorSchemaRoot root) {
      List<List<Object>> out = new ArrayList<>();
      for (FieldVector v : root.getFieldVectors()) {
        List<Object> col = new ArrayList<>();
        for (int i = 0; i < root.getRowCount(); i++) {
          col.add(canon(v, i));
        }
        out.add(col);
      }
      return out;
    }

    static void append(List<List<Object>> into, List<List<Object>> more) {
      while (into.size() < more.size()) {
        into.add(new ArrayList<>());
      }
      for (int c = 0; c < more.size(); c++) {
        into.get(c).addAll(more.get(c));
      }
    }
  }
}
