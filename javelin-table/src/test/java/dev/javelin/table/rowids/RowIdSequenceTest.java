package dev.javelin.table.rowids;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

class RowIdSequenceTest {
  @Test
  void aRangeEncodesAsLanceWritesIt() {
    // The bytes lance-core wrote for a 3000-row fragment (lance-format-notes.md, section 4).
    assertThat(RowIdSequence.range(0, 3000).toBytes()).containsExactly(0x0a, 0x05, 0x0a, 0x03, 0x10, 0xb8, 0x17);
    assertThat(RowIdSequence.parse(new byte[] {0x0a, 0x05, 0x0a, 0x03, 0x10, (byte) 0xb8, 0x17}))
        .isEqualTo(RowIdSequence.range(0, 3000));
  }

  @Test
  void everyKindInOneSequence() {
    List<U64Segment> segs = List.of(
        U64Segment.range(0, 20),
        U64Segment.of(LongStream.range(100, 200).filter(v -> v != 104 && v != 150).toArray()),
        U64Segment.of(LongStream.range(0, 100).map(v -> 300 + 3 * v).toArray()),
        U64Segment.of(1_000, 90_000, 7_000_000_000L),
        U64Segment.of(9_000, 8_000, 8_500));
    assertThat(segs).extracting(U64Segment::kind).containsExactly(U64Segment.Kind.values());
    RowIdSequence s = RowIdSequence.of(segs);
    long[] all = segs.stream().flatMapToLong(g -> LongStream.of(g.toArray())).toArray();
    assertThat(s.length()).isEqualTo(all.length);
    RowIdSequence back = RowIdSequence.parse(s.toBytes());
    assertThat(back).isEqualTo(s);
    assertThat(back.toArray()).containsExactly(all);
    for (int i = 0; i < all.length; i++) {
      assertThat(back.get(i)).isEqualTo(all[i]);
      assertThat(back.indexOf(all[i])).isEqualTo(i);
    }
    assertThat(back.indexOf(104)).isEqualTo(-1);
    assertThat(back.indexOf(20)).isEqualTo(-1);
    assertThatThrownBy(() -> back.get(all.length))
        .hasMessage("Row " + all.length + " of a row id sequence of " + all.length + " rows");
  }

  @Test
  void sliceAndMask() {
    RowIdSequence s = RowIdSequence.of(List.of(U64Segment.range(0, 10), U64Segment.range(50, 60),
        U64Segment.of(5, 1, 3)));
    assertThat(s.slice(8, 4).toArray()).containsExactly(8, 9, 50, 51);
    assertThat(s.slice(8, 4).segments()).containsExactly(U64Segment.range(8, 10), U64Segment.range(50, 52));
    assertThat(s.slice(0, 0).length()).isZero();

    RoaringBitmap deleted = RoaringBitmap.bitmapOf(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 21);
    RowIdSequence masked = s.mask(deleted);
    assertThat(masked.toArray()).containsExactly(50, 51, 52, 53, 54, 56, 57, 58, 59, 5, 3);
    // The emptied first segment is dropped; the others are re-encoded.
    assertThat(masked.segments()).hasSize(2);
    assertThat(masked.segments().get(1).kind()).as("an array stays an array").isEqualTo(U64Segment.Kind.ARRAY);
    assertThat(s.mask(RoaringBitmap.bitmapOf(21)).segments().get(2).toArray()).containsExactly(5, 3);
    assertThat(s.mask(RoaringBitmap.bitmapOf(20)).segments().get(2).kind()).isEqualTo(U64Segment.Kind.ARRAY);
    assertThat(s.mask(new RoaringBitmap())).isSameAs(s);

    Random rnd = new Random(7);
    long[] ids = LongStream.range(0, 5000).map(v -> v * 3 + rnd.nextInt(3)).toArray();
    RowIdSequence big = RowIdSequence.ofValues(ids);
    RoaringBitmap del = new RoaringBitmap();
    List<Long> kept = new ArrayList<>();
    for (int i = 0; i < ids.length; i++) {
      if (rnd.nextInt(4) == 0) {
        del.add(i);
      } else {
        kept.add(ids[i]);
      }
    }
    assertThat(big.mask(del).toArray()).containsExactly(kept.stream().mapToLong(Long::longValue).toArray());
  }

  @Test
  void badBytesAreRefused() {
    assertThatThrownBy(() -> RowIdSequence.parse(new byte[] {0x0a, 0x09, 0x01}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("RowIdSequence does not parse: ");
  }

  @Test
  void versionSequences() {
    RowVersionSequence u = RowVersionSequence.uniform(1000, 7);
    assertThat(u.length()).isEqualTo(1000);
    assertThat(u.get(0)).isEqualTo(7);
    assertThat(u.get(999)).isEqualTo(7);
    assertThat(RowVersionSequence.parse(u.toBytes())).isEqualTo(u);
    assertThat(RowVersionSequence.uniform(0, 7).runCount()).isZero();
    assertThat(RowVersionSequence.uniform(0, 7).toBytes()).isEmpty();

    // Two runs, the second with a span other than a range (only its length counts).
    byte[] bytes = dev.javelin.table.proto.RowIdProtos.RowDatasetVersionSequence.newBuilder()
        .addRuns(dev.javelin.table.proto.RowIdProtos.RowDatasetVersionRun.newBuilder()
            .setSpan(U64Segment.range(0, 3).toProto()).setVersion(2))
        .addRuns(dev.javelin.table.proto.RowIdProtos.RowDatasetVersionRun.newBuilder()
            .setSpan(U64Segment.of(3, 9).toProto()).setVersion(5))
        .build().toByteArray();
    RowVersionSequence two = RowVersionSequence.parse(bytes);
    assertThat(two.length()).isEqualTo(5);
    assertThat(two.runCount()).isEqualTo(2);
    long[] got = new long[5];
    var it = two.iterator();
    for (int i = 0; i < 5; i++) {
      got[i] = it.nextLong();
      assertThat(two.get(i)).isEqualTo(got[i]);
    }
    assertThat(got).containsExactly(2, 2, 2, 5, 5);
    assertThat(it.hasNext()).isFalse();
    assertThat(two.toBytes()).containsExactly(bytes);
    assertThatThrownBy(() -> two.get(5)).hasMessage("Row 5 of a version sequence of 5 rows");
  }
}
