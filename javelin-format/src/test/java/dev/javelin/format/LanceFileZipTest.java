package dev.javelin.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.format.LanceFileZip.Pick;
import dev.javelin.format.WriteOptions;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.format.internal.container.ContainerWriter;
import dev.javelin.format.internal.container.FileMetadata;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.format.proto.FileProtos.FileDescriptor;
import dev.javelin.format.proto.FileProtos;
import dev.javelin.format.schema.LanceField;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.format.testing.Containers;
import dev.javelin.io.InputFile;
import dev.javelin.io.LocalInputFile;
import dev.javelin.io.LocalOutputFile;
import dev.javelin.testing.TestAllocator;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.util.Text;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Binary zip: the zipped file reads, column by column, as the columns it was picked from. */
class LanceFileZipTest {
  @TempDir Path dir;
  @TestAllocator private BufferAllocator allocator;

  private static Field field(String name, ArrowType type, Field... kids) {
    return new Field(name, FieldType.nullable(type), List.of(kids));
  }

  private static final ArrowType I32 = new ArrowType.Int(32, true);
  private static final ArrowType I64 = new ArrowType.Int(64, true);

  /** id: int64, s: string, l: list<int32>, with ids from 0. */
  private static LanceSchema schemaA() {
    int[] next = {0};
    return new LanceSchema(List.of(LanceField.fromArrow(field("id", I64), next),
        LanceField.fromArrow(field("s", ArrowType.Utf8.INSTANCE), next),
        LanceField.fromArrow(field("l", ArrowType.List.INSTANCE, field("item", I32)), next)), Map.of());
  }

  /** st: struct{x: int32, y: string}, gone: int32, z: int64, with ids from 10. */
  private static LanceSchema schemaB() {
    int[] next = {10};
    return new LanceSchema(List.of(
        LanceField.fromArrow(field("st", ArrowType.Struct.INSTANCE, field("x", I32), field("y", ArrowType.Utf8.INSTANCE)),
            next),
        LanceField.fromArrow(field("gone", I32), next), LanceField.fromArrow(field("z", I64), next)), Map.of());
  }

