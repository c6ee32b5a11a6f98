package dev.javelin.format.internal.v20;

import static dev.javelin.testing.RandomBatches.INT32;
import static dev.javelin.testing.RandomBatches.UTF8;
import static dev.javelin.testing.RandomBatches.field;
import static dev.javelin.testing.RandomBatches.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.exceptions.CorruptFileException;
import dev.javelin.format.exceptions.LanceFormatException;
import dev.javelin.format.proto.Encodings20.ArrayEncoding;
import dev.javelin.format.proto.Encodings20.Flat;
import dev.javelin.io.ByteArrayInputFile;
import dev.javelin.testing.RandomBatches;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Corrupt files fail with a {@link LanceFormatException} (a {@link CorruptFileException} naming
 * column and page for bad pages), never with another exception, a leak, or a hang.
 */
class V20CorruptionTest {
  // Columns: 0 i, 1 s, 2 d (dictionary), 3 l offsets, 4 l items, 5 v, 6 st header, 7 st.a
  static final Schema SCHEMA = new Schema(List.of(
      field("i", INT32),
      field("s", UTF8),
      field("lowcard", UTF8),
      field("l", ArrowType.List.INSTANCE, item(INT32)),
      field("v", new ArrowType.FixedSizeList(2), item(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))),
      field("st", ArrowType.Struct.INSTANCE, field("a", new ArrowType.Int(16, true)))));
  static final int ROWS = 120;

  @TempDir Path dir;
  @TestAllocator private BufferAllocator allocator;
  private Path good;

  @BeforeEach
  void open() throws IOException {
    good = dir.resolve("good.lance");
    write(good, 1 << 20);
  }

  // Random values, except that every list holds exactly two items: offsets are 2, 4, 6, ...
  private void write(Path file, long maxPageBytes) throws IOException {
    try (VectorSchemaRoot root = RandomBatches.batch(SCHEMA, ROWS, new Random(5), allocator)) {
      ListVector l = (ListVector) root.getVector("l");
      l.clear();
      l.allocateNew();
      IntVector items = (IntVector) l.getDataVector();
      items.allocateNew(ROWS * 2);
      for (int i = 0; i < ROWS; i++) {
        l.startNewValue(i);
        items.set(2 * i, i);
        items.set(2 * i + 1, -i);
        l.endValue(i, 2);
      }
      items.setValueCount(ROWS * 2);
      l.setValueCount(ROWS);
      try (LanceFileWriter w = LanceFileWriter.create(file, RandomBatches.vectorSchema(root), V20Files.options(maxPageBytes))) {
        w.write(root);
      }
    }
  }

  private void readEverything(LanceFileReader reader) throws IOException {
    V20Files.read(reader, ReadOptions.builder().batchSize(50).build());
    long n = reader.numRows();
    if (n > 0) {
      V20Files.take(reader, new long[] {n - 1, 0, n / 2}, null);
    }
  }

  private void assertCorrupt(FileSurgery surgery, String... messageParts) throws IOException {
    Path bad = dir.resolve("bad.lance");
    Files.deleteIfExists(bad);
    surgery.writeTo(bad);
    assertThatThrownBy(() -> {
      try (LanceFileReader reader = LanceFileReader.open(bad, allocator)) {
        readEverything(reader);
      }
    }).isInstanceOf(CorruptFileException.class).hasMessageContainingAll(messageParts);
  }

  @Test
  void theUntouchedFileReads() throws IOException {
    Path copy = dir.resolve("copy.lance");
    new FileSurgery(good).writeTo(copy);
    try (LanceFileReader reader = LanceFileReader.open(copy, allocator)) {
      readEverything(reader);
      assertThat(V20Files.read(reader, ReadOptions.all())).isEqualTo(V20Files.read(good, ReadOptions.all(), allocator));
    }
  }

  @Test
  void bufferOffsetPastTheEnd() throws IOException {
    assertCorrupt(new FileSurgery(good).page(0, 0, p -> p.setBufferOffsets(1, 1L << 40)), "Column 0 page 0");
  }

  @Test
  void bufferSizesThatCannotBe() throws IOException {
    assertCorrupt(new FileSurgery(good).page(1, 0, p -> p.setBufferSizes(1, 1L << 40)), "Column 1 page 0");
    assertCorrupt(new FileSurgery(good).page(1, 0, p -> p.setBufferSizes(0, -8)), "Column 1 page 0");
    assertCorrupt(new FileSurgery(good).page(1, 0, p -> p.setBufferSizes(0, 16)), "Column 1 page 0", "bytes");
    assertCorrupt(new FileSurgery(good).page(0, 0, p -> p.clearBufferSizes().clearBufferOffsets()), "Column 0 page 0");
  }

  @Test
  void bitsPerValueNonsense() throws IOException {
    for (long bits : new long[] {0, 7, 64, 1L << 40, -1}) {
      assertCorrupt(new FileSurgery(good).encoding(0, 0, e -> {
        e.getNullableBuilder().getSomeNullsBuilder().getValuesBuilder().getFlatBuilder().setBitsPerValue(bits);
        return e;
      }), "Column 0 page 0", "bits per value");
    }
    assertCorrupt(new FileSurgery(good).encoding(3, 0, e -> {
      e.getListBuilder().getOffsetsBuilder().getNullableBuilder().getNoNullsBuilder().getValuesBuilder()
          .getFlatBuilder().setBitsPerValue(32);
      return e;
    }), "Column 3 page 0");
  }

  @Test
  void bufferIndexOutOfRange() throws IOException {
    assertCorrupt(new FileSurgery(good).encoding(0, 0, e -> {
      e.getNullableBuilder().getSomeNullsBuilder().getValuesBuilder().getFlatBuilder().getBufferBuilder()
          .setBufferIndex(9);
      return e;
    }), "Column 0 page 0", "buffer 9");
  }

  @Test
  void encodingThatDoesNotFitTheType() throws IOException {
    assertCorrupt(new FileSurgery(good).encoding(0, 0, e -> ArrayEncoding.newBuilder()
        .setFlat(Flat.newBuilder().setBitsPerValue(32))), "Column 0 page 0");
    assertCorrupt(new FileSurgery(good).encoding(1, 0, e -> ArrayEncoding.newBuilder()
        .setStruct(dev.javelin.format.proto.Encodings20.SimpleStruct.getDefaultInstance())), "Column 1 page 0");
    assertCorrupt(new FileSurgery(good).encoding(5, 0, e -> {
      e.getNullableBuilder().getNoNullsBuilder().getValuesBuilder().getFixedSizeListBuilder().setDimension(3);
      return e;
    }), "Column 5 page 0", "dimension");
    assertCorrupt(new FileSurgery(good).page(2, 0, p -> p.setEncoding(FileSurgery.encode(ArrayEncoding.getDefaultInstance())
        .toBuilder().setDirect(p.getEncoding().getDirect().toBuilder().setEncoding(
            com.google.protobuf.ByteString.copyFromUtf8("not a protobuf at all"))).build())), "Column 2 page 0");
  }

  @Test
  void pageLengthsThatDisagreeWithTheRowCount() throws IOException {
    assertCorrupt(new FileSurgery(good).page(0, 0, p -> p.setLength(ROWS + 1)), "Column 0");
    assertCorrupt(new FileSurgery(good).page(6, 0, p -> p.setLength(ROWS - 1)), "Column 6");
    assertCorrupt(new FileSurgery(good).page(0, 0, p -> p.setLength(-5)), "Column 0 page 0");
  }

  @Test
  void listOffsetsThatDecrease() throws IOException {
    assertCorrupt(new FileSurgery(good).data(3, 0, 0, b -> b.putLong(8 * 10, 3)), "Column 3 page 0", "decrease");
  }

  @Test
  void listOffsetsPastTheItems() throws IOException {
    // A null list whose end passes num_items (2 * ROWS): adjustment + 2 * ROWS + 9.
    long adjustment = 2L * ROWS + 1;
    assertCorrupt(new FileSurgery(good).data(3, 0, 0, b -> b.putLong(8 * (ROWS - 1), adjustment + 2L * ROWS + 9)),
        "Column 3 page 0", "items");
  }

  @Test
  void listItemCountsThatDisagreeWithTheItemColumn() throws IOException {
    assertCorrupt(new FileSurgery(good).encoding(3, 0, e -> {
      e.getListBuilder().setNumItems(2L * ROWS + 1).setNullOffsetAdjustment(2L * ROWS + 2);
      return e;
    }), "Column 4");
    assertCorrupt(new FileSurgery(good).encoding(3, 0, e -> {
      e.getListBuilder().setNullOffsetAdjustment(5);
      return e;
    }), "Column 3 page 0", "null_offset_adjustment");
  }

  @Test
  void stringOffsetsPastOrBackwards() throws IOException {
    assertCorrupt(new FileSurgery(good).data(1, 0, 0, b -> b.putLong(8 * 3, 1L << 33)), "Column 1 page 0");
    assertCorrupt(new FileSurgery(good).data(1, 0, 0, b -> {
      b.putLong(8 * 20, b.getLong(8 * 19) + 5);
      b.putLong(8 * 21, b.getLong(8 * 19) + 1);
    }), "Column 1 page 0", "decrease");
    assertCorrupt(new FileSurgery(good).encoding(1, 0, e -> {
      e.getBinaryBuilder().setNullAdjustment(0);
      return e;
    }), "Column 1 page 0", "null_adjustment");
  }

  @Test
  void dictionaryIndexPastTheItems() throws IOException {
    ArrayEncoding dict = FileSurgery.encoding(new FileSurgery(good).columns().get(2).getPages(0));
    assertThat(dict.hasDictionary()).isTrue();
    assertCorrupt(new FileSurgery(good).data(2, 0, 0, b -> b.put(7, (byte) 200)), "Column 2 page 0", "dictionary");
    assertCorrupt(new FileSurgery(good).encoding(2, 0, e -> {
      e.getDictionaryBuilder().setNumDictionaryItems(1 << 30);
      return e;
    }), "Column 2 page 0");
  }

  /**
   * Flips every byte of a small multi-page file and reads it all each time: metadata bytes (from
   * the schema on) three ways, data bytes one way.
   */
  @Test
  void everyByteFlipFailsCleanlyOrReads() throws IOException {
    Path small = dir.resolve("small.lance");
    write(small, 2048);
    byte[] bytes = Files.readAllBytes(small);
    long metadataStart;
    try (LanceFileReader reader = LanceFileReader.open(small, allocator)) {
      metadataStart = reader.metadata().globalBuffer(0)[0];
      // The sweep covers every page kind: several pages per column, a dictionary, a list, a struct.
      assertThat(FileSurgery.encoding(reader.metadata().columns().get(2).getPages(0)).hasDictionary()).isTrue();
      assertThat(reader.metadata().columns().get(1).getPagesCount()).isGreaterThan(1);
    }
    assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
      int failures = 0;
      for (int pos = 0; pos < bytes.length; pos++) {
        byte original = bytes[pos];
        for (int flip : pos >= metadataStart ? new int[] {0xFF, 0x01, 0x80} : new int[] {0xFF}) {
          bytes[pos] = (byte) (original ^ flip);
          failures += tryRead(allocator, bytes, pos) ? 0 : 1;
        }
        bytes[pos] = original;
      }
      // Most flips in metadata are caught; the test is that none escapes as another exception.
      assertThat(failures).isPositive();
    });
  }

  @Property(tries = 200)
  void randomCorruptionsFailCleanlyOrRead(
      @ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long seed,
      @ForAll @IntRange(min = 1, max = 8) int flips) throws IOException {
    byte[] bytes = sample();
    Random r = new Random(seed);
    for (int i = 0; i < flips; i++) {
      bytes[r.nextInt(bytes.length)] = (byte) r.nextInt(256);
    }
    try (BufferAllocator a = new RootAllocator()) {
      tryRead(a, bytes, -1);
    }
  }

  private static byte[] sampleBytes;

  private static synchronized byte[] sample() throws IOException {
    if (sampleBytes == null) {
      Path tmp = Files.createTempFile("v20sample", ".lance");
      Files.delete(tmp);
      try (BufferAllocator a = new RootAllocator()) {
        V20Files.write(tmp, SCHEMA, new int[] {70, 50}, 3, V20Files.options(1024), a);
      }
      sampleBytes = Files.readAllBytes(tmp);
      Files.delete(tmp);
    }
    return sampleBytes.clone();
  }

  /** Reads a file every way; true if it read, false if it failed with a LanceFormatException. */
  private static boolean tryRead(BufferAllocator parent, byte[] bytes, int pos) throws IOException {
    // A child allocator per read: closing it fails the test if an error path leaked a buffer.
    try (BufferAllocator a = parent.newChildAllocator("read " + pos, 0, Long.MAX_VALUE)) {
      try (LanceFileReader reader = LanceFileReader.open(new ByteArrayInputFile(bytes), a)) {
        V20Files.read(reader, ReadOptions.builder().batchSize(50).build());
        long n = reader.numRows();
        if (n > 0) {
          V20Files.take(reader, new long[] {n - 1, 0, n / 2}, null);
        }
        return true;
      } catch (LanceFormatException e) {
        return false;
      } catch (RuntimeException | Error e) {
        fail("Byte " + pos + " corrupted: expected a LanceFormatException but got " + e, e);
        return false;
      }
    }
  }
}
