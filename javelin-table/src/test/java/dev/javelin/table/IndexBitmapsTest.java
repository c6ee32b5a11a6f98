package dev.javelin.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

class IndexBitmapsTest {
  private static IndexMetadata index(String name, int field, int... fragments) {
    return IndexMetadata.builder().name(name).fields(List.of(field))
        .fragmentBitmap(RoaringBitmap.bitmapOf(fragments)).build();
  }

  @Test
  void updatedFragmentsLeaveOnlyIndicesOnModifiedFields() {
    List<IndexMetadata> out = IndexBitmaps.pruneUpdated(
        List.of(index("a", 1, 0, 1, 2), index("b", 2, 0, 1, 2)), List.of(1L, 7L), List.of(1));
    assertThat(out.get(0).fragmentBitmap()).isEqualTo(RoaringBitmap.bitmapOf(0, 2));
    assertThat(out.get(1).fragmentBitmap()).isEqualTo(RoaringBitmap.bitmapOf(0, 1, 2));
    assertThat(IndexBitmaps.pruneUpdated(out, List.of(), List.of(1))).isEqualTo(out);
  }
}
