package dev.javelin.index.internal.bitmap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

class RowIdTreeMapsTest {
  @Test
  void rowSetsGoThroughLancesLayoutAndBack() throws IOException {
    TreeMap<Integer, RoaringBitmap> sets = new TreeMap<>(Integer::compareUnsigned);
    sets.put(0, RoaringBitmap.bitmapOf(1, 5, 70_000));
    sets.put(3, RoaringBitmap.bitmapOf(0));
    sets.put(-2, RoaringBitmap.bitmapOf(9)); // fragment id 4294967294 (unsigned)
    byte[] bytes = RowIdTreeMaps.write(sets);
    assertThat(bytes[0]).isEqualTo((byte) 3); // u32 little-endian count of fragments
    Roaring64NavigableMap back = RowIdTreeMaps.read(bytes);
    assertThat(back.toArray()).containsExactly(1L, 5L, 70_000L, 3L << 32, (0xFFFFFFFEL << 32) | 9);
  }

  @Test
  void aFragmentWithoutABitmapMeansAllOfItsRows() throws IOException {
    // count 1, fragment 2, size 0: Lance's "every row of fragment 2".
    byte[] full = {1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0};
    Roaring64NavigableMap rows = RowIdTreeMaps.read(full);
    assertThat(rows.contains(2L << 32)).isTrue();
    assertThat(rows.contains((2L << 32) + 123_456)).isTrue();
    assertThat(rows.contains(3L << 32)).isFalse();
  }

  @Test
  void damagedBytesAreRefused() {
    assertThatThrownBy(() -> RowIdTreeMaps.read(new byte[] {5, 0, 0, 0, 1}))
        .isInstanceOf(IOException.class).hasMessageStartingWith("Not a serialized row set");
  }
}
