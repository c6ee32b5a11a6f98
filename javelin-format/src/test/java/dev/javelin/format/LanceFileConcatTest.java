package dev.javelin.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.format.WriteOptions;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.io.InputFile;
import dev.javelin.io.LocalInputFile;
import dev.javelin.io.LocalOutputFile;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Binary copy: concatenated files read back as the sources' rows in order. */
class LanceFileConcatTest {
  @TempDir Path dir;
  @TestAllocator private BufferAllocator allocator;

  private static Field field(String name, ArrowType type, Field... kids) {
    return new Field(name, FieldType.nullable(type), List.of(kids));
  }

  static Schema schema() {
    return new Schema(List.of(field("id", new ArrowType.Int(64, true)), field("s", ArrowType.Utf8.INSTANCE),
        field("l", ArrowType.List.INSTANCE, field("item", new ArrowType.Int(32, true))),
        field("st", ArrowType.Struct.INSTANCE, field("x", new ArrowType.Int(32, true)))));
  }

  private Path write(String name, long start, int rows, int batch, LanceFileVersion v) throws Exception {
    Path file = dir.resolve(name);
    try (LanceFileWriter w = LanceFileWriter.create(file, schema(), WriteOptions.builder().version(v).build())) {
      for (int b = 0; b < rows; b += batch) {
        int n = Math.min(batch, rows - b);
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema(), allocator)) {
          root.allocateNew();
          BigIntVector id = (BigIntVector) root.getVector("id");
          VarCharVector s = (VarCharVector) root.getVector("s");
          ListVector l = (ListVector) root.getVector("l");
          IntVector items = (IntVector) l.getDataVector();
          StructVector st = (StructVector) root.getVector("st");
          IntVector x = (IntVector) st.getChild("x");
          int k = 0;
          for (int i = 0; i < n; i++) {
            long r = start + b + i;
            id.setSafe(i, r);
            if (r % 9 == 4) {
              s.setNull(i);
            } else {
              s.setSafe(i, new Text("v" + (r % 13)));
            }
            l.startNewValue(i);
            for (int j = 0; j < r % 3; j++) {
              items.setSafe(k++, (int) r + j);
            }
            l.endValue(i, (int) (r % 3));
            st.setIndexDefined(i);
            x.setSafe(i, (int) r * 2);
          }
          items.setValueCount(k);
          x.setValueCount(n);
          root.setRowCount(n);
          w.write(root);
        }
      }
    }
    return file;
  }

  private List<List<Object>> read(Path file) throws Exception {
    List<List<Object>> out = new ArrayList<>();
    try (LanceFileReader r = LanceFileReader.open(file, allocator)) {
      long n = r.numRows();
      try (VectorSchemaRoot all = r.take(LongStream.range(0, n).toArray(), null)) {
        for (int i = 0; i < all.getRowCount(); i++) {
          List<Object> row = new ArrayList<>();
          for (var v : all.getFieldVectors()) {
            Object o = v.getObject(i);
            row.add(o == null ? null : o.toString());
          }
          out.add(row);
        }
      }
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void concatenatesRowsInOrder(LanceFileVersion v) throws Exception {
    Path a = write("a.lance", 0, 700, 300, v);
    Path b = write("b.lance", 700, 50, 300, v);
    Path c = write("c.lance", 750, 1200, 1000, v);
    Path out = dir.resolve("out.lance");
    List<InputFile> in = List.of(LocalInputFile.open(a), LocalInputFile.open(b), LocalInputFile.open(c));
    try {
      LanceFileConcat.Result r = LanceFileConcat.concat(in, new LocalOutputFile(out));
      assertThat(r.rows()).isEqualTo(1950);
      assertThat(r.fileSize()).isEqualTo(Files.size(out));
    } finally {
      for (InputFile f : in) {
        f.close();
      }
    }
    List<List<Object>> expected = new ArrayList<>(read(a));
    expected.addAll(read(b));
    expected.addAll(read(c));
    assertThat(read(out)).isEqualTo(expected);
    try (LanceFileReader r = LanceFileReader.open(out, allocator)) {
      assertThat(r.numRows()).isEqualTo(1950);
      try (var s = r.read(ReadOptions.builder().build())) {
        long rows = 0;
        long idSum = 0;
        while (s.loadNextBatch()) {
          BigIntVector id = (BigIntVector) s.getVectorSchemaRoot().getVector("id");
          for (int i = 0; i < id.getValueCount(); i++) {
            idSum += id.get(i);
          }
          rows += s.getVectorSchemaRoot().getRowCount();
        }
        assertThat(rows).isEqualTo(1950);
        assertThat(idSum).isEqualTo(1950L * 1949 / 2);
      }
    }
  }

  @org.junit.jupiter.api.Test
  void refusesFilesOfDifferentVersionsAndWritesNothing() throws Exception {
    Path a = write("a.lance", 0, 10, 10, LanceFileVersion.V2_1);
    Path b = write("b.lance", 10, 10, 10, LanceFileVersion.V2_0);
    Path out = dir.resolve("out.lance");
    List<InputFile> in = List.of(LocalInputFile.open(a), LocalInputFile.open(b));
    try {
      assertThatThrownBy(() -> LanceFileConcat.concat(in, new LocalOutputFile(out)))
          .isInstanceOf(UnsupportedFormatException.class)
          .hasMessage("Binary copy needs one file version: 2.0 vs 2.1: " + b);
    } finally {
      for (InputFile f : in) {
        f.close();
      }
    }
    assertThat(Files.exists(out)).isFalse();
  }
}
