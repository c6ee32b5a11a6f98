package dev.javelin.format.internal.v20;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.ReadOptions;
import dev.javelin.testing.RandomBatches;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every 2.0 type written by Javelin and read back: whole, in batches, by row range and by take. */
class V20RoundTripTest {
  @TempDir Path dir;
  @TestAllocator private BufferAllocator allocator;

  @Test
  void everyTypeOverManyPages() throws IOException {
    Path file = dir.resolve("all.lance");
    Schema schema = RandomBatches.allTypes();
    List<List<Object>> expected =
        V20Files.write(file, schema, new int[] {300, 1, 0, 517, 182}, 7, V20Files.options(1024), allocator);
    int rows = expected.get(0).size();

    try (LanceFileReader reader = LanceFileReader.open(file, allocator)) {
      assertThat(reader.version()).isEqualTo(LanceFileVersion.V2_0);
      assertThat(reader.numRows()).isEqualTo(rows);
      // Small pages: every leaf column is split into many pages.
      assertThat(reader.metadata().columns().get(3).getPagesCount()).isGreaterThan(3);

      for (int batch : new int[] {rows, 1000, 64, 7}) {
        assertThat(V20Files.read(reader, ReadOptions.builder().batchSize(batch).build()))
            .as("batch size %d", batch)
            .isEqualTo(expected);
      }
      assertThat(V20Files.read(reader, ReadOptions.builder().rows(250, 777).batchSize(33).build()))
          .isEqualTo(V20Files.slice(expected, 250, 777));
      assertThat(V20Files.read(reader, ReadOptions.builder().rows(rows - 1, rows).build()))
          .isEqualTo(V20Files.slice(expected, rows - 1, rows));
      assertThat(V20Files.read(reader, ReadOptions.builder().rows(5, 5).build()))
          .allSatisfy(col -> assertThat(col).isEmpty());

      Random random = new Random(3);
      List<String> reorderable = reorderable(schema);
      for (int t = 0; t < 5; t++) {
        long[] take = random.longs(1 + random.nextInt(40), 0, rows).toArray();
        take[0] = take[take.length - 1];  // a duplicate
        assertThat(V20Files.take(reader, take, reorderable))
            .isEqualTo(V20Files.pick(columns(schema, expected, reorderable), take));
      }
      long[] sorted = {0, 1, 2, 100, 101, rows - 1};
      assertThat(V20Files.take(reader, sorted, null)).isEqualTo(V20Files.pick(expected, sorted));
    }
  }

  @Test
  void projectionReadsOnlyTheNamedColumns() throws IOException {
    Path file = dir.resolve("p.lance");
    Schema schema = RandomBatches.allTypes();
    List<List<Object>> expected =
        V20Files.write(file, schema, new int[] {200}, 11, V20Files.options(2048), allocator);
    List<String> names = List.of("struct", "utf8", "list_list");
    List<List<Object>> want = new ArrayList<>();
    for (String n : names) {
      want.add(expected.get(indexOf(schema, n)));
    }
    try (LanceFileReader reader = LanceFileReader.open(file, allocator)) {
      assertThat(V20Files.read(reader, ReadOptions.builder().columns(names).batchSize(50).build())).isEqualTo(want);
      long[] take = {150, 3, 3, 199};
      List<List<Object>> picked = V20Files.pick(want, take);
      assertThat(V20Files.take(reader, take, names)).isEqualTo(picked);
    }
  }

  /** The columns a take in random order returns: all of them, every nesting included. */
  static List<String> reorderable(Schema schema) {
    List<String> out = new ArrayList<>();
    for (var f : schema.getFields()) {
      out.add(f.getName());
    }
    return out;
  }

  static List<List<Object>> columns(Schema schema, List<List<Object>> all, List<String> names) {
    List<List<Object>> out = new ArrayList<>();
    for (String n : names) {
      out.add(all.get(indexOf(schema, n)));
    }
    return out;
  }

  private static int indexOf(Schema schema, String name) {
    for (int i = 0; i < schema.getFields().size(); i++) {
      if (schema.getFields().get(i).getName().equals(name)) {
        return i;
      }
    }
    throw new IllegalArgumentException(name);
  }

  @Test
  void zeroRowFile() throws IOException {
    Path file = dir.resolve("empty.lance");
    Schema schema = RandomBatches.allTypes();
    V20Files.write(file, schema, new int[0], 1, V20Files.options(1024), allocator);
    try (LanceFileReader reader = LanceFileReader.open(file, allocator)) {
      assertThat(reader.numRows()).isZero();
      assertThat(V20Files.read(reader, ReadOptions.all())).allSatisfy(col -> assertThat(col).isEmpty());
      assertThat(V20Files.take(reader, new long[0], null)).allSatisfy(col -> assertThat(col).isEmpty());
    }
  }

  @Test
  void emptyBatchesOnlyMakeAZeroRowFile() throws IOException {
    Path file = dir.resolve("empty2.lance");
    V20Files.write(file, RandomBatches.allTypes(), new int[] {0, 0}, 1, V20Files.options(1024), allocator);
    try (LanceFileReader reader = LanceFileReader.open(file, allocator)) {
      assertThat(reader.numRows()).isZero();
      assertThat(V20Files.read(reader, ReadOptions.all())).allSatisfy(col -> assertThat(col).isEmpty());
    }
  }

  @Property(seed = "20261130", tries = 15)
  void randomFilesRoundTrip(
      @ForAll @LongRange(min = 0, max = 1_000_000) long seed,
      @ForAll @IntRange(min = 0, max = 300) int rowsA,
      @ForAll @IntRange(min = 0, max = 300) int rowsB,
      @ForAll @IntRange(min = 0, max = 3) int pageChoice,
      @ForAll @IntRange(min = 1, max = 200) int batchSize) throws IOException {
    long[] pageSizes = {1024, 3000, 1 << 16, 32L << 20};
    Path tmp = Files.createTempDirectory("v20prop");
    try (BufferAllocator a = new RootAllocator()) {
      Path file = tmp.resolve("f.lance");
      List<List<Object>> expected = V20Files.write(
          file, RandomBatches.allTypes(), new int[] {rowsA, rowsB}, seed, V20Files.options(pageSizes[pageChoice]), a);
      int rows = rowsA + rowsB;
      try (LanceFileReader reader = LanceFileReader.open(file, a)) {
        assertThat(V20Files.read(reader, ReadOptions.builder().batchSize(batchSize).build())).isEqualTo(expected);
        if (rows > 0) {
          Random random = new Random(seed);
          int start = random.nextInt(rows);
          int end = start + random.nextInt(rows - start + 1);
          assertThat(V20Files.read(reader, ReadOptions.builder().rows(start, end).batchSize(batchSize).build()))
              .isEqualTo(V20Files.slice(expected, start, end));
          long[] take = random.longs(1 + random.nextInt(30), 0, rows).toArray();
          List<String> names = reorderable(RandomBatches.allTypes());
          assertThat(V20Files.take(reader, take, names))
              .isEqualTo(V20Files.pick(columns(RandomBatches.allTypes(), expected, names), take));
          long[] sorted = java.util.Arrays.stream(take).sorted().distinct().toArray();
          assertThat(V20Files.take(reader, sorted, null)).isEqualTo(V20Files.pick(expected, sorted));
        }
      }
    } finally {
      try (Stream<Path> s = Files.walk(tmp)) {
        s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
