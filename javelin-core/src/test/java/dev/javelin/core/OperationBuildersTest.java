package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.compaction.CompactionOptions;
import dev.javelin.core.compaction.CompactionSummary;
import dev.javelin.core.exceptions.IndexExistsException;
import dev.javelin.core.stores.StoreDatasetContract;
import dev.javelin.index.IndexType;
import dev.javelin.table.OperationKind;
import dev.javelin.testing.MixedBatches;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every dataset change as a builder ending in commit(), and the one-line conveniences over them. */
class OperationBuildersTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private Dataset create(int rows, int perFile) {
    List<VectorSchemaRoot> batches = MixedBatches.batches(allocator, 0, rows, 500);
    try {
      return Dataset.create(dir.resolve("ds"), batches, WriteParams.builder().maxRowsPerFile(perFile).build(),
          allocator);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  private static List<Long> ids(Dataset ds, String filter) throws Exception {
    return StoreDatasetContract.ids(ds, filter);
  }

  @Test
  void deleteByFilterAndByAddressCountTheRows() throws Exception {
    Dataset ds = create(3000, 1000);
    DeleteResult byFilter = ds.delete().where("id < 100").commit();
    assertThat(byFilter.rowsDeleted()).isEqualTo(100);
    assertThat(byFilter.dataset().countRows()).isEqualTo(2900);
    assertThat(byFilter.dataset().table().transaction(byFilter.dataset().manifest()).get().kind())
        .isEqualTo(OperationKind.DELETE);
    // Fragment 1, offsets 0 and 5: ids 1000 and 1005.
    DeleteResult byAddress = byFilter.dataset().delete().rows(1L << 32, 1L << 32 | 5).commit();
    assertThat(byAddress.rowsDeleted()).isEqualTo(2);
    assertThat(ids(byAddress.dataset(), "id >= 1000 and id < 1010"))
        .containsExactly(1001L, 1002L, 1003L, 1004L, 1006L, 1007L, 1008L, 1009L);
    // The conveniences are the same operation.
    Dataset again = byAddress.dataset().delete("id >= 2990");
    assertThat(again.countRows()).isEqualTo(2888);
  }

  @Test
  void aDeleteNeedsExactlyOneWayToNameRows() throws Exception {
    Dataset ds = create(100, 1000);
    assertThatThrownBy(() -> ds.delete().commit()).isInstanceOf(IllegalStateException.class)
        .hasMessage("Say which rows to delete: where(filter) or rows(addresses)");
    assertThatThrownBy(() -> ds.delete().where("id = 1").rows(1L).commit()).isInstanceOf(IllegalStateException.class)
        .hasMessage("Delete by a filter or by row addresses, not both");
    assertThat(ds.version()).isEqualTo(Dataset.open(dir.resolve("ds"), allocator).version());
  }

  @Test
  void updateSetsColumnsInEachMode() throws Exception {
    Dataset ds = create(2000, 1000);
    UpdateResult rows = ds.update().where("id < 10").set("s", "'rows'").commit();
    assertThat(rows.rowsUpdated()).isEqualTo(10);
    UpdateResult cols = rows.dataset().update().where("id >= 10 and id < 30").set(Map.of("s", "'cols'"))
        .mode(UpdateMode.REWRITE_COLUMNS).commit();
    assertThat(cols.rowsUpdated()).isEqualTo(20);
    UpdateResult all = cols.dataset().update().set("x", "1.5").set("x", "2.5").commit();
    assertThat(all.rowsUpdated()).isEqualTo(2000);
    Dataset after = all.dataset();
    assertThat(ids(after, "s = 'rows'")).hasSize(10);
    assertThat(ids(after, "s = 'cols'")).hasSize(20);
    assertThat(ids(after, "x = 2.5")).hasSize(2000);
  }

  @Test
  void createIndexBuildsNamesAndReplaces() throws Exception {
    Dataset ds = create(2000, 1000);
    CreateIndexResult built = ds.createIndex("id").btree().name("by_id").commit();
    assertThat(built.index().name()).isEqualTo("by_id");
    assertThat(built.index().type()).isEqualTo(IndexType.BTREE);
    assertThat(built.index().fragments()).containsExactly(0L, 1L);
    Dataset indexed = built.dataset();
    assertThat(indexed.explain("id = 5").toString()).contains("by_id");
    assertThatThrownBy(() -> indexed.createIndex("id").btree().name("by_id").commit())
        .isInstanceOf(IndexExistsException.class);
    CreateIndexResult replaced = indexed.createIndex("id").btree().name("by_id").replace().commit();
    assertThat(replaced.index().uuid()).isNotEqualTo(built.index().uuid());
    assertThat(replaced.dataset().indices()).hasSize(1);
    assertThat(replaced.dataset().createIndex("x", IndexType.BTREE).indices()).extracting(IndexInfo::name)
        .containsExactlyInAnyOrder("by_id", "x_idx");
    assertThatThrownBy(() -> ds.createIndex("id").name("n").commit()).isInstanceOf(IllegalStateException.class)
        .hasMessage("Choose the kind of index on 'id': btree(), bitmap(), zonemap(), bloomFilter(), labelList(), ngram(), vector(), ivfPq(params) or type(...)");
  }

  @Test
  void compactCommitsAndSaysWhat() throws Exception {
    Dataset ds = create(3000, 500);
    assertThat(ds.manifest().fragments()).hasSize(6);
    CompactionSummary s = ds.compact().targetRowsPerFragment(1500).numThreads(1).commit();
    assertThat(s.fragmentsRemoved()).isEqualTo(6);
    assertThat(s.fragmentsAdded()).isEqualTo(2);
    assertThat(s.dataset().manifest().fragments()).hasSize(2);
    assertThat(ids(s.dataset(), null)).hasSize(3000);
    CompactionOptions o = ds.compact().options(CompactionOptions.builder().targetRowsPerFragment(7).build())
        .maxRowsPerGroup(64).options();
    assertThat(o.targetRowsPerFragment()).isEqualTo(7);
    assertThat(o.maxRowsPerGroup()).isEqualTo(64);
    assertThat(s.dataset().compact().targetRowsPerFragment(1500).plan().tasks()).isEmpty();
  }
}
