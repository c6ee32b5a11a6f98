package dev.javelin.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.format.WriteOptions;
import dev.javelin.format.exceptions.ColumnNotFoundException;
import dev.javelin.io.InputFile;
import dev.javelin.io.LocalInputFile;
import dev.javelin.io.MappedInputFile;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LanceFileReader#floatVectors} copies the same floats {@link LanceFileReader#take} reads,
 * for random row lists across many pages (mapped and not), and declines the layouts it does not
 * copy: nulls, small vectors (mini-blocks), other types, 2.0 files.
 */
class FloatVectorReaderTest {
  private static final int ROWS = 3000;
  private static final int DIM = 64; // 256 bytes a row: full-zip pages
  private static final long PAGE_BYTES = 40_000; // ~150 rows a page

  @TempDir Path dir;
  @TestAllocator private BufferAllocator allocator;

  private static Field vectorField(String name, int dim) {
    return new Field(name, FieldType.nullable(new ArrowType.FixedSizeList(dim)), List.of(
        new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null)));
  }

  private static float value(int row, int j, int salt) {
    return (float) Math.sin(row * 31.0 + j * 7.0 + salt) * (row + 1);
  }

  // v: vectors without nulls; w: every 7th row null; s: 8 dimensions; id: int64.
  private Path write(LanceFileVersion version) throws Exception {
    Schema schema = new Schema(List.of(new Field("id", FieldType.nullable(new ArrowType.Int(64, true)), null),
        vectorField("v", DIM), vectorField("w", DIM), vectorField("s", 8)));
    Path file = dir.resolve("f-" + version + ".lance");
    WriteOptions options = WriteOptions.builder().version(version).maxPageBytes(PAGE_BYTES).build();
    try (LanceFileWriter w = LanceFileWriter.create(file, schema, options)) {
      for (int start = 0; start < ROWS; start += 1000) {
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
          root.allocateNew();
          for (int i = 0; i < 1000; i++) {
            int r = start + i;
            ((BigIntVector) root.getVector("id")).setSafe(i, r);
            fill((FixedSizeListVector) root.getVector("v"), i, r, DIM, 0, false);
            fill((FixedSizeListVector) root.getVector("w"), i, r, DIM, 1, r % 7 == 3);
            fill((FixedSizeListVector) root.getVector("s"), i, r, 8, 2, false);
          }
          root.setRowCount(1000);
          w.write(root);
        }
      }
    }
    return file;
  }

  private static void fill(FixedSizeListVector v, int i, int row, int dim, int salt, boolean isNull) {
    Float4Vector items = (Float4Vector) v.getDataVector();
    if (isNull) {
      v.setNull(i);
      return;
    }
    v.setNotNull(i);
    for (int j = 0; j < dim; j++) {
      items.setSafe(i * dim + j, value(row, j, salt));
    }
  }

  // Random sorted rows, with the first and last rows of pages and runs of adjacent rows.
  private static long[] rows(Random rnd, long[] pageStarts) {
    TreeSet<Long> set = new TreeSet<>();
    int n = 1 + rnd.nextInt(400);
    for (int i = 0; i < n; i++) {
      set.add((long) rnd.nextInt(ROWS));
    }
    for (int i = 0; i < 5; i++) {
      long p = pageStarts[1 + rnd.nextInt(pageStarts.length - 1)];
      set.add(p - 1);
      set.add(p);
      long run = rnd.nextInt(ROWS - 20);
      for (int k = 0; k < 1 + rnd.nextInt(20); k++) {
        set.add(run + k);
      }
    }
    return set.stream().mapToLong(Long::longValue).toArray();
  }

  private static long[] pageStarts(LanceFileReader reader, int column) {
    var meta = reader.metadata().columns().get(column);
    long[] starts = new long[meta.getPagesCount()];
    for (int p = 1; p < starts.length; p++) {
      starts[p] = starts[p - 1] + meta.getPages(p - 1).getLength();
    }
    return starts;
  }

  private float[] taken(LanceFileReader reader, long[] rows) throws Exception {
    try (VectorSchemaRoot got = reader.take(rows, List.of("v"))) {
      Float4Vector items = (Float4Vector) ((FixedSizeListVector) got.getVector(0)).getDataVector();
      float[] out = new float[rows.length * DIM];
      for (int i = 0; i < out.length; i++) {
        out[i] = items.get(i);
      }
      return out;
    }
  }

  @Test
  void copiesWhatTakeReadsOn21FilesMappedOrNot() throws Exception {
    Path file = write(LanceFileVersion.V2_1);
    for (InputFile in : new InputFile[] {MappedInputFile.open(file), LocalInputFile.open(file)}) {
      try (LanceFileReader reader = LanceFileReader.open(in, allocator)) {
        long[] starts = pageStarts(reader, 1);
        assertThat(starts.length).as("pages").isGreaterThan(10);
        Random rnd = new Random(42);
        try (FloatVectorReader vectors = reader.floatVectors("v")) {
          assertThat(vectors).isNotNull();
          assertThat(vectors.dimension()).isEqualTo(DIM);
          for (int trial = 0; trial < 30; trial++) {
            long[] rows = rows(rnd, starts);
            float[] want = taken(reader, rows);
            // In blocks of a random size into one array, as vector search reads them.
            int block = 1 + rnd.nextInt(64);
            float[] out = new float[block * DIM];
            for (int from = 0; from < rows.length; from += block) {
              int to = Math.min(rows.length, from + block);
              vectors.read(rows, from, to, out);
              for (int i = 0; i < (to - from) * DIM; i++) {
                if (Float.floatToRawIntBits(out[i]) != Float.floatToRawIntBits(want[from * DIM + i])) {
                  throw new AssertionError("trial " + trial + " row " + rows[from + i / DIM] + " item " + (i % DIM)
                      + ": " + out[i] + " != " + want[from * DIM + i] + " (" + in.getClass().getSimpleName() + ")");
                }
              }
            }
            assertThat(want[0]).isEqualTo(value((int) rows[0], 0, 0));
          }
        }
      }
    }
  }

  @Test
  void declinesOtherLayoutsAndTypes() throws Exception {
    try (LanceFileReader reader = LanceFileReader.open(write(LanceFileVersion.V2_1), allocator)) {
      assertThat(reader.floatVectors("w")).as("with nulls").isNull();
      assertThat(reader.floatVectors("s")).as("8 dimensions: mini-blocks").isNull();
      assertThat(reader.floatVectors("id")).as("not a vector").isNull();
      assertThatThrownBy(() -> reader.floatVectors("nope")).isInstanceOf(ColumnNotFoundException.class);
    }
    try (LanceFileReader reader = LanceFileReader.open(write(LanceFileVersion.V2_0), allocator)) {
      assertThat(reader.floatVectors("v")).as("2.0").isNull();
    }
  }

  @Test
  void refusesBadRows() throws Exception {
    Path file = write(LanceFileVersion.V2_1);
    try (LanceFileReader reader = LanceFileReader.open(file, allocator);
        FloatVectorReader vectors = reader.floatVectors("v")) {
      float[] out = new float[4 * DIM];
      assertThatThrownBy(() -> vectors.read(new long[] {5, 3}, 0, 2, out))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Rows must be sorted and distinct; got 3 after 5: " + file);
      assertThatThrownBy(() -> vectors.read(new long[] {1, ROWS}, 0, 2, out))
          .isInstanceOf(IndexOutOfBoundsException.class)
          .hasMessage("Row " + ROWS + " is out of range for a file of " + ROWS + " rows: " + file);
      assertThatThrownBy(() -> vectors.read(new long[] {1, 2, 3, 4, 5}, 0, 5, out))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("5 vectors of 64 floats do not fit in 256 floats: " + file);
      // Only [from, to) is read.
      vectors.read(new long[] {9, 1, 2, 0}, 1, 3, out);
      assertThat(out[0]).isEqualTo(value(1, 0, 0));
      assertThat(out[DIM + 5]).isEqualTo(value(2, 5, 0));
    }
  }
}
