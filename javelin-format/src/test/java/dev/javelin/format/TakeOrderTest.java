package dev.javelin.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.format.WriteOptions;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
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

/** {@code take} returns rows in the caller's order, repeats included, for every nesting. */
class TakeOrderTest {
  private static final int ROWS = 500;

  @TempDir Path dir;
  @TestAllocator private BufferAllocator allocator;

  private static Field field(String name, ArrowType type, Field... kids) {
    return new Field(name, FieldType.nullable(type), List.of(kids));
  }

  static Schema schema() {
    Field i32 = field("item", new ArrowType.Int(32, true));
    return new Schema(List.of(
        field("id", new ArrowType.Int(64, true)),
        field("lf", ArrowType.List.INSTANCE, field("item", new ArrowType.FixedSizeList(2), i32)),
        field("ll", ArrowType.LargeList.INSTANCE, field("item", ArrowType.LargeList.INSTANCE, i32)),
        field("s", ArrowType.Struct.INSTANCE, field("name", ArrowType.Utf8.INSTANCE), i32)));
  }

  private Path write(LanceFileVersion version) throws Exception {
    Path file = dir.resolve("t.lance");
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema(), allocator);
        LanceFileWriter w = LanceFileWriter.create(file, root.getSchema(), WriteOptions.builder().version(version).build())) {
      root.allocateNew();
      BigIntVector id = (BigIntVector) root.getVector("id");
      ListVector lf = (ListVector) root.getVector("lf");
      FixedSizeListVector fsl = (FixedSizeListVector) lf.getDataVector();
      IntVector fslItems = (IntVector) fsl.getDataVector();
      LargeListVector ll = (LargeListVector) root.getVector("ll");
      LargeListVector inner = (LargeListVector) ll.getDataVector();
      IntVector innerItems = (IntVector) inner.getDataVector();
      StructVector s = (StructVector) root.getVector("s");
      VarCharVector name = (VarCharVector) s.getChild("name");
      IntVector item = (IntVector) s.getChild("item");
      int fslCount = 0;
      int innerCount = 0;
      int innerItemCount = 0;
      for (int r = 0; r < ROWS; r++) {
        id.setSafe(r, r);
        // lf: r % 3 fixed-size lists [r, k]; every 7th row null.
        if (r % 7 == 6) {
          lf.setNull(r);
        } else {
          lf.startNewValue(r);
          for (int k = 0; k < r % 3; k++) {
            fsl.setNotNull(fslCount);
            fslItems.setSafe(fslCount * 2, r);
            fslItems.setSafe(fslCount * 2 + 1, k);
            fslCount++;
          }
          lf.endValue(r, r % 3);
        }
        // ll: r % 2 + 1 inner lists, each [r, r + 1]; every 5th row empty.
        ll.startNewValue(r);
        int outer = r % 5 == 4 ? 0 : r % 2 + 1;
        for (int k = 0; k < outer; k++) {
          inner.startNewValue(innerCount);
          innerItems.setSafe(innerItemCount++, r);
          innerItems.setSafe(innerItemCount++, r + 1);
          inner.endValue(innerCount, 2);
          innerCount++;
        }
        ll.endValue(r, outer);
        if (r % 11 == 10) {
          s.setNull(r);
        } else {
          s.setIndexDefined(r);
          name.setSafe(r, new Text("n" + r));
          item.setSafe(r, r * 2);
        }
      }
      fslItems.setValueCount(fslCount * 2);
      fsl.setValueCount(fslCount);
      innerItems.setValueCount(innerItemCount);
      inner.setValueCount(innerCount);
      name.setValueCount(ROWS);
      item.setValueCount(ROWS);
      root.setRowCount(ROWS);
      w.write(root);
    }
    return file;
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void takesInTheCallersOrderWithRepeats(LanceFileVersion version) throws Exception {
    Path file = write(version);
    long[] rows = new Random(7).longs(300, 0, ROWS).toArray();
    rows[1] = rows[0];
    try (LanceFileReader r = LanceFileReader.open(file, allocator);
        VectorSchemaRoot all = r.take(java.util.stream.LongStream.range(0, ROWS).toArray(), null);
        VectorSchemaRoot got = r.take(rows, null)) {
      assertThat(got.getRowCount()).isEqualTo(rows.length);
      for (int i = 0; i < rows.length; i++) {
        int row = (int) rows[i];
        for (String col : List.of("id", "lf", "ll", "s")) {
          assertThat(got.getVector(col).getObject(i))
              .as("column %s, take position %d (row %d)", col, i, row)
              .isEqualTo(all.getVector(col).getObject(row));
        }
      }
      assertThat(((BigIntVector) got.getVector("id")).get(5)).isEqualTo(rows[5]);
    }
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void rejectsRowsOutOfRange(LanceFileVersion version) throws Exception {
    Path file = write(version);
    try (LanceFileReader r = LanceFileReader.open(file, allocator)) {
      assertThatThrownBy(() -> r.take(new long[] {3, ROWS}, null))
          .isInstanceOf(IndexOutOfBoundsException.class)
          .hasMessage("Row " + ROWS + " is out of range for a file of " + ROWS + " rows: " + file);
    }
  }
}
