package dev.javelin.core.internal.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.table.stablepartition.StablePartitionTransition;
import dev.javelin.table.stablepartition.StablePartitionTransition.Source;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

class IndexCoverageTest {
  static StablePartitionTransition t(List<Long> sources, List<Long> destinations) {
    return new StablePartitionTransition(1, sources.stream().map(id -> new Source(id, 10, 0)).toList(),
        destinations, "_indices/x/row_map.lance");
  }

  @Test
  void coverageFollowsWhollyCoveredTransitionsInOrder() {
    StablePartitionTransition first = t(List.of(0L, 1L), List.of(5L, 6L));
    StablePartitionTransition partial = t(List.of(2L, 3L), List.of(7L));
    StablePartitionTransition chained = t(List.of(5L, 6L), List.of(8L));
    StablePartitionTransition mixed = t(List.of(7L, 8L), List.of(9L));
    IndexCoverage c = IndexCoverage.derive(RoaringBitmap.bitmapOf(0, 1, 2), List.of(first, partial, chained, mixed));
    assertThat(c.through()).containsExactly(first, chained);
    assertThat(c.fragments()).isEqualTo(RoaringBitmap.bitmapOf(0, 1, 2, 5, 6, 8));
    assertThat(c.covers(8)).isTrue();
    assertThat(c.covers(7)).isFalse();
    assertThat(c.covers(9)).isFalse();
    assertThat(c.direct(8)).isFalse();
    assertThat(c.direct(2)).isTrue();
  }

  @Test
  void aTransitionBeforeTheIndexCoveredItsSourcesAddsNothing() {
    // An index built on the destinations after the reorder: nothing to translate.
    IndexCoverage c = IndexCoverage.derive(RoaringBitmap.bitmapOf(5, 6), List.of(t(List.of(0L, 1L), List.of(5L, 6L))));
    assertThat(c.through()).isEmpty();
    assertThat(c.fragments()).isEqualTo(RoaringBitmap.bitmapOf(5, 6));
  }
}
