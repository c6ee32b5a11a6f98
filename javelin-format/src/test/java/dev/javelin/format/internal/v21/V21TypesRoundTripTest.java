package dev.javelin.format.internal.v21;

import static dev.javelin.testing.ArrowData.field;
import static dev.javelin.testing.ArrowData.fsl;
import static dev.javelin.testing.ArrowData.largeList;
import static dev.javelin.testing.ArrowData.list;
import static dev.javelin.testing.ArrowData.struct;
import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.testing.ArrowData;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every type, alone and nested, through Javelin's 2.1 writer and reader. */
class V21TypesRoundTripTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  static Stream<Field> fields() {
    List<Field> out = new ArrayList<>(ArrowData.primitives());
    Field i32 = field("item", new ArrowType.Int(32, true));
    Field f32 = field("item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE));
    Field str = field("item", ArrowType.Utf8.INSTANCE);
    out.add(list("list_int", i32));
    out.add(largeList("large_list_int", i32));
    out.add(list("list_str", str));
    out.add(struct("struct", field("a", new ArrowType.Int(64, true)), field("b", ArrowType.Utf8.INSTANCE)));
    out.add(list("list_struct", struct("item", field("a", new ArrowType.Int(16, true)), str)));
    out.add(struct("struct_list", list("l", i32), field("x", ArrowType.Bool.INSTANCE)));
    out.add(list("list_list", list("item", i32)));
    out.add(list("list_list_list", list("item", list("item", str))));
    out.add(struct("struct_struct", struct("inner", field("z", new ArrowType.Int(8, true)))));
    out.add(fsl("fsl2", 2, f32));
    out.add(fsl("fsl16", 16, f32));
    out.add(fsl("fsl128", 128, f32));
    out.add(fsl("fsl_bool", 9, field("item", ArrowType.Bool.INSTANCE)));
    out.add(fsl("fsl_fsl", 3, fsl("item", 2, i32)));
    out.add(list("list_fsl", fsl("item", 4, i32)));
    out.add(list("list_struct_list", struct("item", list("l", i32))));
    out.add(field("fsb300", new ArrowType.FixedSizeBinary(300)));
    return out.stream();
  }

  @ParameterizedTest
  @MethodSource("fields")
  void roundTrip(Field f) throws Exception {
    Schema schema = new Schema(List.of(f));
    ArrowData.Gen g = new ArrowData.Gen(f.getName().hashCode());
    try (VectorSchemaRoot root = ArrowData.root(schema, ArrowData.randomRows(schema, 3000, g), allocator)) {
      Path file = V21Fixtures.write(dir.resolve("t.lance"), V21Fixtures.v21(), root);
      assertThat(V21Fixtures.readAll(allocator, file, 777)).isEqualTo(V21Fixtures.rows(root));
      Path small = V21Fixtures.write(dir.resolve("small.lance"), V21Fixtures.v21(4096), root);
      List<List<Object>> expected = V21Fixtures.rows(root);
      assertThat(V21Fixtures.readAll(allocator, small, 1000)).isEqualTo(expected);
      long[] take = {2999, 0, 1234, 1234, 17, 2000, 17, 1};
      if (V21RandomRoundTripTest.nestedFsl(List.of(f))) {
        // LanceFileReader reorders with copyFromSafe, which Arrow Java 18 lacks for these.
        take = java.util.Arrays.stream(take).sorted().distinct().toArray();
      }
      List<List<Object>> want = new ArrayList<>();
      for (long t : take) {
        want.add(expected.get((int) t));
      }
      try (dev.javelin.format.LanceFileReader r = dev.javelin.format.LanceFileReader.open(small, allocator);
          VectorSchemaRoot t = r.take(take, null)) {
        assertThat(V21Fixtures.rows(t)).isEqualTo(want);
      }
    }
  }
}
