package dev.javelin.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.format.WriteOptions;
import dev.javelin.io.MappedInputFile;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Parallel reads return the sequential batches. Takes and odd-sized scans of bit-packed 32/64-bit columns (decoded block by block from parts of
 * chunks) return what a whole scan returns.
 */
class BlockTakeTest {
  private static final int ROWS = 30_000;

  @TempDir Path dir;
  @TestAllocator private BufferAllocator allocator;

  private Path write(LanceFileVersion version) throws Exception {
    Schema schema = new Schema(List.of(
        new Field("a", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        new Field("b", FieldType.notNullable(new ArrowType.Int(32, true)), null),
        new Field("c", FieldType.nullable(new ArrowType.Int(64, true)), null)));
    Path file = dir.resolve("t.lance");
    Random random = new Random(7);
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        LanceFileWriter w = LanceFileWriter.create(file, schema, WriteOptions.builder().version(version).build())) {
      root.allocateNew();
      BigIntVector a = (BigIntVector) root.getVector("a");
      IntVector b = (IntVector) root.getVector("b");
      BigIntVector c = (BigIntVector) root.getVector("c");
      for (int r = 0; r < ROWS; r++) {
        // Widths vary from block to block.
        a.setSafe(r, random.nextInt(1 << (1 + (r / 1024) % 40 % 30)) + (long) (r / 3000) * 1_000_000_000L);
        b.setSafe(r, random.nextInt(1 << (1 + (r / 700) % 30)));
        if (r % 17 == 0) {
          c.setNull(r);
        } else {
          c.setSafe(r, r * 3L);
        }
      }
      root.setRowCount(ROWS);
      w.write(root);
    }
    return file;
  }

  private static List<List<Object>> rows(VectorSchemaRoot root) {
    List<List<Object>> out = new ArrayList<>();
    for (int i = 0; i < root.getRowCount(); i++) {
      List<Object> row = new ArrayList<>();
      for (var v : root.getFieldVectors()) {
        row.add(v.getObject(i));
      }
      out.add(row);
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void takesAndScansMatchTheWholeScan(LanceFileVersion version) throws Exception {
    Path file = write(version);
    List<List<Object>> all = new ArrayList<>();
    try (LanceFileReader r = LanceFileReader.open(file, allocator)) {
      try (ArrowReader in = r.read(ReadOptions.builder().batchSize(ROWS).build())) {
        while (in.loadNextBatch()) {
          all.addAll(rows(in.getVectorSchemaRoot()));
        }
      }
      assertThat(all).hasSize(ROWS);
      // Odd batch sizes cut chunks and blocks anywhere.
      for (int batch : new int[] {1, 333, 1000, 1025, 4097}) {
        List<List<Object>> got = new ArrayList<>();
        try (ArrowReader in = r.read(ReadOptions.builder().rows(17, ROWS - 5).batchSize(batch).build())) {
          while (in.loadNextBatch()) {
            got.addAll(rows(in.getVectorSchemaRoot()));
          }
        }
        assertThat(got).as("batch size %d", batch).isEqualTo(all.subList(17, ROWS - 5));
      }
      checkTakes(r, all);
    }
    // The same takes from the file mapped into memory, where few values are read in place.
    try (LanceFileReader mapped = LanceFileReader.open(MappedInputFile.open(file), allocator)) {
      checkTakes(mapped, all);
    }
  }

  private static void checkTakes(LanceFileReader r, List<List<Object>> all) throws Exception {
    // Dense takes of single rows: after some values read one by one, a block is unpacked whole.
    for (int stride : new int[] {2, 3, 37}) {
      long[] take = new long[Math.min(3000, (ROWS - 500) / stride)];
      for (int i = 0; i < take.length; i++) {
        take[i] = 500L + (long) i * stride;
      }
      try (VectorSchemaRoot got = r.take(take, null)) {
        List<List<Object>> want = new ArrayList<>();
        for (long t : take) {
          want.add(all.get((int) t));
        }
        assertThat(rows(got)).as("stride %d", stride).isEqualTo(want);
      }
    }
    Random random = new Random(3);
    for (int round = 0; round < 20; round++) {
      long[] take = new long[1 + random.nextInt(300)];
      for (int i = 0; i < take.length; i++) {
        // Some close together (same block), some repeated, some scattered.
        take[i] = i > 0 && random.nextBoolean() ? Math.min(ROWS - 1, take[i - 1] + random.nextInt(3))
            : random.nextInt(ROWS);
      }
      if (round % 2 == 0) {
        Arrays.sort(take);
      }
      try (VectorSchemaRoot got = r.take(take, null)) {
        List<List<Object>> want = new ArrayList<>();
        for (long t : take) {
          want.add(all.get((int) t));
        }
        assertThat(rows(got)).isEqualTo(want);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void parallelReadsReturnTheSequentialBatches(LanceFileVersion version) throws Exception {
    Path file = write(version);
    try (LanceFileReader r = LanceFileReader.open(file, allocator)) {
      for (int batch : new int[] {1000, 4097}) {
        List<List<List<Object>>> want = batches(r, ReadOptions.builder().rows(5, ROWS - 3).batchSize(batch).build());
        for (int threads : new int[] {2, 3, 5}) {
          assertThat(batches(r, ReadOptions.builder().rows(5, ROWS - 3).batchSize(batch).parallelism(threads).build()))
              .as("%d threads, batches of %d", threads, batch).isEqualTo(want);
        }
      }
      assertThat(batches(r, ReadOptions.builder().columns("b").batchSize(999).parallelism(2).build()))
          .isEqualTo(batches(r, ReadOptions.builder().columns("b").batchSize(999).build()));
      // Closed after one batch: the batch decoded ahead is freed (the allocator checks at the end).
      try (ArrowReader in = r.read(ReadOptions.builder().batchSize(100).parallelism(3).build())) {
        assertThat(in.loadNextBatch()).isTrue();
      }
    }
    assertThatThrownBy(() -> ReadOptions.builder().parallelism(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("Parallelism must be positive, got 0");
  }

  private static List<List<List<Object>>> batches(LanceFileReader r, ReadOptions options) throws Exception {
    List<List<List<Object>>> out = new ArrayList<>();
    try (ArrowReader in = r.read(options)) {
      while (in.loadNextBatch()) {
        out.add(rows(in.getVectorSchemaRoot()));
      }
    }
    return out;
  }
}
