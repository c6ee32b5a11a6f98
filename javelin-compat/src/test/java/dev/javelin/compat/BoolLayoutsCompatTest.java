package dev.javelin.compat;

import static dev.javelin.testing.ArrowData.field;
import static dev.javelin.testing.ArrowData.largeList;
import static dev.javelin.testing.ArrowData.list;
import static dev.javelin.testing.ArrowData.notNull;
import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.testing.ArrowData;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Booleans under lists that are nearly all null or empty: lance-core 7.0.0 cannot fit their
 * rep/def levels in a mini-block chunk and falls back to a full-zip page, where it widens each
 * boolean to one byte ({@code Flat} with 8 bits on a 1-bit leaf). Javelin reads those files with
 * the values lance-core was given: whole, by row ranges and by takes.
 */
class BoolLayoutsCompatTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private static Field bool(boolean nullable) {
    return nullable ? field("item", ArrowType.Bool.INSTANCE) : notNull("item", ArrowType.Bool.INSTANCE);
  }

  static Stream<Arguments> shapes() {
    return Stream.of(
        Arguments.of("list<bool not null>", list("c", bool(false))),
        Arguments.of("list<bool>", list("c", bool(true))),
        Arguments.of("struct<list<bool not null>>",
            notNull("c", ArrowType.Struct.INSTANCE, list("f0", bool(false)))),
        Arguments.of("struct<struct<list<bool not null>>>", notNull("c", ArrowType.Struct.INSTANCE,
            notNull("s", ArrowType.Struct.INSTANCE, list("f0", bool(false))))),
        Arguments.of("large_list<list<bool not null>>", largeList("c", list("item", bool(false)))),
        Arguments.of("list<struct<bool>>",
            list("c", field("item", ArrowType.Struct.INSTANCE, field("b", ArrowType.Bool.INSTANCE)))));
  }

  /** Mostly null or empty rows, with a few lists of both true and false values (and nulls). */
  private static List<Object[]> sparseRows(Field f, int n, Random r) {
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(new Object[] {i % 97 == 3 ? value(f, r) : (f.isNullable() && r.nextBoolean() ? null : empty(f))});
    }
    return rows;
  }

  private static Object empty(Field f) {
    if (f.getType() instanceof ArrowType.Struct) {
      return new Object[] {empty(f.getChildren().get(0))};
    }
    return List.of();
  }

  private static Object value(Field f, Random r) {
    ArrowType t = f.getType();
    if (t instanceof ArrowType.Bool) {
      return f.isNullable() && r.nextInt(4) == 0 ? null : r.nextBoolean();
    }
    if (t instanceof ArrowType.Struct) {
      Object[] kids = new Object[f.getChildren().size()];
      for (int k = 0; k < kids.length; k++) {
        kids[k] = value(f.getChildren().get(k), r);
      }
      return kids;
    }
    List<Object> items = new ArrayList<>();
    int len = 1 + r.nextInt(3);
    for (int k = 0; k < len; k++) {
      items.add(value(f.getChildren().get(0), r));
    }
    return items;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shapes")
  void javelinReadsSparseBooleansLanceWrites(String name, Field f) throws Exception {
    Schema schema = new Schema(List.of(f));
    for (LanceFileVersion version : new LanceFileVersion[] {LanceFileVersion.V2_1, LanceFileVersion.V2_2}) {
      Path file = dir.resolve(name.replaceAll("\\W", "_") + "-" + version + ".lance");
      List<Object[]> rows = sparseRows(f, 1000, new Random(name.hashCode()));
      try (Table expected = Table.of(ArrowData.root(schema, rows, allocator))) {
        LanceOracle.write(file, version, allocator, expected.batches());
        String layouts = String.join("\n", V21SmokeTest.layouts(file));
        if (version == LanceFileVersion.V2_1) {
          assertThat(layouts).as("the layout lance-core chose").startsWith("full_zip_layout")
              .contains("value_compression { flat { bits_per_value: 8 } }");
        }
        ReadChecks.javelin(file, expected, new Random(7), allocator, "lance-core wrote " + version + ", " + name);
      }
    }
  }
}
