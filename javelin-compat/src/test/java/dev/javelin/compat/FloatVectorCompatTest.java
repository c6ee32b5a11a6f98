package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.FloatVectorReader;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileVersion;
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
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Vectors of files lance-core 7.0.0 writes: {@link LanceFileReader#floatVectors} copies 2.1
 * full-zip float vectors without nulls (what vector search re-ranks from) exactly as
 * {@link LanceFileReader#take} reads them, and declines vectors with nulls and 2.0 files, which
 * the general take reads.
 */
class FloatVectorCompatTest {
  static final int DIM = 128;
  static final int ROWS = 4000;

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private static Field vector(String name) {
    return new Field(name, FieldType.nullable(new ArrowType.FixedSizeList(DIM)), List.of(
        new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null)));
  }

  // v: no nulls; w: every 5th vector null.
  private Path lanceWrite(LanceFileVersion version) throws Exception {
    Schema schema = new Schema(List.of(vector("v"), vector("w")));
    Path file = dir.resolve("lance-" + version + ".lance");
    Random rnd = new Random(5);
    List<VectorSchemaRoot> batches = new ArrayList<>();
    try {
      for (int start = 0; start < ROWS; start += 1000) {
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        batches.add(root);
        root.allocateNew();
        for (String name : new String[] {"v", "w"}) {
          FixedSizeListVector v = (FixedSizeListVector) root.getVector(name);
          Float4Vector items = (Float4Vector) v.getDataVector();
          for (int i = 0; i < 1000; i++) {
            if (name.equals("w") && (start + i) % 5 == 2) {
              v.setNull(i);
              continue;
            }
            v.setNotNull(i);
            for (int j = 0; j < DIM; j++) {
              items.setSafe(i * DIM + j, (float) rnd.nextGaussian());
            }
          }
          v.setValueCount(1000);
        }
        root.setRowCount(1000);
      }
      LanceOracle.write(file, version, allocator, batches);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
    return file;
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void copiesWhatTakeReads(LanceFileVersion version) throws Exception {
    Path file = lanceWrite(version);
    for (InputFile in : new InputFile[] {MappedInputFile.open(file), LocalInputFile.open(file)}) {
      try (LanceFileReader reader = LanceFileReader.open(in, allocator);
          FloatVectorReader vectors = reader.floatVectors("v")) {
        assertThat(reader.floatVectors("w")).as("vectors with nulls").isNull();
        if (version == LanceFileVersion.V2_0) {
          assertThat(vectors).as("2.0").isNull();
          continue;
        }
        assertThat(vectors).as("2.1 full-zip vectors without nulls").isNotNull();
        Random rnd = new Random(8);
        for (int trial = 0; trial < 10; trial++) {
          TreeSet<Long> set = new TreeSet<>(List.of(0L, (long) ROWS - 1));
          for (int i = rnd.nextInt(300); i > 0; i--) {
            set.add((long) rnd.nextInt(ROWS));
          }
          long[] rows = set.stream().mapToLong(Long::longValue).toArray();
          float[] out = new float[rows.length * DIM];
          vectors.read(rows, 0, rows.length, out);
          try (VectorSchemaRoot taken = reader.take(rows, List.of("v"))) {
            Float4Vector items = (Float4Vector) ((FixedSizeListVector) taken.getVector(0)).getDataVector();
            for (int i = 0; i < out.length; i++) {
              assertThat(Float.floatToRawIntBits(out[i])).as("row %d item %d", rows[i / DIM], i % DIM)
                  .isEqualTo(Float.floatToRawIntBits(items.get(i)));
            }
          }
        }
      }
    }
  }
}
