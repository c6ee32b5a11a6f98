package dev.javelin.table.rowids;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.javelin.table.proto.RowIdProtos;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.LongStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class U64SegmentTest {
  @Test
  void picksTheFormLanceDoes() {
    assertThat(U64Segment.of().kind()).isEqualTo(U64Segment.Kind.RANGE);
    assertThat(U64Segment.of(5, 6, 7)).isEqualTo(U64Segment.range(5, 8));
    // 1000 slots, 2 holes: holes (24 + 8) beat a bitmap (24 + 125) and an array (24 + 1996).
    long[] twoHoles = LongStream.range(0, 1000).filter(v -> v != 10 && v != 500).toArray();
    assertThat(U64Segment.of(twoHoles).kind()).isEqualTo(U64Segment.Kind.RANGE_WITH_HOLES);
    // Every other value of 1000: bitmap 24 + 125 beats holes 24 + 2000 and array 24 + 1000.
    long[] evens = LongStream.range(0, 1000).map(v -> v * 2).toArray();
    assertThat(U64Segment.of(evens).kind()).isEqualTo(U64Segment.Kind.RANGE_WITH_BITMAP);
    long[] sparse = {3, 1_000, 70_000, 5_000_000_000L};
    assertThat(U64Segment.of(sparse).kind()).isEqualTo(U64Segment.Kind.SORTED_ARRAY);
    assertThat(U64Segment.of(9, 3, 4).kind()).isEqualTo(U64Segment.Kind.ARRAY);
    assertThat(U64Segment.of(3, 3, 4).kind()).as("repeats keep their values").isEqualTo(U64Segment.Kind.ARRAY);
    // Ties go to holes: 16 slots, 2 values: holes 24 + 56, bitmap 24 + 2, array 24 + 4 -> bitmap.
    assertThat(U64Segment.of(0, 15).kind()).isEqualTo(U64Segment.Kind.RANGE_WITH_BITMAP);
    // 3 slots, 2 values: holes 28, bitmap 25, array 28.
    assertThat(U64Segment.of(0, 2).kind()).isEqualTo(U64Segment.Kind.RANGE_WITH_BITMAP);
  }

  @Test
  void encodedArraysUseTheNarrowestWidth() {
    assertThat(RowIdProtos.U64Segment.newBuilder().mergeFrom(U64Segment.of(9, 3, 4).toProto()).build()
        .getArray().getArrayCase()).isEqualTo(RowIdProtos.EncodedU64Array.ArrayCase.U16_ARRAY);
    RowIdProtos.EncodedU64Array a = U64Segment.of(100, 100 + 70_000, 50).toProto().getArray();
    assertThat(a.getArrayCase()).isEqualTo(RowIdProtos.EncodedU64Array.ArrayCase.U32_ARRAY);
    assertThat(a.getU32Array().getBase()).isEqualTo(50);
    // Offsets of 100, 70100, 50 from 50 are 50, 70050 (0x111A2), 0.
    assertThat(a.getU32Array().getOffsets().toByteArray())
        .containsExactly(50, 0, 0, 0, 0xA2, 0x11, 1, 0, 0, 0, 0, 0);
    assertThat(U64Segment.of(1L << 40, 0).toProto().getArray().getArrayCase())
        .isEqualTo(RowIdProtos.EncodedU64Array.ArrayCase.U64_ARRAY);
    // Holes of a RangeWithHoles are absolute values, offsets from the smallest hole.
    RowIdProtos.U64Segment.RangeWithHoles h = U64Segment.of(
        LongStream.range(1000, 2000).filter(v -> v != 1010 && v != 1500).toArray()).toProto().getRangeWithHoles();
    assertThat(h.getStart()).isEqualTo(1000);
    assertThat(h.getEnd()).isEqualTo(2000);
    assertThat(h.getHoles().getU16Array().getBase()).isEqualTo(1010);
    assertThat(h.getHoles().getU16Array().getOffsets().toByteArray()).containsExactly(0, 0, 0xEA, 1);
  }

  @Test
  void bitmapIsLeastSignificantBitFirst() {
    RowIdProtos.U64Segment.RangeWithBitmap b = U64Segment.of(10, 12, 19).toProto().getRangeWithBitmap();
    assertThat(b.getStart()).isEqualTo(10);
    assertThat(b.getEnd()).isEqualTo(20);
    assertThat(b.getBitmap().toByteArray()).containsExactly(0b101, 0b10);
  }

  @Test
  void decodesEveryKindInAnyWidth() {
    // A SortedArray stored as u64 although u16 would do (another writer's choice) decodes, and
    // encodes back unchanged.
    RowIdProtos.U64Segment p = RowIdProtos.U64Segment.newBuilder().setSortedArray(RowIdProtos.EncodedU64Array
        .newBuilder().setU64Array(RowIdProtos.EncodedU64Array.U64Array.newBuilder().setValues(le64(4, 8, 15))))
        .build();
    U64Segment s = U64Segment.fromProto(p);
    assertThat(s.toArray()).containsExactly(4, 8, 15);
    assertThat(s.indexOf(8)).isEqualTo(1);
    assertThat(s.indexOf(9)).isEqualTo(-1);
    assertThat(s.toProto()).isEqualTo(p);
    // U16 offsets from a base that is not the minimum.
    RowIdProtos.U64Segment q = RowIdProtos.U64Segment.newBuilder().setArray(RowIdProtos.EncodedU64Array
        .newBuilder().setU16Array(RowIdProtos.EncodedU64Array.U16Array.newBuilder().setBase(100)
            .setOffsets(ByteString.copyFrom(new byte[] {5, 0, 1, 0, (byte) 0xFF, (byte) 0xFF})))).build();
    assertThat(U64Segment.fromProto(q).toArray()).containsExactly(105, 101, 100 + 65535);
    assertThat(U64Segment.fromProto(q).toProto()).isEqualTo(q);
  }

  @Test
  void refusesInconsistentSegments() {
    RowIdProtos.U64Segment holesOutside = RowIdProtos.U64Segment.newBuilder().setRangeWithHoles(
        RowIdProtos.U64Segment.RangeWithHoles.newBuilder().setStart(10).setEnd(20).setHoles(
            RowIdProtos.EncodedU64Array.newBuilder().setU64Array(
                RowIdProtos.EncodedU64Array.U64Array.newBuilder().setValues(le64(25))))).build();
    assertThatThrownBy(() -> U64Segment.fromProto(holesOutside)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("RangeWithHoles hole 25 is outside [10, 20) or out of order");
    RowIdProtos.U64Segment shortBitmap = RowIdProtos.U64Segment.newBuilder().setRangeWithBitmap(
        RowIdProtos.U64Segment.RangeWithBitmap.newBuilder().setStart(0).setEnd(20)
            .setBitmap(ByteString.copyFrom(new byte[2]))).build();
    assertThatThrownBy(() -> U64Segment.fromProto(shortBitmap))
        .hasMessage("RangeWithBitmap of 20 slots has a 2-byte bitmap");
    RowIdProtos.U64Segment oddBytes = RowIdProtos.U64Segment.newBuilder().setArray(RowIdProtos.EncodedU64Array
        .newBuilder().setU32Array(RowIdProtos.EncodedU64Array.U32Array.newBuilder()
            .setOffsets(ByteString.copyFrom(new byte[6])))).build();
    assertThatThrownBy(() -> U64Segment.fromProto(oddBytes))
        .hasMessage("EncodedU64Array u32 offsets take 6 bytes, not a multiple of 4");
    assertThatThrownBy(() -> U64Segment.fromProto(RowIdProtos.U64Segment.getDefaultInstance()))
        .hasMessage("U64Segment has no segment");
    RowIdProtos.U64Segment backwards = RowIdProtos.U64Segment.newBuilder().setRange(
        RowIdProtos.U64Segment.Range.newBuilder().setStart(9).setEnd(3)).build();
    assertThatThrownBy(() -> U64Segment.fromProto(backwards)).hasMessage("Range start 9 is after its end 3");
  }

  /** Ascending distinct values with gaps of chosen sizes, so that every form gets picked. */
  @Property(tries = 300)
  void sortedValuesRoundTrip(@ForAll @LongRange(min = 0, max = 1L << 45) long start,
      @ForAll @Size(max = 300) List<@IntRange(min = 1, max = 40) Integer> gaps,
      @ForAll @IntRange(min = 0, max = 3) int gapScale) {
    long[] values = new long[gaps.size()];
    long v = start;
    for (int i = 0; i < values.length; i++) {
      values[i] = v;
      int g = gaps.get(i);
      v += gapScale == 0 ? 1 : gapScale == 1 ? (g > 35 ? 2 : 1) : gapScale == 2 ? g : (long) g * 100_000;
    }
    check(values);
  }

  @Property(tries = 200)
  void anyValuesRoundTrip(@ForAll @Size(max = 200) List<@LongRange(min = 0, max = Long.MAX_VALUE) Long> raw) {
    // Row ids are distinct; keep the first of any repeat.
    check(new java.util.LinkedHashSet<>(raw).stream().mapToLong(Long::longValue).toArray());
  }

  /** Values are unsigned: those at and above 2^63 order after the others. */
  @Property(tries = 200)
  void unsignedValuesRoundTrip(@ForAll @LongRange(min = Long.MIN_VALUE, max = -2) long start,
      @ForAll @Size(max = 100) List<@IntRange(min = 1, max = 3) Integer> gaps) {
    long[] values = new long[gaps.size()];
    long v = start;
    int n = 0;
    for (int g : gaps) {
      if (Long.compareUnsigned(v, -2L) > 0) {
        break; // u64::MAX would make a range end overflow
      }
      values[n++] = v;
      v += g;
    }
    check(Arrays.copyOf(values, n));
  }

  private static void check(long[] values) {
    U64Segment s = U64Segment.of(values);
    assertThat(s.length()).isEqualTo(values.length);
    assertThat(s.toArray()).containsExactly(values);
    U64Segment back = U64Segment.fromProto(s.toProto());
    assertThat(back).isEqualTo(s);
    assertThat(back.toArray()).containsExactly(values);
    for (int i = 0; i < values.length; i++) {
      assertThat(back.get(i)).isEqualTo(values[i]);
      assertThat(back.indexOf(values[i])).isEqualTo(i);
    }
    Set<Long> present = new HashSet<>();
    for (long x : values) {
      present.add(x);
    }
    for (long x : values) {
      if (!present.contains(x + 1)) {
        assertThat(back.indexOf(x + 1)).isEqualTo(-1);
      }
    }
    if (values.length > 2) {
      assertThat(back.slice(1, values.length - 2).toArray())
          .containsExactly(Arrays.copyOfRange(values, 1, values.length - 1));
    }
    // Lance's choice: sorted forms for ascending values, a Range exactly for contiguous ones.
    TreeSet<Long> sorted = new TreeSet<>(Long::compareUnsigned);
    sorted.addAll(present);
    boolean ascending = Arrays.equals(values, sorted.stream().mapToLong(Long::longValue).toArray());
    boolean contiguous = ascending && (values.length == 0 || values[values.length - 1] - values[0] == values.length - 1);
    assertThat(s.kind() == U64Segment.Kind.RANGE).isEqualTo(contiguous);
    assertThat(s.kind() == U64Segment.Kind.ARRAY).isEqualTo(!ascending);
  }

  static ByteString le64(long... values) {
    ByteBuffer b = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
    for (long v : values) {
      b.putLong(v);
    }
    return ByteString.copyFrom(b.array());
  }
}
