package dev.javelin.format.internal.v21;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.WriteOptions;
import dev.javelin.testing.AllocatorHook;
import dev.javelin.testing.ArrowData;
import dev.javelin.testing.TestAllocator;
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
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Encoding fields on several threads writes the same bytes as one thread, and pages that reuse
 * the previous page's buffers (some with nulls, some without) read back as written.
 */
@AddLifecycleHook(AllocatorHook.class)
class V21ParallelWriteTest {
  @TestAllocator private BufferAllocator allocator;
  private Path dir;
  private int counter;

  @BeforeProperty
  void open() throws Exception {
    dir = Files.createTempDirectory("v21par");
  }

  @AfterProperty
  void close() throws Exception {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  private static WriteOptions options(long pageBytes, int threads, boolean compression) {
    return WriteOptions.builder().version(LanceFileVersion.V2_1).maxPageBytes(pageBytes)
        .parallelism(threads).compression(compression).build();
  }

  @Property(seed = "20261201", tries = 25)
  void parallelWritesTheSameBytes(@ForAll long seed, @ForAll @IntRange(min = 0, max = 500) int rows) throws Exception {
    Random r = new Random(seed);
    List<Field> fields = new ArrayList<>();
    int n = 2 + r.nextInt(4);
    for (int i = 0; i < n; i++) {
      fields.add(V21RandomRoundTripTest.randomField(r, "f" + i, 0));
    }
    Schema schema = new Schema(fields);
    ArrowData.Gen g = new ArrowData.Gen(seed);
    g.nullRate = new double[] {0, 0.05, 0.5}[r.nextInt(3)];
    if (r.nextInt(4) == 0) {
      g.minString = 250;
      g.maxString = 300;
    }
    long pageBytes = new long[] {1024, 5000, 32L << 20}[r.nextInt(3)];
    boolean compression = r.nextInt(4) != 0;
    List<Object[]> data = ArrowData.randomRows(schema, rows, g);
    int cut1 = r.nextInt(rows + 1);
    int cut2 = cut1 + r.nextInt(rows - cut1 + 1);
    try (VectorSchemaRoot a = ArrowData.root(schema, data.subList(0, cut1), allocator);
        VectorSchemaRoot b = ArrowData.root(schema, data.subList(cut1, cut2), allocator);
        VectorSchemaRoot c = ArrowData.root(schema, data.subList(cut2, rows), allocator);
        VectorSchemaRoot all = ArrowData.root(schema, data, allocator)) {
      Path one = V21Fixtures.write(dir.resolve("s" + counter + ".lance"), options(pageBytes, 1, compression), a, b, c);
      Path many = V21Fixtures.write(dir.resolve("p" + counter++ + ".lance"), options(pageBytes, 4, compression), a, b, c);
      assertThat(Files.readAllBytes(many)).as("bytes with 4 threads").isEqualTo(Files.readAllBytes(one));
      assertThat(V21Fixtures.readAll(allocator, many, 1 + r.nextInt(100))).isEqualTo(V21Fixtures.rows(all));
    }
  }

  @Property(tries = 2)
  void reusedPageBuffersKeepEachPagesNulls(@ForAll @IntRange(min = 1, max = 4) int threads) throws Exception {
    // Vectors of 64 floats are 256 bytes: full-zip pages, copied whole when they have no null
    // item and value by value otherwise; strings go mini-block. Small pages make many of both.
    Field item = ArrowData.field("item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE));
    Schema schema = new Schema(List.of(ArrowData.fsl("v", 64, item),
        ArrowData.field("s", ArrowType.Utf8.INSTANCE), ArrowData.field("i", new ArrowType.Int(64, true))));
    List<VectorSchemaRoot> batches = new ArrayList<>();
    List<Object[]> data = new ArrayList<>();
    try {
      for (int k = 0; k < 4; k++) {
        ArrowData.Gen g = new ArrowData.Gen(k);
        g.nullRate = k % 2 == 0 ? 0.2 : 0;
        List<Object[]> rows = ArrowData.randomRows(schema, 300, g);
        data.addAll(rows);
        batches.add(ArrowData.root(schema, rows, allocator));
      }
      Path file = V21Fixtures.write(dir.resolve("r" + counter++ + ".lance"), options(8192, threads, true),
          batches.toArray(new VectorSchemaRoot[0]));
      try (VectorSchemaRoot all = ArrowData.root(schema, data, allocator)) {
        assertThat(V21Fixtures.readAll(allocator, file, 97)).isEqualTo(V21Fixtures.rows(all));
      }
      assertThat(data.stream().anyMatch(row -> row[0] != null && ((List<?>) row[0]).contains(null)))
          .as("some item is null").isTrue();
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  @Property(tries = 1)
  void parallelismMustBePositive() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> WriteOptions.builder().parallelism(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("parallelism must be at least 1, got 0");
    assertThat(WriteOptions.defaults().parallelism()).isEqualTo(Runtime.getRuntime().availableProcessors());
  }
}
