package dev.javelin.format.internal.v21;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.WriteOptions;
import dev.javelin.io.CountingInputFile;
import dev.javelin.io.LocalInputFile;
import dev.javelin.testing.ArrowData;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Takes read only the chunks or values that hold their rows; scans read each page once. */
class V21ReadCostTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private Path write(Field field, int rows, ArrowData.Gen g) throws Exception {
    return write(field, rows, g, true);
  }

  private Path write(Field field, int rows, ArrowData.Gen g, boolean compression) throws Exception {
    Schema schema = new Schema(List.of(field));
    try (VectorSchemaRoot root = ArrowData.root(schema, ArrowData.randomRows(schema, rows, g), allocator)) {
      WriteOptions opts = WriteOptions.builder().version(LanceFileVersion.V2_1).compression(compression).build();
      return V21Fixtures.write(dir.resolve(field.getName() + compression + ".lance"), opts, root);
    }
  }

  /** Bytes read to take the given rows, after the file's metadata has been read. */
  private long takeCost(Path file, long... rows) throws Exception {
    CountingInputFile in = new CountingInputFile(LocalInputFile.open(file));
    try (LanceFileReader r = LanceFileReader.open(in, allocator)) {
      in.reset();
      try (VectorSchemaRoot t = r.take(rows, null)) {
        assertThat(t.getRowCount()).isEqualTo(rows.length);
      }
      return in.bytesRead();
    }
  }

  private long scanCost(Path file, int batchSize) throws Exception {
    CountingInputFile in = new CountingInputFile(LocalInputFile.open(file));
    try (LanceFileReader r = LanceFileReader.open(in, allocator)) {
      in.reset();
      try (ArrowReader it = r.read(ReadOptions.builder().batchSize(batchSize).build())) {
        while (it.loadNextBatch()) {
          // consume
        }
      }
      return in.bytesRead();
    }
  }

  @Test
  void miniBlockTakeReadsOneChunk() throws Exception {
    Path f = write(ArrowData.field("x", new ArrowType.Int(64, true)), 300_000, new ArrowData.Gen(1), false);
    long fileSize = Files.size(f);
    // Uncompressed: the chunk metadata (2 bytes per chunk, 586 chunks) plus one chunk: a header,
    // 512 definition levels and 512 values.
    assertThat(takeCost(f, 123_456)).isEqualTo(586 * 2 + 8 + 512 * 2 + 512 * 8);
    assertThat(takeCost(f, 5, 299_999)).isLessThan(586 * 2 + 2 * (8 + 512 * 10));
    assertThat(fileSize).isGreaterThan(2_000_000);
    // Compressed (bit-packed levels and values): one chunk of 1024 values, and less in all.
    Path c = write(ArrowData.field("x", new ArrowType.Int(64, true)), 300_000, new ArrowData.Gen(1), true);
    assertThat(takeCost(c, 123_456)).isLessThan(586 * 2 + 8 + 512 * 2 + 512 * 8);
  }

  @Test
  void miniBlockStringsTake() throws Exception {
    ArrowData.Gen g = new ArrowData.Gen(2);
    Path f = write(ArrowData.field("s", ArrowType.Utf8.INSTANCE), 200_000, g);
    assertThat(takeCost(f, 100_000)).isLessThan(8_000);
  }

  @Test
  void listTakeUsesTheRepetitionIndex() throws Exception {
    ArrowData.Gen g = new ArrowData.Gen(3);
    g.maxList = 10;
    Path f = write(ArrowData.list("l", ArrowData.field("item", new ArrowType.Int(32, true))), 100_000, g);
    // Chunk metadata + repetition index (16 bytes per chunk) + at most two chunks.
    long chunks = Files.size(f) / 4096;
    assertThat(takeCost(f, 77_777)).isLessThan(18 * chunks + 2 * 8192 + 1024);
  }

  @Test
  void fullZipVariableTakeReadsIndexEntriesAndTheValue() throws Exception {
    ArrowData.Gen g = new ArrowData.Gen(4);
    g.minString = 300;
    g.maxString = 400;
    Path f = write(ArrowData.field("wide", ArrowType.Utf8.INSTANCE), 20_000, g, false);
    assertThat(Files.size(f)).isGreaterThan(6_000_000);
    assertThat(takeCost(f, 12_345)).isLessThan(420);
    // Compressed (FSST, one value at a time): the same reads, of fewer bytes.
    ArrowData.Gen g2 = new ArrowData.Gen(4);
    g2.minString = 300;
    g2.maxString = 400;
    Path c = write(ArrowData.field("wide", ArrowType.Utf8.INSTANCE), 20_000, g2, true);
    assertThat(takeCost(c, 12_345)).isLessThan(420);
  }

  @Test
  void fullZipFixedTakeReadsOneValue() throws Exception {
    ArrowData.Gen g = new ArrowData.Gen(5);
    g.nullRate = 0;
    Field item = ArrowData.field("item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE));
    Path f = write(ArrowData.fsl("v", 128, item), 10_000, g);
    assertThat(takeCost(f, 4_321)).isEqualTo(512);
  }

  @Test
  void listOfWideStringsTake() throws Exception {
    ArrowData.Gen g = new ArrowData.Gen(6);
    g.minString = 300;
    g.maxString = 310;
    Path f = write(ArrowData.list("l", ArrowData.field("item", ArrowType.Utf8.INSTANCE)), 5_000, g);
    // Two index entries plus one row of at most 4 values.
    assertThat(takeCost(f, 2_500)).isLessThan(4 * 330 + 64);
  }

  @Test
  void scanInBatchesReadsEachPageOnce() throws Exception {
    ArrowData.Gen g = new ArrowData.Gen(7);
    Path ints = write(ArrowData.field("x", new ArrowType.Int(32, true)), 500_000, g);
    assertThat(scanCost(ints, 8192)).isLessThan((long) (Files.size(ints) * 1.05));
    Path strs = write(ArrowData.field("s", ArrowType.Utf8.INSTANCE), 200_000, g);
    assertThat(scanCost(strs, 8192)).isLessThan((long) (Files.size(strs) * 1.05));
    Path lists = write(ArrowData.list("l", ArrowData.field("item", new ArrowType.Int(16, true))), 200_000, g);
    assertThat(scanCost(lists, 8192)).isLessThan((long) (Files.size(lists) * 1.05));
  }
}
