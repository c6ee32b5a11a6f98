package dev.javelin.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.table.proto.TableProtos;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

class IndexBitmapsTest {
  private static TableProtos.IndexMetadata index(String name, int field, int... fragments) {
    return TableProtos.IndexMetadata.newBuilder().setName(name).addFields(field)
        .setFragmentBitmap(IndexBitmaps.write(RoaringBitmap.bitmapOf(fragments))).build();
  }

  @Test
  void updatedFragmentsLeaveOnlyIndicesOnModifiedFields() {
    List<TableProtos.IndexMetadata> out = IndexBitmaps.pruneUpdated(
        List.of(index("a", 1, 0, 1, 2), index("b", 2, 0, 1, 2)), List.of(1L, 7L), List.of(1));
    assertThat(IndexBitmaps.read(out.get(0))).isEqualTo(RoaringBitmap.bitmapOf(0, 2));
    assertThat(IndexBitmaps.read(out.get(1))).isEqualTo(RoaringBitmap.bitmapOf(0, 1, 2));
    assertThat(IndexBitmaps.pruneUpdated(out, List.of(), List.of(1))).isEqualTo(out);
  }
}
