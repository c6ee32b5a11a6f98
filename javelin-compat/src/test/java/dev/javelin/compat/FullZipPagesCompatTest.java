package dev.javelin.compat;

import static dev.javelin.testing.ArrowData.field;
import static dev.javelin.testing.ArrowData.fsl;
import static dev.javelin.testing.ArrowData.largeList;
import static dev.javelin.testing.ArrowData.list;
import static dev.javelin.testing.ArrowData.notNull;
import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.testing.ArrowData;
import dev.javelin.testing.TestAllocator;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Wide fixed-width values under lists (full-zip pages with a repetition index) written by Javelin
 * over many small pages, where a few pages hold a null value and the others none: lance-core
 * 7.0.0 must read every row back equal. Its full-zip reader counts an "all valid" item layer by
 * rows rather than items, so pages of one column that disagree on that layer made it panic
 * (seed 600546 of the random suite).
 *
 * <p>lance-core reads in this JVM, as in {@link JavelinWrites21CompressedTest}: a regression
 * aborts the test run rather than failing one case.
 */
class FullZipPagesCompatTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private static final ArrowType F32 = new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
  private static final ArrowType F64 = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);

  private static Field vec(String name, int dim, ArrowType item, boolean nullable) {
    Field f = fsl(name, dim, field("item", item));
    return nullable ? f : notNull(name, f.getType(), f.getChildren().toArray(new Field[0]));
  }

  static Stream<Arguments> shapes() {
    return Stream.of(
        Arguments.of("list<fsl<float,128>>", list("c", vec("item", 128, F32, true))),
        Arguments.of("struct<list<fsl<float,128>>, date>", notNull("c", ArrowType.Struct.INSTANCE,
            list("f0", vec("item", 128, F32, true)),
            notNull("f1", new ArrowType.Date(org.apache.arrow.vector.types.DateUnit.MILLISECOND)))),
        Arguments.of("list<fsl<float,128> not null>", list("c", vec("item", 128, F32, false))),
        Arguments.of("large_list<fsl<double,64>>", largeList("c", vec("item", 64, F64, true))),
        Arguments.of("list<fixed_size_binary(300)>", list("c", field("item", new ArrowType.FixedSizeBinary(300)))),
        Arguments.of("list<list<fsl<float,128>>>", list("c", list("inner", vec("item", 128, F32, true)))));
  }

  /**
   * Null, empty and short lists; below the lists, one value in twelve is null in the first rows
   * and none after, so that the first pages have null values and the later ones none.
   */
  private static Object value(Field f, Random r, boolean top, boolean nulls) {
    ArrowType t = f.getType();
    if (f.isNullable() && !top && (nulls || t instanceof ArrowType.List) && r.nextInt(12) == 0) {
      return null;
    }
    if (t instanceof ArrowType.Struct) {
      Object[] kids = new Object[f.getChildren().size()];
      for (int k = 0; k < kids.length; k++) {
        kids[k] = value(f.getChildren().get(k), r, false, nulls);
      }
      return kids;
    }
    if (t instanceof ArrowType.List || t instanceof ArrowType.LargeList) {
      if (f.isNullable() && r.nextInt(6) == 0) {
        return null;
      }
      List<Object> items = new ArrayList<>();
      int len = r.nextInt(4);
      for (int k = 0; k < len; k++) {
        items.add(value(f.getChildren().get(0), r, false, nulls));
      }
      return items;
    }
    if (t instanceof ArrowType.FixedSizeList) {
      List<Object> items = new ArrayList<>();
      for (int k = 0; k < ((ArrowType.FixedSizeList) t).getListSize(); k++) {
        items.add(value(f.getChildren().get(0), r, true, false));
      }
      return items;
    }
    if (t instanceof ArrowType.FixedSizeBinary) {
      byte[] b = new byte[((ArrowType.FixedSizeBinary) t).getByteWidth()];
      r.nextBytes(b);
      return b;
    }
    if (t instanceof ArrowType.Date) {
      return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(r.nextInt(1 << 20) * 86_400_000L).array();
    }
    boolean dbl = ((ArrowType.FloatingPoint) t).getPrecision() == FloatingPointPrecision.DOUBLE;
    ByteBuffer b = ByteBuffer.allocate(dbl ? 8 : 4).order(ByteOrder.LITTLE_ENDIAN);
    return dbl ? b.putDouble(r.nextGaussian()).array() : b.putFloat((float) r.nextGaussian()).array();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shapes")
  void lanceReadsManySmallFullZipPages(String name, Field f) throws Exception {
    Schema schema = new Schema(List.of(f));
    Random r = new Random(name.hashCode());
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 700; i++) {
      rows.add(new Object[] {value(f, r, true, i < 100)});
    }
    for (long maxPageBytes : new long[] {1024, 4096, 65536}) {
      Path file = dir.resolve(name.replaceAll("\\W", "_") + "-" + maxPageBytes + ".lance");
      try (Table expected = Table.of(ArrowData.root(schema, rows, allocator))) {
        JavelinIO.write(file, LanceFileVersion.V2_1, maxPageBytes, schema, expected.batches());
        List<String> layouts = V21SmokeTest.layouts(file);
        assertThat(layouts).as("Javelin's pages").hasSizeGreaterThan(2).anyMatch(l -> l.startsWith("full_zip_layout"));
        String context = "Javelin wrote 2.1 (maxPageBytes " + maxPageBytes + "), " + name;
        ReadChecks.lance(file, expected, new Random(maxPageBytes), allocator, context);
        ReadChecks.javelin(file, expected, new Random(maxPageBytes), allocator, context);
      }
    }
  }
}