  private Path write(String name, LanceSchema schema, int rows, int batch, LanceFileVersion v) throws Exception {
    Path file = dir.resolve(name);
    try (LanceFileWriter w = LanceFileWriter.create(new LocalOutputFile(file), schema,
        WriteOptions.builder().version(v).build())) {
      for (int b = 0; b < rows; b += batch) {
        int n = Math.min(batch, rows - b);
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema.toArrow(), allocator)) {
          root.allocateNew();
          for (var vec : root.getFieldVectors()) {
            fill(vec, b, n);
          }
          root.setRowCount(n);
          w.write(root);
        }
      }
    }
    return file;
  }

  private static void fill(org.apache.arrow.vector.FieldVector vec, int start, int n) {
    String name = vec.getName();
    for (int i = 0; i < n; i++) {
      int r = start + i;
      boolean isNull = (r + name.length()) % 7 == 3;
      if (vec instanceof BigIntVector v) {
        if (isNull) {
          v.setNull(i);
        } else {
          v.setSafe(i, r * 31L + name.hashCode());
        }
      } else if (vec instanceof IntVector v) {
        if (isNull) {
          v.setNull(i);
        } else {
          v.setSafe(i, r * 3 + name.length());
        }
      } else if (vec instanceof VarCharVector v) {
        if (isNull) {
          v.setNull(i);
        } else {
          v.setSafe(i, new Text(name + (r % 17)));
        }
      } else if (vec instanceof ListVector l) {
        IntVector items = (IntVector) l.getDataVector();
        int k = l.startNewValue(i);
        for (int j = 0; j < r % 4; j++) {
          items.setSafe(k + j, r + j);
        }
        l.endValue(i, r % 4);
        items.setValueCount(k + r % 4);
      } else if (vec instanceof StructVector st) {
        st.setIndexDefined(i);
      }
    }
    if (vec instanceof StructVector st) {
      for (var child : st.getChildrenFromFields()) {
        fill(child, start, n);
      }
    }
    vec.setValueCount(n);
  }

  /** Each top-level column's values, as strings, by column name. */
  private Map<String, List<String>> read(Path file) throws Exception {
    Map<String, List<String>> out = new LinkedHashMap<>();
    try (LanceFileReader r = LanceFileReader.open(file, allocator)) {
      long n = r.numRows();
      try (VectorSchemaRoot all = r.take(LongStream.range(0, n).toArray(), null)) {
        for (var v : all.getFieldVectors()) {
          List<String> values = new ArrayList<>();
          for (int i = 0; i < all.getRowCount(); i++) {
            Object o = v.getObject(i);
            values.add(o == null ? null : o.toString());
          }
          out.put(v.getName(), values);
        }
      }
    }
    return out;
  }

  private LanceFileZip.Result zip(List<Path> sources, List<Pick> picks, Path out) throws Exception {
    List<InputFile> in = new ArrayList<>();
    try {
      for (Path p : sources) {
        in.add(LocalInputFile.open(p));
      }
      return LanceFileZip.zip(in, picks, new LocalOutputFile(out));
    } finally {
      for (InputFile f : in) {
        f.close();
      }
    }
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void zipsPickedColumnsInOrder(LanceFileVersion v) throws Exception {
    // Several pages per column (batches of 300), nested and list columns, a field left behind.
    Path a = write("a.lance", schemaA(), 1000, 300, v);
    Path b = write("b.lance", schemaB(), 1000, 300, v);
    Path out = dir.resolve("out.lance");
    LanceFileZip.Result res = zip(List.of(a, b), List.of(new Pick(1, 10), new Pick(0, 0), new Pick(0, 2),
        new Pick(1, 14)), out);

    assertThat(res.rows()).isEqualTo(1000);
    assertThat(res.version()).isEqualTo(v);
    Map<String, List<String>> ra = read(a);
    Map<String, List<String>> rb = read(b);
    Map<String, List<String>> zipped = read(out);
    assertThat(zipped.keySet()).containsExactly("st", "id", "l", "z");
    assertThat(zipped.get("st")).isEqualTo(rb.get("st"));
    assertThat(zipped.get("id")).isEqualTo(ra.get("id"));
    assertThat(zipped.get("l")).isEqualTo(ra.get("l"));
    assertThat(zipped.get("z")).isEqualTo(rb.get("z"));
    try (LanceFileReader r = LanceFileReader.open(out, allocator)) {
      assertThat(r.lanceSchema().flatten()).extracting(LanceField::id).containsExactly(10, 11, 12, 0, 2, 3, 14);
    }
    // The same (field id, column) pairs a writer of that schema records.
    LanceSchema expected = new LanceSchema(List.of(schemaB().fields().get(0), schemaA().fields().get(0),
        schemaA().fields().get(2), schemaB().fields().get(2)), Map.of());
    try (LanceFileWriter w = LanceFileWriter.create(new LocalOutputFile(dir.resolve("w.lance")), expected,
        WriteOptions.builder().version(v).build())) {
      assertThat(res.fieldColumnIndices()).containsExactlyElementsOf(w.fieldColumnIndices());
    }
    // A streaming read agrees with take.
    try (LanceFileReader r = LanceFileReader.open(out, allocator);
        var s = r.read(ReadOptions.builder().columns(List.of("z", "l")).batchSize(128).build())) {
      List<String> z = new ArrayList<>();
      while (s.loadNextBatch()) {
        var vec = s.getVectorSchemaRoot().getVector("z");
        for (int i = 0; i < vec.getValueCount(); i++) {
          Object o = vec.getObject(i);
          z.add(o == null ? null : o.toString());
        }
      }
      assertThat(z).isEqualTo(rb.get("z"));
    }
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void carriesColumnLevelBuffers(LanceFileVersion v) throws Exception {
    // Hand-made containers whose columns have column-level buffers: the copy keeps their bytes.
    ContainerWriter cw = new ContainerWriter(new LocalOutputFile(dir.resolve("c.lance")));
    long page = cw.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}));
    long colBuf = cw.write(ByteBuffer.wrap(new byte[] {9, 8, 7, 6, 5}));
    List<ColumnMetadata> cms = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      cms.add(Containers.emptyPageColumn(v, 3, page).toBuilder().addBufferOffsets(colBuf).addBufferSizes(5).build());
    }
    cw.finish(cms, FileDescriptor.newBuilder().setSchema(FileProtos.Schema.newBuilder()
        .addAllFields(Containers.twoColumnSchema())).setLength(3).build().toByteArray(), v);
    Path other = Containers.write(dir.resolve("d.lance"), v, List.of(Containers.field(5, "k", "int32")), 3, 1,
        List.of());
    Path out = dir.resolve("out.lance");
    zip(List.of(dir.resolve("c.lance"), other), List.of(new Pick(1, 5), new Pick(0, 1)), out);
    try (InputFile in = LocalInputFile.open(out)) {
      FileMetadata m = FileMetadata.read(in);
      assertThat(m.schema().fields()).extracting(LanceField::name).containsExactly("k", "name");
      ColumnMetadata name = m.columns().get(1);
      assertThat(bytes(in, name.getBufferOffsets(0), 5)).containsExactly(9, 8, 7, 6, 5);
      assertThat(bytes(in, name.getPages(0).getBufferOffsets(0), 8)).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
      assertThat(bytes(in, m.columns().get(0).getPages(0).getBufferOffsets(0), 8))
          .containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
      assertThat(name.getPages(0).getBufferOffsets(0) % 64).isZero();
    }
  }

  private static byte[] bytes(InputFile in, long at, int n) throws Exception {
    ByteBuffer b = in.read(at, n);
    byte[] out = new byte[n];
    b.get(out);
    return out;
  }

  @Test
  void refusesFilesOfDifferentVersionsAndWritesNothing() throws Exception {
    Path a = write("a.lance", schemaA(), 10, 10, LanceFileVersion.V2_1);
    Path b = write("b.lance", schemaB(), 10, 10, LanceFileVersion.V2_0);
    Path out = dir.resolve("out.lance");
    assertThatThrownBy(() -> zip(List.of(a, b), List.of(new Pick(0, 0), new Pick(1, 14)), out))
        .isInstanceOf(UnsupportedFormatException.class)
        .hasMessage("Binary zip needs one file version: 2.0 vs 2.1: " + b);
    assertThat(Files.exists(out)).isFalse();
  }

  @Test
  void refusesFilesOfDifferentRowCounts() throws Exception {
    Path a = write("a.lance", schemaA(), 10, 10, LanceFileVersion.V2_1);
    Path b = write("b.lance", schemaB(), 11, 10, LanceFileVersion.V2_1);
    Path out = dir.resolve("out.lance");
    assertThatThrownBy(() -> zip(List.of(a, b), List.of(new Pick(0, 0), new Pick(1, 14)), out))
        .isInstanceOf(UnsupportedFormatException.class)
        .hasMessage("Binary zip needs one row count: 11 vs 10: " + b);
    assertThat(Files.exists(out)).isFalse();
  }

  @Test
  void refusesExtraGlobalBuffers() throws Exception {
    Path a = write("a.lance", schemaA(), 3, 10, LanceFileVersion.V2_1);
    Path g = dir.resolve("g.lance");
    ContainerWriter cw = new ContainerWriter(new LocalOutputFile(g));
    long page = cw.write(ByteBuffer.wrap(new byte[8]));
    long extra = cw.write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
    cw.finish(List.of(Containers.emptyPageColumn(LanceFileVersion.V2_1, 3, page)),
        FileDescriptor.newBuilder().setSchema(FileProtos.Schema.newBuilder()
            .addFields(Containers.field(7, "k", "int32"))).setLength(3).build().toByteArray(),
        List.of(new long[] {extra, 3}), LanceFileVersion.V2_1);
    Path out = dir.resolve("out.lance");
    assertThatThrownBy(() -> zip(List.of(a, g), List.of(new Pick(0, 0), new Pick(1, 7)), out))
        .isInstanceOf(UnsupportedFormatException.class)
        .hasMessage("Binary zip needs files whose only global buffer is the schema, this one has 2 (encodings "
            + "may refer to the others by index, which would collide with other files' in one file): " + g);
    assertThat(Files.exists(out)).isFalse();
  }

  @Test
  void refusesMalformedPicks() throws Exception {
    Path a = write("a.lance", schemaA(), 3, 10, LanceFileVersion.V2_1);
    Path out = dir.resolve("out.lance");
    assertThatThrownBy(() -> zip(List.of(a), List.of(new Pick(0, 3)), out))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("No top-level field id 3 in " + a);
    assertThatThrownBy(() -> zip(List.of(a, a), List.of(new Pick(0, 2), new Pick(1, 2)), out))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Field id 2 is picked twice (from " + a + ")");
    assertThatThrownBy(() -> zip(List.of(a), List.of(new Pick(1, 0)), out))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("No source 1 among 1");
    assertThat(Files.exists(out)).isFalse();
  }
}
