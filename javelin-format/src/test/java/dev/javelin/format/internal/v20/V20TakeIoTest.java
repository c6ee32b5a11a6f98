package dev.javelin.format.internal.v20;

import static dev.javelin.testing.RandomBatches.INT32;
import static dev.javelin.testing.RandomBatches.UTF8;
import static dev.javelin.testing.RandomBatches.field;
import static dev.javelin.testing.RandomBatches.item;
import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.ReadOptions;
import dev.javelin.io.CountingInputFile;
import dev.javelin.io.LocalInputFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** Reads touch only the pages (and, for a few rows, only the bytes) they need. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class V20TakeIoTest {
  private BufferAllocator allocator;
  private Path file;
  private List<List<Object>> expected;
  private long fileLength;

  @BeforeAll
  void write(@TempDir Path dir) throws IOException {
    allocator = new RootAllocator();
    file = dir.resolve("big.lance");
    Schema schema = new Schema(List.of(
        field("i", new ArrowType.Int(64, true)),
        field("s", UTF8),
        field("lowcard", UTF8),
        field("l", ArrowType.List.INSTANCE, item(INT32)),
        field("st", ArrowType.Struct.INSTANCE, field("a", ArrowType.Bool.INSTANCE), field("b", ArrowType.Binary.INSTANCE))));
    expected = V20Files.write(file, schema, new int[] {20000, 20000, 20000}, 17, V20Files.options(16 * 1024), allocator);
    fileLength = Files.size(file);
  }

  @AfterAll
  void close() {
    allocator.close();
  }

  private CountingInputFile counting() throws IOException {
    return new CountingInputFile(LocalInputFile.open(file));
  }

  @Test
  void aTakeOfAFewRowsReadsALittle() throws IOException {
    CountingInputFile in = counting();
    try (LanceFileReader reader = LanceFileReader.open(in, allocator)) {
      in.reset();
      long[] rows = {59_999, 12, 31_337, 12};
      assertThat(V20Files.take(reader, rows, null)).isEqualTo(V20Files.pick(expected, rows));
      // Only the pages holding the rows, and of those only the rows' bytes (strings and binary
      // values average well under 16 bytes, so a page read whole would already be 16 KiB).
      assertThat(in.bytesRead()).isLessThan(fileLength / 100).isLessThan(64 * 1024);
    }
  }

  @Test
  void aRowRangeReadsOnlyItsPages() throws IOException {
    CountingInputFile in = counting();
    try (LanceFileReader reader = LanceFileReader.open(in, allocator)) {
      in.reset();
      assertThat(V20Files.read(reader, ReadOptions.builder().rows(30_000, 31_000).build()))
          .isEqualTo(V20Files.slice(expected, 30_000, 31_000));
      assertThat(in.bytesRead()).isLessThan(fileLength / 10);
    }
  }

  @Test
  void aScanInSmallBatchesReadsEachPageOnce() throws IOException {
    CountingInputFile in = counting();
    try (LanceFileReader reader = LanceFileReader.open(in, allocator)) {
      in.reset();
      assertThat(V20Files.read(reader, ReadOptions.builder().batchSize(100).build())).isEqualTo(expected);
      // 600 batches; without the page cache every batch would read whole pages again.
      assertThat(in.bytesRead()).isLessThanOrEqualTo(fileLength);
      long pages = reader.metadata().columns().stream().mapToLong(c -> c.getPagesCount()).sum();
      assertThat(in.reads()).isLessThan(pages * 4);
    }
  }
}
