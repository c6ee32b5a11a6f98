package dev.javelin.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.testing.TestAllocator;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;

class GatherTest {
  @TestAllocator BufferAllocator allocator;

  private IntVector ints(String name, Integer... values) {
    IntVector v = new IntVector(name, allocator);
    v.allocateNew(values.length);
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null) {
        v.set(i, values[i]);
      }
    }
    v.setValueCount(values.length);
    return v;
  }

  @Test
  void fixedWidthValuesFromSeveralSourcesInAnyOrderKeepTheirNulls() {
    try (IntVector a = ints("x", 1, null, 3, 4, 5);
        IntVector b = ints("x", 10, 11, 12)) {
      // Runs (a[2..4], b[0..1]), single values, repeats and nulls.
      int[] from = {0, 0, 0, 1, 1, 0, 0, 1, 0};
      int[] row = {2, 3, 4, 0, 1, 1, 0, 2, 2};
      try (FieldVector g = Gather.gather(new FieldVector[] {a, b}, from, row, allocator)) {
        assertThat(g.getValueCount()).isEqualTo(9);
        List<Object> got = new java.util.ArrayList<>();
        for (int i = 0; i < 9; i++) {
          got.add(g.getObject(i));
        }
        assertThat(got).containsExactly(3, 4, 5, 10, 11, null, 1, 12, 3);
      }
    }
  }

  @Test
  void fixedSizeListsOfFloatsAreGatheredWholeWithNullRows() {
    Field item = new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null);
    Field f = new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(3)), List.of(item));
    try (FixedSizeListVector v = (FixedSizeListVector) f.createVector(allocator)) {
      v.allocateNew();
      Float4Vector data = (Float4Vector) v.getDataVector();
      for (int r = 0; r < 4; r++) {
        if (r == 2) {
          v.setNull(r);
          continue;
        }
        v.setNotNull(r);
        for (int k = 0; k < 3; k++) {
          data.setSafe(r * 3 + k, r * 10 + k);
        }
      }
      v.setValueCount(4);
      try (FieldVector g = Gather.gather(v, new int[] {3, 2, 0, 1, 3}, allocator)) {
        FixedSizeListVector out = (FixedSizeListVector) g;
        assertThat(out.getObject(0)).isEqualTo(List.of(30f, 31f, 32f));
        assertThat(out.isNull(1)).isTrue();
        assertThat(out.getObject(2)).isEqualTo(List.of(0f, 1f, 2f));
        assertThat(out.getObject(3)).isEqualTo(List.of(10f, 11f, 12f));
        assertThat(out.getObject(4)).isEqualTo(List.of(30f, 31f, 32f));
      }
    }
  }
}
