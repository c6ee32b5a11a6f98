package dev.javelin.format.internal.v21;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The writer's buffer sizing does not change what it writes: a file written with the row count
 * announced ({@link WriteOptions#expectedRows()}: exact, too many, too few) has the same bytes as
 * one written without, and reads back as written; so do pages whose null runs the writer reads
 * from the validity bitmap 64 rows at a time.
 */
@AddLifecycleHook(AllocatorHook.class)
class V21WriterBuffersTest {
  @TestAllocator private BufferAllocator allocator;
  private Path dir;
  private int counter;

  @BeforeProperty
  void open() throws Exception {
    dir = Files.createTempDirectory("v21buf");
  }

  @AfterProperty
  void close() throws Exception {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  private static WriteOptions options(long pageBytes, boolean compression, long expectedRows) {
    return WriteOptions.builder().version(LanceFileVersion.V2_1).maxPageBytes(pageBytes).compression(compression)
        .expectedRows(expectedRows).build();
  }

  @Property(seed = "20261202", tries = 30)
  void announcedRowsWriteTheSameBytes(@ForAll long seed, @ForAll @IntRange(min = 0, max = 3000) int rows)
      throws Exception {
    Random r = new Random(seed);
    List<Field> fields = new ArrayList<>();
    int n = 1 + r.nextInt(4);
    for (int i = 0; i < n; i++) {
      fields.add(V21RandomRoundTripTest.randomField(r, "f" + i, 0));
    }
    // Flat columns too, where the validity runs decide every definition code.
    fields.add(ArrowData.field("i", new ArrowType.Int(64, true)));
    fields.add(ArrowData.field("s", ArrowType.Utf8.INSTANCE));
    Schema schema = new Schema(fields);
    ArrowData.Gen g = new ArrowData.Gen(seed);
    g.nullRate = new double[] {0, 0.02, 0.5, 0.97}[r.nextInt(4)];
    long pageBytes = new long[] {1024, 5000, 32L << 20}[r.nextInt(3)];
    boolean compression = r.nextBoolean();
    List<Object[]> data = ArrowData.randomRows(schema, rows, g);
    int cut = r.nextInt(rows + 1);
    try (VectorSchemaRoot a = ArrowData.root(schema, data.subList(0, cut), allocator);
        VectorSchemaRoot b = ArrowData.root(schema, data.subList(cut, rows), allocator);
        VectorSchemaRoot all = ArrowData.root(schema, data, allocator)) {
      Path plain = V21Fixtures.write(dir.resolve("p" + counter + ".lance"), options(pageBytes, compression, 0), a, b);
      byte[] expected = Files.readAllBytes(plain);
      long[] announce = {rows, 3L * rows + 7, Math.max(1, rows / 3)};
      for (int k = 0; k < announce.length; k++) {
        long announced = announce[k];
        Path f = V21Fixtures.write(dir.resolve("e" + counter + "-" + k + ".lance"),
            options(pageBytes, compression, announced), a, b);
        assertThat(Files.readAllBytes(f)).as("bytes with %d rows announced", announced).isEqualTo(expected);
      }
      counter++;
      assertThat(V21Fixtures.readAll(allocator, plain, 1 + r.nextInt(200))).isEqualTo(V21Fixtures.rows(all));
    }
  }

  @Property(tries = 1)
  void expectedRowsMustNotBeNegative() {
    assertThatThrownBy(() -> WriteOptions.builder().expectedRows(-1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expectedRows must not be negative, got -1");
    assertThat(WriteOptions.defaults().expectedRows()).isZero();
  }
}
