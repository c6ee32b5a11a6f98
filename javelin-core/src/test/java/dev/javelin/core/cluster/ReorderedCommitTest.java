package dev.javelin.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.ScanPlan;
import dev.javelin.index.IndexType;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.rowmap.RowMapReader;
import dev.javelin.table.stablepartition.StablePartitionEntry;
import dev.javelin.table.stablepartition.StablePartitionTransition;
import dev.javelin.testing.FaultyObjectStore.Fault;
import dev.javelin.testing.FaultyObjectStore.Op;
import dev.javelin.testing.FaultyObjectStore;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/** A clustering commits a reordered Rewrite: the row map, the system entry, indices on retired ids. */
class ReorderedCommitTest {
  @TempDir
  Path dir;
  @TestAllocator BufferAllocator allocator;

  @Test
  void anIndexedDatasetClustersAndItsIndexKeepsTheRetiredIds() throws IOException {
    Dataset ds = ClusterData.deleteSome(ClusterData.create(dir, allocator, 1200, 300, false));
    ds = ds.createIndex("x", IndexType.BTREE, "x_idx");
    long before = ds.countRows("x = 17");
    List<String> values = ClusterData.values(ds);
    RecordingLabels recorded = new RecordingLabels();
    ClusterResult r = ds.cluster().by("a").targetRowsPerFragment(400).labels(recorded).commit();
    Dataset after = r.dataset();

    // The index keeps its bitmap on the retired source fragments.
    IndexMetadata index = after.manifest().indices().stream()
        .filter(i -> i.name().equals("x_idx")).findFirst().orElseThrow();
    assertThat(index.fragmentBitmap()).isEqualTo(RoaringBitmap.bitmapOf(0, 1, 2, 3));
    // The entry records the transition; its bitmap is the union of the sources.
    IndexMetadata entry = StablePartitionEntry.find(after.manifest()).orElseThrow();
    assertThat(entry.fragmentBitmap()).isEqualTo(RoaringBitmap.bitmapOf(0, 1, 2, 3));
    List<StablePartitionTransition> ts = StablePartitionEntry.transitions(after.manifest(), after.store());
    assertThat(ts).hasSize(1);
    StablePartitionTransition t = ts.get(0);
    assertThat(t.datasetVersion()).isEqualTo(ds.version());
    assertThat(t.sources()).extracting(StablePartitionTransition.Source::id).containsExactly(0L, 1L, 2L, 3L);
    assertThat(t.destinations()).isEqualTo(r.destinationIds());
    // The row map file holds what the clustering labelled.
    try (RowMapReader map = RowMapReader.open(after.store(), t.rowMapPath(), allocator)) {
      assertThat(map.rows()).isEqualTo(1200);
      List<Integer> labels = new ArrayList<>();
      for (long p = 0; p < map.rows(); p++) {
        labels.add(map.label(p));
      }
      assertThat(labels).isEqualTo(recorded.labels);
    }
    // The index answers for the destinations through the row map, with the same rows.
    assertThat(after.countRows("x = 17")).isEqualTo(before);
    ScanPlan plan = after.explain("x = 17");
    assertThat(plan.indexedFragments()).containsExactlyElementsOf(r.destinationIds());
    assertThat(ClusterData.values(after)).containsExactlyInAnyOrderElementsOf(values);
  }

  @Test
  void aSecondClusteringAccumulatesTransitionsAndCleanupKeepsBothRowMaps() throws IOException {
    Dataset ds = ClusterData.create(dir, allocator, 900, 300, false);
    List<String> values = ClusterData.values(ds);
    ClusterResult first = ds.cluster().by("x").targetRowsPerFragment(300).commit();
    ClusterResult second = first.dataset().cluster().by("y").targetRowsPerFragment(450).commit();
    List<StablePartitionTransition> ts = StablePartitionEntry.transitions(second.dataset().manifest(),
        second.dataset().store());
    assertThat(ts).extracting(StablePartitionTransition::destinations)
        .containsExactly(first.destinationIds(), second.destinationIds());
    assertThat(ts.get(1).sources()).extracting(StablePartitionTransition.Source::id)
        .containsExactlyElementsOf(first.destinationIds());
    second.dataset().cleanup(dev.javelin.table.CleanupPolicy.builder().olderThan(java.time.Duration.ZERO).build());
    for (StablePartitionTransition t : ts) {
      assertThat(dir.resolve(t.rowMapPath())).exists();
    }
    assertThat(ClusterData.values(Dataset.open(dir, allocator))).containsExactlyInAnyOrderElementsOf(values);
  }

  @Test
  void aFailedClusteringLeavesNoRowMapBehind() throws IOException {
    Dataset ds = ClusterData.create(dir, allocator, 600, 300, false);
    List<String> indices = listIndices();
    FaultyObjectStore failing = new FaultyObjectStore(dir).failNth(Op.CREATE, 3, Fault.ioError("disk full"));
    Dataset broken = Dataset.open(failing, allocator);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> broken.cluster().by("x").targetRowsPerFragment(100)
        .commit()).isNotNull();
    assertThat(listIndices()).isEqualTo(indices);
    assertThat(Dataset.open(dir, allocator).version()).isEqualTo(ds.version());
  }

  private List<String> listIndices() throws IOException {
    Path p = dir.resolve("_indices");
    if (!Files.exists(p)) {
      return List.of();
    }
    try (Stream<Path> s = Files.walk(p)) {
      return s.filter(Files::isRegularFile).map(x -> dir.relativize(x).toString()).sorted().toList();
    }
  }
}
