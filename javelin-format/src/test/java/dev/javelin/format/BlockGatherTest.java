package dev.javelin.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.testing.TestAllocator;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;

/** The block copies of fixed-width columns and fixed-size lists equal the general gather. */
class BlockGatherTest {
  @TestAllocator private BufferAllocator allocator;

  private static final int N = 300;
  private static final int[] IDX = indices();

  private static int[] indices() {
    Random r = new Random(5);
    int[] idx = new int[257];
    for (int i = 0; i < idx.length; i++) {
      idx[i] = r.nextInt(N);
    }
    idx[3] = 7; // a run and a repeat
    idx[4] = 8;
    idx[5] = 8;
    return idx;
  }

  @Test
  void fixedWidthColumnsWithAndWithoutNulls() {
    for (boolean nulls : new boolean[] {false, true}) {
      try (BigIntVector longs = new BigIntVector("l", allocator); IntVector ints = new IntVector("i", allocator);
          SmallIntVector shorts = new SmallIntVector("s", allocator)) {
        longs.allocateNew(N);
        ints.allocateNew(N);
        shorts.allocateNew(N);
        for (int i = 0; i < N; i++) {
          if (nulls && i % 5 == 2) {
            longs.setNull(i);
            ints.setNull(i);
            shorts.setNull(i);
          } else {
            longs.set(i, i * 1_000_000_007L);
            ints.set(i, -i);
            shorts.set(i, (short) (i * 3));
          }
        }
        longs.setValueCount(N);
        ints.setValueCount(N);
        shorts.setValueCount(N);
        for (FieldVector v : List.<FieldVector>of(longs, ints, shorts)) {
          assertSameAsGather(v);
        }
      }
    }
  }

  @Test
  void fixedSizeListsOfFloatsWithNullListsAndNullItems() {
    Field item = new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
        null);
    Field field = new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(3)), List.of(item));
    for (boolean nulls : new boolean[] {false, true}) {
      try (FixedSizeListVector v = (FixedSizeListVector) field.createVector(allocator)) {
        v.setInitialCapacity(N);
        v.allocateNew();
        Float4Vector items = (Float4Vector) v.getDataVector();
        for (int i = 0; i < N; i++) {
          if (nulls && i % 7 == 1) {
            v.setNull(i);
          } else {
            v.setNotNull(i);
          }
          for (int j = 0; j < 3; j++) {
            if (nulls && (i + j) % 11 == 0) {
              items.setNull(i * 3 + j);
            } else {
              items.setSafe(i * 3 + j, i + j / 10f);
            }
          }
        }
        items.setValueCount(3 * N);
        v.setValueCount(N);
        assertSameAsGather(v);
      }
    }
  }

  @Test
  void emptyStringsAndBinaries() {
    try (VarCharVector s = new VarCharVector("s", allocator);
        org.apache.arrow.vector.VarBinaryVector b = new org.apache.arrow.vector.VarBinaryVector("b", allocator)) {
      s.allocateNew();
      b.allocateNew();
      for (int i = 0; i < N; i++) {
        s.setSafe(i, new byte[0]);
        b.setSafe(i, new byte[i % 3]);
      }
      s.setValueCount(N);
      b.setValueCount(N);
      assertSameAsGather(s);
      assertSameAsGather(b);
    }
  }

  @Test
  void stringsWithNulls() {
    try (VarCharVector s = new VarCharVector("s", allocator)) {
      s.allocateNew();
      for (int i = 0; i < N; i++) {
        if (i % 4 == 0) {
          s.setNull(i);
        } else {
          s.setSafe(i, ("row-" + i).getBytes(StandardCharsets.UTF_8));
        }
      }
      s.setValueCount(N);
      assertSameAsGather(s);
    }
  }

  @Test
  void otherColumnsTakeTheGeneralGather() {
    try (org.apache.arrow.vector.BitVector bits = new org.apache.arrow.vector.BitVector("b", allocator)) {
      bits.allocateNew(N);
      for (int i = 0; i < N; i++) {
        if (i % 6 == 0) {
          bits.setNull(i);
        } else {
          bits.set(i, i % 4 == 1 ? 1 : 0);
        }
      }
      bits.setValueCount(N);
      assertSameAsGather(bits);
    }
  }

  private void assertSameAsGather(FieldVector v) {
    // The general path (several sources) against the one-source gather, which copies blocks.
    try (FieldVector want = Gather.gather(new FieldVector[] {v}, new int[IDX.length], IDX, allocator);
        FieldVector got = Gather.gather(v, IDX, allocator)) {
      assertThat(got.getValueCount()).isEqualTo(IDX.length);
      assertThat(got.getNullCount()).isEqualTo(want.getNullCount());
      for (int i = 0; i < IDX.length; i++) {
        assertThat(got.getObject(i)).as("%s row %d", v.getName(), i).isEqualTo(want.getObject(i));
        assertThat(got.getObject(i)).isEqualTo(v.getObject(IDX[i]));
      }
      if (got instanceof FixedSizeListVector fsl) {
        FieldVector gi = (FieldVector) fsl.getDataVector();
        FieldVector wi = (FieldVector) ((FixedSizeListVector) want).getDataVector();
        assertThat(gi.getValueCount()).isEqualTo(wi.getValueCount());
        for (int i = 0; i < gi.getValueCount(); i++) {
          assertThat(gi.isNull(i)).isEqualTo(wi.isNull(i));
        }
      }
    }
  }
}
