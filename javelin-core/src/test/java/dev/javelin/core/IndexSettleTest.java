package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.ScanPlan;
import dev.javelin.core.cluster.ClusterResult;
import dev.javelin.core.cluster.Curve;
import dev.javelin.core.internal.index.IndexCoverage;
import dev.javelin.index.DistanceType;
import dev.javelin.index.IndexType;
import dev.javelin.index.IvfPqParams;
import dev.javelin.index.internal.ivf.Neighbors;
import dev.javelin.table.CleanupPolicy;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.Transaction;
import dev.javelin.table.exceptions.CommitConflictException;
import dev.javelin.table.stablepartition.StablePartitionEntry;
import dev.javelin.table.stablepartition.StablePartitionTransition;
import dev.javelin.testing.FaultyObjectStore.Op;
import dev.javelin.testing.InterleavingObjectStore;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Settling indices: remapped onto the destinations through the row maps, transitions dropped. */
class IndexSettleTest {
  @TempDir
  Path dir;
  @TestAllocator BufferAllocator allocator;
  IndexTranslationTest data; // its dataset builders and query checks

  @BeforeEach
  void setUp() {
    data = new IndexTranslationTest();
    data.dir = dir;
    data.allocator = allocator;
  }

  static IndexInfo index(Dataset ds, String name) {
    return ds.indices().stream().filter(i -> i.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void settlingRemapsEveryTranslatedIndexAndDropsTheEntry() {
    Dataset ds = IndexTranslationTest.indexed(data.create(4000, 1000, false).delete("x >= 400 AND x < 420"));
    List<List<Long>> before = IndexTranslationTest.FILTERS.stream().map(f -> IndexTranslationTest.ids(ds, f, false))
        .toList();
    ClusterResult r = ds.cluster().noZoneMaps().by("a").targetRowsPerFragment(1500).commit();

    IndexSettleResult s = r.dataset().settleIndices();
    Dataset after = s.dataset();
    assertThat(after.version()).isEqualTo(r.dataset().version() + 1);
    assertThat(s.remapped()).containsExactly("x_idx", "a_idx", "s_idx");
    assertThat(s.transitionsDropped()).isEqualTo(1);
    assertThat(s.transitionsKept()).isZero();
    assertThat(StablePartitionEntry.find(after.manifest())).isEmpty();
    assertThat(after.manifest().indices()).extracting(IndexMetadata::name)
        .containsExactly("x_idx", "a_idx", "s_idx");
    for (String name : List.of("x_idx", "a_idx", "s_idx")) {
      IndexInfo i = index(after, name);
      assertThat(i.fragments()).containsExactlyElementsOf(r.destinationIds());
      assertThat(i.throughRowMaps()).isEmpty();
      assertThat(i.uuid()).isNotEqualTo(index(r.dataset(), name).uuid());
    }
    ScanPlan plan = after.explain("x = 17");
    assertThat(plan.indexedFragments()).containsExactlyElementsOf(r.destinationIds());
    assertThat(plan.scannedFragments()).isEmpty();
    assertThat(plan.indices().get(0).throughRowMaps()).isEmpty();
    IndexTranslationTest.assertIndexedEqualsScan(after);
    assertThat(IndexTranslationTest.FILTERS.stream().map(f -> IndexTranslationTest.ids(after, f, true)).toList())
        .isEqualTo(before);
    // A second settle has nothing to do.
    IndexSettleResult again = after.settleIndices();
    assertThat(again.unchanged()).isTrue();
    assertThat(again.dataset().version()).isEqualTo(after.version());
    // Later deletes apply to the remapped indices.
    IndexTranslationTest.assertIndexedEqualsScan(after.delete("a < 10 OR x = 17"));
  }

  @Test
  void chainedClusteringsWithDeletesBetweenSettleInOneCommit() {
    Dataset ds = IndexTranslationTest.indexed(data.create(3000, 1000, false).delete("x < 50"));
    ClusterResult first = ds.cluster().noZoneMaps().by("a").targetRowsPerFragment(1200).commit();
    ClusterResult second = first.dataset().delete("x > 950").cluster().noZoneMaps().by("x", "a").curve(Curve.ZORDER)
        .targetRowsPerFragment(800).commit();
    Dataset grown = data.append(second.dataset().delete("a = 3"), 3000, 500);
    IndexSettleResult s = grown.settleIndices();
    assertThat(s.transitionsDropped()).isEqualTo(2);
    assertThat(StablePartitionEntry.find(s.dataset().manifest())).isEmpty();
    assertThat(index(s.dataset(), "x_idx").fragments()).containsExactlyElementsOf(second.destinationIds());
    IndexTranslationTest.assertIndexedEqualsScan(s.dataset());
    assertThat(s.dataset().explain("x < 100").scannedFragments())
        .containsExactly(IndexTranslationTest.live(grown).get(IndexTranslationTest.live(grown).size() - 1));
  }

  @Test
  void aTransitionNoIndexCoveredWholeIsDroppedAndItsDestinationsStayScanned() {
    Dataset ds = IndexTranslationTest.indexed(data.create(3000, 1000, false));
    ds = data.append(ds, 3000, 1000); // fragment 3 unindexed
    ClusterResult covered = ds.cluster().noZoneMaps().by("x").fragments(List.of(0L, 1L)).targetRowsPerFragment(700).commit();
    ClusterResult partial = covered.dataset().cluster().noZoneMaps().by("x").fragments(List.of(2L, 3L))
        .targetRowsPerFragment(700).commit();
    IndexSettleResult s = partial.dataset().settleIndices();
    assertThat(s.transitionsDropped()).isEqualTo(2);
    Dataset after = s.dataset();
    assertThat(StablePartitionEntry.find(after.manifest())).isEmpty();
    ScanPlan plan = after.explain("x = 17");
    assertThat(plan.indexedFragments()).containsExactlyElementsOf(covered.destinationIds());
    assertThat(plan.scannedFragments()).containsExactlyElementsOf(partial.destinationIds());
    // The remapped bitmap keeps the partially covered (now retired) source 2, like any index.
    assertThat(index(after, "x_idx").fragments()).contains(2L).containsAll(covered.destinationIds());
    IndexTranslationTest.assertIndexedEqualsScan(after);
  }

  @Test
  void ivfPqFindsTheSameNeighboursAfterSettling() {
    Dataset ds = data.create(4000, 1000, false).createIndex("v",
        IvfPqParams.of(8, 4, DistanceType.L2).withIterations(10, 5), "v_idx");
    Dataset clustered = ds.cluster().noZoneMaps().by("x").targetRowsPerFragment(1500).commit().dataset();
    Dataset settled = clustered.settleIndices().dataset();
    assertThat(index(settled, "v_idx").throughRowMaps()).isEmpty();
    Dataset deleted = settled.delete("x < 300");
    Random r = new Random(7);
    for (int i = 0; i < 5; i++) {
      float[] q = new float[IndexTranslationTest.DIM];
      for (int j = 0; j < q.length; j++) {
        q[j] = (float) (r.nextGaussian() * 4 + i * 3);
      }
      Neighbors b = clustered.nearest("v", q).k(10).nprobes(3).neighbors();
      Neighbors a = settled.nearest("v", q).k(10).nprobes(3).neighbors();
      assertThat(a.rowIds()).containsExactly(b.rowIds());
      assertThat(a.distances()).containsExactly(b.distances());
      assertThat(data.idsOf(deleted, deleted.nearest("v", q).k(10).nprobes(3).neighbors())).isEqualTo(
          data.idsOf(settled, settled.nearest("v", q).k(10).nprobes(3).filter("x >= 300").prefilter(true)
              .neighbors()));
    }
  }

  @Test
  void anIndexBuiltAfterClusteringIsLeftAlone() {
    Dataset ds = IndexTranslationTest.indexed(data.create(2000, 1000, false));
    Dataset after = ds.cluster().noZoneMaps().by("a").targetRowsPerFragment(1000).commit().dataset()
        .createIndex("x", IndexType.BTREE, "x_fresh");
    String fresh = index(after, "x_fresh").uuid();
    IndexSettleResult s = after.settleIndices();
    assertThat(s.remapped()).containsExactly("x_idx", "a_idx", "s_idx");
    assertThat(index(s.dataset(), "x_fresh").uuid()).isEqualTo(fresh);
    IndexTranslationTest.assertIndexedEqualsScan(s.dataset());
  }

  @Test
  void aDatasetWithoutReorderedRewritesIsUnchanged() {
    Dataset ds = IndexTranslationTest.indexed(data.create(2000, 1000, false));
    IndexSettleResult s = ds.settleIndices();
    assertThat(s.unchanged()).isTrue();
    assertThat(s.transitionsKept()).isZero();
    assertThat(s.dataset().version()).isEqualTo(ds.version());
  }

  @Test
  void aClusteringWithNoIndexDropsTheEntryOnly() {
    Dataset ds = data.create(2000, 1000, false);
    Dataset clustered = ds.cluster().noZoneMaps().by("a").targetRowsPerFragment(1000).commit().dataset();
    IndexSettleResult s = clustered.settleIndices();
    assertThat(s.remapped()).isEmpty();
    assertThat(s.transitionsDropped()).isEqualTo(1);
    assertThat(s.dataset().manifest().indices()).isEmpty();
  }

  @Test
  void cleanupRemovesTheRowMapsOnceNoKeptVersionNamesTheEntry() throws IOException {
    Dataset ds = IndexTranslationTest.indexed(data.create(2000, 1000, false));
    Dataset clustered = ds.cluster().noZoneMaps().by("a").targetRowsPerFragment(1000).commit().dataset();
    StablePartitionTransition t = StablePartitionEntry.transitions(clustered.manifest(), clustered.store()).get(0);
    Dataset settled = clustered.settleIndices().dataset();
    // A kept version still names the entry: its row map stays and that version still answers.
    settled.cleanup(CleanupPolicy.builder().retainVersions(2).olderThan(Duration.ZERO).build());
    assertThat(dir.resolve(t.rowMapPath())).exists();
    IndexTranslationTest.assertIndexedEqualsScan(settled.checkout(clustered.version()));
    settled.cleanup(CleanupPolicy.builder().olderThan(Duration.ZERO).build());
    assertThat(dir.resolve(t.rowMapPath())).doesNotExist();
    try (Stream<Path> left = Files.walk(dir.resolve(t.rowMapPath()).getParent())) {
      assertThat(left.filter(Files::isRegularFile)).isEmpty();
    }
    try (Stream<Path> files = Files.walk(dir.resolve("_indices"))) {
      assertThat(files.filter(Files::isRegularFile).count()).isEqualTo(6); // the three remapped BTrees' files
    }
    IndexTranslationTest.assertIndexedEqualsScan(Dataset.open(dir, allocator));
  }

  @Test
  void aSettleReadingBeforeAConcurrentRewriteConflicts() {
    Dataset ds = IndexTranslationTest.indexed(data.create(3000, 1000, false));
    Dataset clustered = ds.cluster().noZoneMaps().by("a").fragments(List.of(0L, 1L)).targetRowsPerFragment(1000).commit()
        .dataset();
    IndexMetadata entry = StablePartitionEntry.find(clustered.manifest()).orElseThrow();
    // A settle that read `clustered` (dropping the entry), while another clustering lands first.
    Transaction settle = Transaction.createIndex(clustered.version(), List.of(), List.of(entry));
    Dataset second = clustered.cluster().noZoneMaps().by("x").fragments(List.of(2L)).targetRowsPerFragment(1000).commit()
        .dataset();
    assertThatThrownBy(() -> clustered.table().newCommit(settle).commit())
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("conflicts with the Rewrite committed as version " + second.version());
    // Settling itself reads the newest version, so it settles both.
    IndexSettleResult s = clustered.settleIndices();
    assertThat(s.transitionsDropped()).isEqualTo(2);
    assertThat(s.dataset().version()).isEqualTo(second.version() + 1);
    IndexTranslationTest.assertIndexedEqualsScan(s.dataset());
  }

  @Test
  void aConcurrentClusteringMakesSettlingStartAgainOnTheNewestVersion() {
    Dataset ds = IndexTranslationTest.indexed(data.create(3000, 1000, false));
    ds.cluster().noZoneMaps().by("a").fragments(List.of(0L, 1L)).targetRowsPerFragment(1000).commit();
    Dataset other = Dataset.open(dir, allocator);
    Dataset settling = Dataset.open(new InterleavingObjectStore(dir).before(Op.PUT_IF_ABSENT, "\\.manifest$", 1, () ->
        other.checkoutLatest().cluster().noZoneMaps().by("x").fragments(List.of(2L)).targetRowsPerFragment(1000).commit()),
        allocator);
    long before = settling.version();
    IndexSettleResult s = settling.settleIndices();
    assertThat(s.transitionsDropped()).isEqualTo(2); // the concurrent clustering's transition too
    assertThat(s.dataset().version()).isEqualTo(before + 3); // its reserve and rewrite, then the settle
    assertThat(StablePartitionEntry.find(s.dataset().manifest())).isEmpty();
    IndexTranslationTest.assertIndexedEqualsScan(Dataset.open(dir, allocator));
  }

  @Test
  void settlingGivesUpAfterThreeConflictsAndLeavesNoFileBehind() throws IOException {
    Dataset ds = IndexTranslationTest.indexed(data.create(6000, 1000, false));
    ds.cluster().noZoneMaps().by("a").fragments(List.of(0L, 1L)).targetRowsPerFragment(1000).commit();
    Dataset other = Dataset.open(dir, allocator);
    long[] next = {2};
    Dataset settling = Dataset.open(new InterleavingObjectStore(dir).before(Op.PUT_IF_ABSENT, "\\.manifest$", 3, () ->
        other.checkoutLatest().cluster().noZoneMaps().by("x").fragments(List.of(next[0]++)).targetRowsPerFragment(1000)
            .commit()), allocator);
    List<String> indexFiles = new ArrayList<>();
    assertThatThrownBy(settling::settleIndices).isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("conflicts with the Rewrite committed as version");
    Dataset latest = Dataset.open(dir, allocator);
    assertThat(IndexCoverage.transitions(latest)).hasSize(4);
    // Every file under _indices/ belongs to an index or the entry of the newest version.
    try (Stream<Path> files = Files.walk(dir.resolve("_indices"))) {
      files.filter(Files::isRegularFile).forEach(f -> indexFiles.add(dir.resolve("_indices").relativize(f)
          .getName(0).toString()));
    }
    assertThat(latest.manifest().indices().stream().map(StablePartitionEntry::uuid).toList())
        .containsAll(indexFiles.stream().distinct().toList());
    IndexTranslationTest.assertIndexedEqualsScan(latest);
  }

  @Test
  void transitionsAnIndexJavelinCannotRemapAnswersThroughAreKept() throws IOException {
    Dataset ds = IndexTranslationTest.indexed(data.create(3000, 1000, false));
    // An inverted index (which Javelin neither reads nor remaps) over fragments 0 and 1.
    IndexMetadata inverted = IndexMetadata.builder()
        .uuid(java.util.UUID.randomUUID().toString())
        .name("s_fts").fields(List.of(3)).datasetVersion(ds.version())
        .fragmentBitmap(org.roaringbitmap.RoaringBitmap.bitmapOf(0, 1))
        .details("/lance.index.pb.InvertedIndexDetails")
        .indexVersion(0).build();
    ds.table().newCommit(Transaction.createIndex(ds.version(), List.of(inverted), List.of())).commit();
    ClusterResult first = ds.checkoutLatest().cluster().noZoneMaps().by("a").fragments(List.of(0L, 1L))
        .targetRowsPerFragment(1000).commit();
    ClusterResult second = first.dataset().cluster().noZoneMaps().by("x").fragments(List.of(2L)).targetRowsPerFragment(1000)
        .commit();
    StablePartitionTransition kept = IndexCoverage.transitions(second.dataset()).get(0);
    IndexSettleResult s = second.dataset().settleIndices();
    assertThat(s.remapped()).containsExactly("x_idx", "a_idx", "s_idx");
    assertThat(s.transitionsDropped()).isEqualTo(1);
    assertThat(s.transitionsKept()).isEqualTo(1);
    Dataset after = s.dataset();
    IndexMetadata entry = StablePartitionEntry.find(after.manifest()).orElseThrow();
    assertThat(StablePartitionEntry.uuid(entry))
        .isEqualTo(StablePartitionEntry.uuid(StablePartitionEntry.find(second.dataset().manifest()).orElseThrow()));
    assertThat(entry.datasetVersion()).isEqualTo(after.version());
    assertThat(StablePartitionEntry.transitions(entry, after.store())).containsExactly(kept);
    assertThat(entry.fragmentBitmap().toArray()).containsExactly(0, 1);
    assertThat(index(after, "s_fts").throughRowMaps()).containsExactlyElementsOf(first.destinationIds());
    assertThat(index(after, "x_idx").throughRowMaps()).isEmpty();
    IndexTranslationTest.assertIndexedEqualsScan(after);
    // Nothing more to do until that index goes.
    assertThat(after.settleIndices().unchanged()).isTrue();
    IndexSettleResult last = after.dropIndex("s_fts").settleIndices();
    assertThat(last.transitionsDropped()).isEqualTo(1);
    assertThat(last.remapped()).isEmpty();
    assertThat(StablePartitionEntry.find(last.dataset().manifest())).isEmpty();
  }

  @Test
  void aConcurrentAppendCommitsUnderASettle() {
    Dataset ds = IndexTranslationTest.indexed(data.create(2000, 1000, false));
    Dataset clustered = ds.cluster().noZoneMaps().by("a").targetRowsPerFragment(1000).commit().dataset();
    IndexMetadata entry = StablePartitionEntry.find(clustered.manifest()).orElseThrow();
    Transaction settle = Transaction.createIndex(clustered.version(), List.of(), List.of(entry));
    Dataset grown = data.append(clustered, 2000, 300);
    clustered.table().newCommit(settle).commit();
    Dataset latest = grown.checkoutLatest();
    assertThat(StablePartitionEntry.find(latest.manifest())).isEmpty();
    assertThat(latest.countRows()).isEqualTo(2300);
    IndexTranslationTest.assertIndexedEqualsScan(latest);
  }

}
