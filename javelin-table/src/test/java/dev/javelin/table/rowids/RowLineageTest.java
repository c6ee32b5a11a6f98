package dev.javelin.table.rowids;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.io.LocalObjectStore;
import dev.javelin.table.Fragment;
import dev.javelin.table.proto.TableProtos;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RowLineageTest {
  @TempDir Path dir;

  private static Fragment fragment(long id, long rows) {
    return Fragment.fromProto(TableProtos.DataFragment.newBuilder().setId(id).setPhysicalRows(rows).build());
  }

  @Test
  void handsOutOneDestinationFragmentByFragmentInOrder() {
    LocalObjectStore store = new LocalObjectStore(dir);
    RowLineage lineage = new RowLineage();
    for (int i = 0; i < 40; i++) { // past the initial room
      lineage.add(100 + i, i < 20 ? 2 : 3, RowLineage.NONE);
    }
    assertThat(lineage.remaining(0)).isEqualTo(40);
    Fragment a = lineage.next(fragment(1, 25));
    Fragment b = lineage.next(fragment(2, 15));
    assertThat(lineage.remaining(0)).isZero();
    assertThat(a.rowIdSequence(store).orElseThrow().toArray()).startsWith(100, 101).endsWith(124).hasSize(25);
    assertThat(b.rowIdSequence(store).orElseThrow().toArray()).startsWith(125).endsWith(139).hasSize(15);
    RowVersionSequence created = a.createdAtVersions(store).orElseThrow();
    assertThat(created.runCount()).isEqualTo(2);
    assertThat(created.get(19)).isEqualTo(2);
    assertThat(created.get(20)).isEqualTo(3);
    assertThat(b.createdAtVersions(store).orElseThrow()).isEqualTo(RowVersionSequence.uniform(15, 3));
    // No moved row had a last-updated version: none is written.
    assertThat(a.lastUpdatedAtVersions(store)).isEmpty();
    assertThat(a.proto().hasInlineLastUpdatedAtVersions()).isFalse();
  }

  @Test
  void fillsDestinationsSeparatelyAndWritesMissingVersionsAsZero() {
    LocalObjectStore store = new LocalObjectStore(dir);
    RowLineage lineage = new RowLineage(new long[] {2, 1});
    lineage.add(1, 7, RowLineage.NONE, RowLineage.NONE);
    lineage.add(0, 5, 4, 6);
    lineage.add(0, 9, RowLineage.NONE, 8);
    Fragment zero = lineage.next(0, fragment(10, 2));
    Fragment one = lineage.next(1, fragment(11, 1));
    assertThat(zero.rowIdSequence(store).orElseThrow().toArray()).containsExactly(5, 9);
    assertThat(one.rowIdSequence(store).orElseThrow().toArray()).containsExactly(7);
    assertThat(zero.createdAtVersions(store).orElseThrow()).isEqualTo(RowVersionSequence.ofVersions(new long[] {4, 0}));
    assertThat(zero.lastUpdatedAtVersions(store).orElseThrow())
        .isEqualTo(RowVersionSequence.ofVersions(new long[] {6, 8}));
    assertThat(one.createdAtVersions(store).orElseThrow()).isEqualTo(RowVersionSequence.uniform(1, 0));
  }

  @Test
  void refusesAFragmentLongerThanWhatIsLeft() {
    RowLineage lineage = new RowLineage();
    lineage.add(1, 1, 1);
    assertThatThrownBy(() -> lineage.next(fragment(3, 2)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Fragment 3 has 2 rows but only 1 moved rows are left for it");
  }
}
