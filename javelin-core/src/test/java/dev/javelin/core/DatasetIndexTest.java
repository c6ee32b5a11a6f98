package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.exceptions.IndexExistsException;
import dev.javelin.core.exceptions.IndexNotFoundException;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.index.IndexType;
import dev.javelin.index.internal.btree.BTreeIndex;
import dev.javelin.index.internal.btree.ScalarQuery;
import dev.javelin.testing.MixedBatches;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

class DatasetIndexTest {
  @TempDir Path dir;
  @TestAllocator RootAllocator allocator;

  // 1000 rows in fragments of 300: row r is at address (r / 300) << 32 | r % 300.
  private Dataset create(Path path) {
    List<VectorSchemaRoot> batches = MixedBatches.batches(allocator, 0, 1000, 700);
    try {
      return Dataset.create(path, batches, WriteParams.builder().fileVersion(LanceFileVersion.V2_1)
          .maxRowsPerFile(300).build(), allocator);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  private static long address(long row) {
    return ((row / 300) << 32) | (row % 300);
  }

  @Test
  void createListsAndQueriesABTree() throws IOException {
    Dataset ds = create(dir.resolve("d"));
    Dataset v2 = ds.createIndex("s", IndexType.BTREE);
    assertThat(v2.version()).isEqualTo(ds.version() + 1);
    assertThat(v2.indices()).hasSize(1);
    IndexInfo info = v2.indices().get(0);
    assertThat(info.name()).isEqualTo("s_idx");
    assertThat(info.type()).isEqualTo(IndexType.BTREE);
    assertThat(info.fields()).containsExactly("s");
    assertThat(info.fragments()).containsExactly(0L, 1L, 2L, 3L);
    assertThat(info.datasetVersion()).isEqualTo(ds.version());
    assertThat(Dataset.open(dir.resolve("d"), allocator).indices()).isEqualTo(v2.indices());
    try (BTreeIndex index = BTreeIndex.open(v2.store(), info.uuid(), allocator)) {
      // s is "s{r}" + r % 13 x's, null when r % 5 == 1.
      assertThat(index.search(ScalarQuery.equalTo("s" + 642 + "x".repeat(642 % 13))))
          .isEqualTo(Roaring64NavigableMap.bitmapOf(address(642)));
      Roaring64NavigableMap nulls = new Roaring64NavigableMap();
      for (long r = 0; r < 1000; r++) {
        if (r % 5 == 1) {
          nulls.addLong(address(r));
        }
      }
      assertThat(index.search(ScalarQuery.isNull())).isEqualTo(nulls);
    }
    Dataset byId = v2.createIndex("id", IndexType.BTREE, "by_id");
    assertThat(byId.indices()).extracting(IndexInfo::name).containsExactly("s_idx", "by_id");
    try (BTreeIndex index = BTreeIndex.open(byId.store(), byId.indices().get(1).uuid(), allocator)) {
      Roaring64NavigableMap expected = new Roaring64NavigableMap();
      for (long r = 295; r <= 605; r++) {
        expected.addLong(address(r));
      }
      assertThat(index.search(ScalarQuery.between(295, 605))).isEqualTo(expected);
    }
  }

  @Test
  void appendKeepsTheIndexOverwriteDropsIt() {
    Dataset ds = create(dir.resolve("d")).createIndex("id", IndexType.BTREE, "i");
    List<VectorSchemaRoot> more = MixedBatches.batches(allocator, 1000, 100, 100);
    try {
      Dataset appended = ds.append(more, WriteParams.defaults());
      assertThat(appended.indices()).hasSize(1);
      assertThat(appended.indices().get(0).fragments()).containsExactly(0L, 1L, 2L, 3L);
      assertThat(appended.manifest().fragments()).hasSize(5);
      Dataset over = appended.overwrite(more, WriteParams.defaults());
      assertThat(over.indices()).isEmpty();
    } finally {
      more.forEach(VectorSchemaRoot::close);
    }
  }

  @Test
  void replaceAndDrop() {
    Dataset ds = create(dir.resolve("d")).createIndex("id", IndexType.BTREE, "i");
    String first = ds.indices().get(0).uuid();
    assertThatThrownBy(() -> ds.createIndex("s", IndexType.BTREE, "i"))
        .isInstanceOf(IndexExistsException.class)
        .hasMessage("Index 'i' already exists: " + ds.location());
    Dataset replaced = ds.createIndex("s").type(IndexType.BTREE).name("i").replace().commit().dataset();
    assertThat(replaced.indices()).hasSize(1);
    assertThat(replaced.indices().get(0).uuid()).isNotEqualTo(first);
    assertThat(replaced.indices().get(0).fields()).containsExactly("s");
    Dataset dropped = replaced.dropIndex("i");
    assertThat(dropped.indices()).isEmpty();
    assertThat(dropped.version()).isEqualTo(replaced.version() + 1);
    assertThatThrownBy(() -> dropped.dropIndex("i"))
        .isInstanceOf(IndexNotFoundException.class)
        .hasMessage("Index 'i' does not exist: " + ds.location());
  }

  @Test
  void aFailedBuildCommitsNothingAndLeavesNoFiles() throws IOException {
    Dataset ds = create(dir.resolve("d"));
    assertThatThrownBy(() -> ds.createIndex("l", IndexType.BTREE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("A BTree index cannot index values of type List");
    assertThatThrownBy(() -> ds.createIndex("nope", IndexType.BTREE))
        .isInstanceOf(dev.javelin.format.exceptions.ColumnNotFoundException.class)
        .hasMessage("Column 'nope' is not in the file's schema: " + ds.location());
    assertThatThrownBy(() -> ds.createIndex("id", IndexType.VECTOR))
        .isInstanceOf(dev.javelin.index.exceptions.VectorIndexException.class)
        .hasMessage("Column 'id' is Int(64, true), not a fixed_size_list<float32> vector column: " + ds.location());
    assertThat(Dataset.open(dir.resolve("d"), allocator).version()).isEqualTo(ds.version());
    Path indices = dir.resolve("d").resolve("_indices");
    if (Files.exists(indices)) {
      try (Stream<Path> files = Files.walk(indices)) {
        assertThat(files.filter(Files::isRegularFile)).isEmpty();
      }
    }
  }

  @Test
  void aStaleCreateIndexRebasesOverAnAppendAndConflictsWithAnOverwrite() throws IOException {
    Dataset stale = create(dir.resolve("d"));
    List<VectorSchemaRoot> more = MixedBatches.batches(allocator, 1000, 100, 100);
    try {
      stale.append(more, WriteParams.defaults());
      Dataset indexed = stale.createIndex("id", IndexType.BTREE);
      assertThat(indexed.version()).isEqualTo(stale.version() + 2);
      assertThat(indexed.manifest().fragments()).hasSize(5);
      // It covers what it read: the appended fragment is not in it.
      assertThat(indexed.indices().get(0).fragments()).containsExactly(0L, 1L, 2L, 3L);
      assertThat(indexed.indices().get(0).datasetVersion()).isEqualTo(stale.version());

      Dataset stale2 = indexed;
      indexed.overwrite(more, WriteParams.defaults());
      assertThatThrownBy(() -> stale2.createIndex("s", IndexType.BTREE))
          .isInstanceOf(dev.javelin.table.exceptions.CommitConflictException.class);
      try (Stream<Path> files = Files.walk(dir.resolve("d").resolve("_indices"))) {
        // Only the committed index's two files remain.
        assertThat(files.filter(Files::isRegularFile)).hasSize(2);
      }
    } finally {
      more.forEach(VectorSchemaRoot::close);
    }
  }
}
