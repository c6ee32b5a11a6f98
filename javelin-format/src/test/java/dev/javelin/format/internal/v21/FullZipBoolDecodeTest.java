package dev.javelin.format.internal.v21;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.proto.Encodings21.FullZipLayout;
import dev.javelin.format.proto.Encodings21.PageLayout;
import dev.javelin.format.proto.Encodings21.RepDefLayer;
import dev.javelin.testing.AllocatorHook;
import dev.javelin.testing.ArrowData;
import dev.javelin.testing.TestAllocator;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Full-zip pages of booleans stored one byte each ({@code Flat} with 8 bits on a boolean leaf),
 * as lance-core 7.0.0 writes sparse lists of booleans, built by hand: whole reads and takes give
 * the booleans back.
 */
@AddLifecycleHook(AllocatorHook.class)
class FullZipBoolDecodeTest {
  @TestAllocator private BufferAllocator allocator;
  private Path dir;
  private int counter;

  @BeforeProperty
  void open() throws Exception {
    dir = Files.createTempDirectory("fzbool");
  }

  @AfterProperty
  void close() throws Exception {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Provide
  Arbitrary<Long> seeds() {
    return Arbitraries.longs();
  }

  private FullZipLayout.Builder layout(int bitsRep, int bitsDef) {
    return FullZipLayout.newBuilder().setBitsRep(bitsRep).setBitsDef(bitsDef).setBitsPerValue(8)
        .setValueCompression(Protos21.flat(8));
  }

  /** Nullable booleans: a definition-level control word and a value byte per row. */
  @Property(seed = "20261130", tries = 20)
  void nullableBooleans(@ForAll("seeds") long seed, @ForAll @IntRange(min = 1, max = 2000) int n) throws Exception {
    Random r = new Random(seed);
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    List<Object> expected = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      boolean nul = r.nextInt(5) == 0;
      boolean v = r.nextBoolean();
      data.write(nul ? 1 : 0);
      data.write(v ? 1 : 0);
      expected.add(nul ? null : v);
    }
    FullZipLayout l = layout(0, 1).setNumItems(n).setNumVisibleItems(n)
        .addLayers(RepDefLayer.REPDEF_NULLABLE_ITEM).build();
    Path f = DecodePages.write(dir.resolve("b" + counter++ + ".lance"), ArrowData.field("b", ArrowType.Bool.INSTANCE),
        LanceFileVersion.V2_1, new DecodePages.Page(PageLayout.newBuilder().setFullZipLayout(l).build(), n,
            List.of(data.toByteArray())));
    assertReads(f, expected, r);
  }

  /**
   * Mostly null or empty lists of nullable booleans: a control word (repetition bit, two
   * definition bits) per item, a value byte after each visible one, and a repetition index.
   */
  @Property(seed = "20261130", tries = 20)
  void sparseListsOfBooleans(@ForAll("seeds") long seed, @ForAll @IntRange(min = 1, max = 2000) int n)
      throws Exception {
    Random r = new Random(seed);
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    List<Integer> starts = new ArrayList<>();
    List<Object> expected = new ArrayList<>();
    int items = 0;
    int visible = 0;
    for (int i = 0; i < n; i++) {
      starts.add(data.size());
      int kind = r.nextInt(20);
      if (kind < 9) {
        // Levels: 0 valid item, 1 null item, 2 null list, 3 empty list; repetition 1 starts a row.
        data.write(1 << 2 | 2);
        items++;
        expected.add(null);
      } else if (kind < 18) {
        data.write(1 << 2 | 3);
        items++;
        expected.add(List.of());
      } else {
        List<Object> list = new ArrayList<>();
        for (int k = 1 + r.nextInt(4); k > 0; k--) {
          int rep = list.isEmpty() ? 1 : 0;
          boolean nul = r.nextInt(4) == 0;
          boolean v = r.nextBoolean();
          data.write(rep << 2 | (nul ? 1 : 0));
          data.write(v ? 1 : 0);
          items++;
          visible++;
          list.add(nul ? null : v);
        }
        expected.add(list);
      }
    }
    starts.add(data.size());
    int w = data.size() < 256 ? 1 : data.size() < 65536 ? 2 : 4;
    ByteArrayOutputStream index = new ByteArrayOutputStream();
    for (int s : starts) {
      index.write(DecodePages.le(s, w), 0, w);
    }
    FullZipLayout l = layout(1, 2).setNumItems(items).setNumVisibleItems(visible)
        .addLayers(RepDefLayer.REPDEF_NULLABLE_ITEM).addLayers(RepDefLayer.REPDEF_NULL_AND_EMPTY_LIST).build();
    Path f = DecodePages.write(dir.resolve("l" + counter++ + ".lance"),
        ArrowData.list("l", ArrowData.field("item", ArrowType.Bool.INSTANCE)), LanceFileVersion.V2_1,
        new DecodePages.Page(PageLayout.newBuilder().setFullZipLayout(l).build(), n,
            List.of(data.toByteArray(), index.toByteArray())));
    assertReads(f, expected, r);
  }

  private void assertReads(Path f, List<Object> expected, Random r) throws Exception {
    List<List<Object>> want = new ArrayList<>();
    for (Object o : expected) {
      List<Object> row = new ArrayList<>();
      row.add(o);
      want.add(row);
    }
    assertThat(V21Fixtures.readAll(allocator, f, 1 + r.nextInt(700))).isEqualTo(want);
    long[] rows = new long[Math.min(30, expected.size())];
    List<List<Object>> taken = new ArrayList<>();
    for (int i = 0; i < rows.length; i++) {
      rows[i] = r.nextInt(expected.size());
      taken.add(want.get((int) rows[i]));
    }
    try (LanceFileReader reader = LanceFileReader.open(f, allocator); VectorSchemaRoot t = reader.take(rows, null)) {
      assertThat(V21Fixtures.rows(t)).isEqualTo(taken);
    }
  }
}
