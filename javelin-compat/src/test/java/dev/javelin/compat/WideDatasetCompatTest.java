package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.testing.TestAllocator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.ipc.ScanOptions;

/** lance-core 7.0.0 opens and reads a 10,000-column dataset Javelin wrote, every value compared. */
class WideDatasetCompatTest {
  static final int COLUMNS = 10_000;
  static final int ROWS = 5;

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private static String value(long row, int c) {
    return c % 10 == 3 ? (row % 4 == 1 ? null : "v" + row + "_" + c) : String.valueOf(row * 100_000 + c);
  }

  private VectorSchemaRoot batch(Schema schema, long first) {
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
    root.allocateNew();
    for (int c = 0; c < COLUMNS; c++) {
      FieldVector v = root.getVector(c);
      for (int r = 0; r < ROWS; r++) {
        String s = value(first + r, c);
        if (v instanceof BigIntVector b) {
          b.setSafe(r, Long.parseLong(s));
        } else if (s == null) {
          ((VarCharVector) v).setNull(r);
        } else {
          ((VarCharVector) v).setSafe(r, s.getBytes(StandardCharsets.UTF_8));
        }
      }
    }
    root.setRowCount(ROWS);
    return root;
  }

  @Test
  void lanceReadsAWideDatasetJavelinWrote() throws Exception {
    List<Field> fields = new ArrayList<>();
    for (int c = 0; c < COLUMNS; c++) {
      fields.add(Field.nullable("c" + c, c % 10 == 3 ? ArrowType.Utf8.INSTANCE : new ArrowType.Int(64, true)));
    }
    Schema schema = new Schema(fields);
    Path path = dir.resolve("wide");
    try (VectorSchemaRoot a = batch(schema, 0); VectorSchemaRoot b = batch(schema, ROWS)) {
      Dataset.create(path, List.of(a), WriteParams.defaults(), allocator).append(List.of(b), WriteParams.defaults());
    }
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.countRows()).isEqualTo(2 * ROWS);
      assertThat(lance.getSchema().getFields()).hasSize(COLUMNS);
      int rows = 0;
      try (var scanner = lance.newScan(new ScanOptions.Builder().build()); ArrowReader r = scanner.scanBatches()) {
        while (r.loadNextBatch()) {
          VectorSchemaRoot root = r.getVectorSchemaRoot();
          assertThat(root.getFieldVectors()).hasSize(COLUMNS);
          for (int i = 0; i < root.getRowCount(); i++, rows++) {
            for (int c = 0; c < COLUMNS; c++) {
              FieldVector v = root.getVector(c);
              assertThat(v.getName()).isEqualTo("c" + c);
              Object got = v.getObject(i);
              assertThat(got == null ? null : got.toString()).as("row %d column %d", rows, c)
                  .isEqualTo(value(rows, c));
            }
          }
        }
      }
      assertThat(rows).isEqualTo(2 * ROWS);
    }
  }
}
