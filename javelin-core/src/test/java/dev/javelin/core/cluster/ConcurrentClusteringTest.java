package dev.javelin.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.Dataset;
import dev.javelin.core.VersionInfo;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.exceptions.CommitConflictException;
import dev.javelin.table.stablepartition.StablePartitionEntry;
import dev.javelin.table.stablepartition.StablePartitionTransition;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/** A clustering racing deletes, updates and other clusterings (item 5 of issue 7). */
class ConcurrentClusteringTest {
  @TempDir
  Path dir;
  @TestAllocator BufferAllocator allocator;

  /** Runs {@code r} on the first call only (the hook runs before every commit attempt). */
  static Runnable once(Runnable r) {
    AtomicBoolean ran = new AtomicBoolean();
    return () -> {
      if (ran.compareAndSet(false, true)) {
        r.run();
      }
    };
  }

  /** Live rows keyed by {@code key} ("id" or "_rowid"), valued by their data columns. */
  static Map<Long, Map<String, Object>> byKey(Dataset ds, String key) {
    Map<Long, Map<String, Object>> out = new HashMap<>();
    for (Map<String, Object> row : ClusterData.rows(ds, null)) {
      Map<String, Object> values = new HashMap<>(row);
      values.remove("_rowaddr"); // moved by the clustering
      values.remove("_rowid"); // an address too without stable row ids; the key with them
      assertThat(out.put((Long) row.get(key), values)).isNull();
    }
    return out;
  }

  static Map<Long, Map<String, Object>> without(Map<Long, Map<String, Object>> rows,
      Predicate<Map<String, Object>> gone) {
    Map<Long, Map<String, Object>> out = new HashMap<>();
    rows.forEach((k, v) -> {
      if (!gone.test(v)) {
        out.put(k, v);
      }
    });
    return out;
  }

  static boolean small(Map<String, Object> row) {
    return (Long) row.get("x") < 100 || Integer.valueOf(3).equals(row.get("a"));
  }

  @Test
  void aDeleteCommittedWhileClusteringIsFoldedIntoTheNewFragments() {
    Dataset ds = ClusterData.deleteSome(ClusterData.create(dir, allocator, 1200, 300, false));
    Map<Long, Map<String, Object>> before = byKey(ds, "id");
    AtomicReference<Dataset> deleted = new AtomicReference<>();
    ClusterResult r = ds.cluster().noZoneMaps().by("x").targetRowsPerFragment(400)
        .beforeCommit(once(() -> deleted.set(Dataset.open(dir, allocator).delete("x < 100 OR a = 3")))).commit();

    Dataset after = r.dataset();
    Map<Long, Map<String, Object>> want = without(before, ConcurrentClusteringTest::small);
    assertThat(want.size()).isBetween(800, before.size() - 100);
    assertThat(byKey(after, "id")).isEqualTo(want);
    assertThat(after.countRows("x < 100")).isZero();
    assertThat(Dataset.open(dir, allocator).version()).isEqualTo(r.version()).isEqualTo(deleted.get().version() + 1);
    assertThat(after.manifest().fragments()).extracting(Fragment::id).containsExactlyElementsOf(r.destinationIds());
    assertThat(after.manifest().fragments()).allMatch(f -> f.deletionFile().isPresent());
    assertThat(after.manifest().fragments().stream().mapToLong(Fragment::liveRows).sum()).isEqualTo(want.size());
  }

  @Test
  void withStableRowIdsTheFoldedRowsAreGoneByIdAndTheOthersKeepTheirIds() {
    Dataset ds = ClusterData.deleteSome(ClusterData.create(dir, allocator, 1200, 300, true));
    Map<Long, Map<String, Object>> before = byKey(ds, "_rowid");
    Set<Long> doomed = new TreeSet<>();
    before.forEach((id, row) -> {
      if (small(row)) {
        doomed.add(id);
      }
    });
    ClusterResult r = ds.cluster().noZoneMaps().by("y").targetRowsPerFragment(500)
        .beforeCommit(once(() -> Dataset.open(dir, allocator).delete("x < 100 OR a = 3"))).commit();

    Dataset after = r.dataset();
    Map<Long, Map<String, Object>> got = byKey(after, "_rowid");
    assertThat(got).isEqualTo(without(before, ConcurrentClusteringTest::small));
    assertThat(got.keySet()).doesNotContainAnyElementsOf(doomed);
    long[] some = got.keySet().stream().limit(50).mapToLong(Long::longValue).toArray();
    try (VectorSchemaRoot taken = after.takeRows(some, List.of("id", "x"))) {
      for (int i = 0; i < some.length; i++) {
        assertThat(taken.getVector("id").getObject(i)).isEqualTo(got.get(some[i]).get("id"));
        assertThat(taken.getVector("x").getObject(i)).isEqualTo(got.get(some[i]).get("x"));
      }
    }
  }

  @Test
  void anUpdateCommittedWhileClusteringKeepsOnlyTheNewValues() {
    Dataset ds = ClusterData.create(dir, allocator, 900, 300, false);
    Map<Long, Map<String, Object>> before = byKey(ds, "id");
    ClusterResult r = ds.cluster().noZoneMaps().by("a").targetRowsPerFragment(300)
        .beforeCommit(once(() -> Dataset.open(dir, allocator).update("x < 50", Map.of("x", "x + 1000")))).commit();

    Map<Long, Map<String, Object>> want = new HashMap<>();
    int updated = 0;
    for (var e : before.entrySet()) {
      Map<String, Object> row = new HashMap<>(e.getValue());
      if ((Long) row.get("x") < 50) {
        row.put("x", (Long) row.get("x") + 1000);
        updated++;
      }
      want.put(e.getKey(), row);
    }
    assertThat(updated).isGreaterThan(20);
    assertThat(byKey(r.dataset(), "id")).isEqualTo(want);
    // The updated rows live in the update's own fragment, their old copies deleted in the destinations.
    Manifest m = r.dataset().manifest();
    assertThat(m.fragments()).hasSize(r.destinationIds().size() + 1);
    assertThat(r.dataset().countRows("x >= 1000")).isEqualTo(updated);
  }

  @Test
  void twoClusteringsOfDisjointFragmentsBothLand() throws IOException {
    Dataset ds = ClusterData.create(dir, allocator, 1200, 300, false); // fragments 0..3
    Map<Long, Map<String, Object>> before = byKey(ds, "id");
    AtomicReference<ClusterResult> other = new AtomicReference<>();
    ClusterResult r = ds.cluster().noZoneMaps().by("x").fragments(List.of(0L, 1L)).targetRowsPerFragment(300)
        .beforeCommit(once(() -> other.set(Dataset.open(dir, allocator).cluster().noZoneMaps().by("y")
            .fragments(List.of(2L, 3L)).targetRowsPerFragment(200).commit()))).commit();

    Manifest m = r.dataset().manifest();
    assertThat(r.version()).isGreaterThan(other.get().version());
    List<StablePartitionTransition> ts = StablePartitionEntry.transitions(m, r.dataset().store());
    assertThat(ts).extracting(StablePartitionTransition::destinations)
        .containsExactly(other.get().destinationIds(), r.destinationIds());
    assertThat(ts).extracting(t -> t.sources().stream().map(StablePartitionTransition.Source::id).toList())
        .containsExactly(List.of(2L, 3L), List.of(0L, 1L));
    assertThat(StablePartitionEntry.find(m).orElseThrow().fragmentBitmap())
        .isEqualTo(RoaringBitmap.bitmapOf(0, 1, 2, 3));
    for (StablePartitionTransition t : ts) {
      assertThat(dir.resolve(t.rowMapPath())).exists();
    }
    Set<Long> frags = new HashSet<>(r.destinationIds());
    frags.addAll(other.get().destinationIds());
    assertThat(m.fragments()).extracting(Fragment::id).containsExactlyInAnyOrderElementsOf(frags);
    assertThat(byKey(Dataset.open(dir, allocator), "id")).isEqualTo(before);
  }

  @Test
  void twoClusteringsOfTheSameFragmentConflictAndTheLoserLeavesNoFiles() throws IOException {
    Dataset ds = ClusterData.create(dir, allocator, 1200, 300, false);
    Map<Long, Map<String, Object>> before = byKey(ds, "id");
    AtomicReference<ClusterResult> other = new AtomicReference<>();
    ClusterBuilder loser = ds.cluster().noZoneMaps().by("x").fragments(List.of(0L, 1L)).targetRowsPerFragment(300)
        .beforeCommit(once(() -> other.set(Dataset.open(dir, allocator).cluster().noZoneMaps().by("y")
            .fragments(List.of(1L, 2L)).targetRowsPerFragment(200).commit())));
    assertThatThrownBy(loser::commit).isInstanceOf(CommitConflictException.class)
        .hasMessageMatching("This Rewrite \\(read version " + ds.version() + "\\) conflicts with the Rewrite committed "
            + "as version " + other.get().version() + ": .*");

    Dataset now = Dataset.open(dir, allocator);
    assertThat(StablePartitionEntry.transitions(now.manifest(), now.store())).hasSize(1);
    assertThat(byKey(now, "id")).isEqualTo(before);
    // Every file left is one some version references.
    Set<String> referenced = new HashSet<>();
    Set<String> txns = new HashSet<>();
    for (VersionInfo v : now.versions()) {
      Manifest m = now.checkout(v.version()).manifest();
      m.fragments().forEach(f -> f.files().forEach(d -> referenced.add("data/" + d.path())));
      txns.add("_transactions/" + m.proto().getTransactionFile());
      for (StablePartitionTransition t : StablePartitionEntry.transitions(m, now.store())) {
        referenced.add(t.rowMapPath());
      }
    }
    assertThat(files("data")).allMatch(referenced::contains);
    assertThat(files("_indices")).allMatch(referenced::contains);
    assertThat(files("_transactions")).allMatch(txns::contains);
    assertThat(files("_deletions")).isEmpty();
  }

  private List<String> files(String under) throws IOException {
    Path p = dir.resolve(under);
    if (!Files.exists(p)) {
      return List.of();
    }
    try (Stream<Path> s = Files.walk(p)) {
      return s.filter(Files::isRegularFile).map(x -> dir.relativize(x).toString()).sorted().toList();
    }
  }

  @Test
  void aDeleteByFilterRacingAClusteringFromTwoThreadsLosesNothing() throws Exception {
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 6; round++) {
        Path at = dir.resolve("r" + round);
        boolean stable = round % 2 == 1;
        Dataset ds = ClusterData.deleteSome(ClusterData.create(at, allocator, 1200, 300, stable));
        String key = stable ? "_rowid" : "id";
        Map<Long, Map<String, Object>> want = without(byKey(ds, key), ConcurrentClusteringTest::small);
        java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
        long pause = round * 40L; // shifts which one commits first
        String by = round % 3 == 0 ? "y" : "x";
        Dataset reader = Dataset.open(at, allocator); // the delete reads the version before the clustering
        var delete = pool.submit(() -> {
          start.await();
          Thread.sleep(pause);
          return reader.delete("x < 100 OR a = 3").version();
        });
        var cluster = pool.submit(() -> {
          start.await();
          return ds.cluster().noZoneMaps().by(by).targetRowsPerFragment(350).commit().version();
        });
        long d = delete.get();
        long c = cluster.get();
        assertThat(d).isNotEqualTo(c);
        Dataset now = Dataset.open(at, allocator);
        assertThat(byKey(now, key)).as("round %d (delete v%d, clustering v%d)", round, d, c).isEqualTo(want);
        assertThat(now.countRows("x < 100")).isZero();
        assertThat(StablePartitionEntry.transitions(now.manifest(), now.store())).hasSize(1);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aDeleteThatReadBeforeTheClusteringLandedFollowsTheMovedRows() {
    Dataset ds = ClusterData.deleteSome(ClusterData.create(dir, allocator, 1200, 300, true));
    Map<Long, Map<String, Object>> before = byKey(ds, "_rowid");
    Dataset stale = Dataset.open(dir, allocator);
    ClusterResult r = ds.cluster().noZoneMaps().by("x").targetRowsPerFragment(300).commit();
    long matching = stale.countRows("x < 100 OR a = 3");
    var deleted = stale.deleteWhere("x < 100 OR a = 3"); // scanned the version before the clustering
    Dataset after = deleted.dataset();
    assertThat(deleted.rowsDeleted()).isEqualTo(matching).isPositive(); // counted where the rows went

    assertThat(after.version()).isEqualTo(r.version() + 1);
    assertThat(byKey(after, "_rowid")).isEqualTo(without(before, ConcurrentClusteringTest::small));
    assertThat(after.manifest().fragments()).extracting(Fragment::id).containsExactlyElementsOf(r.destinationIds());
  }

  @Test
  void aClusteringRetriedAfterAnotherOneLandedFoldsADeleteAgainAndLeavesNoStaleDeletionFiles() throws IOException {
    Dataset ds = ClusterData.create(dir, allocator, 1200, 300, false);
    Map<Long, Map<String, Object>> before = byKey(ds, "id");
    AtomicReference<ClusterResult> other = new AtomicReference<>();
    AtomicReference<Dataset> deleted = new AtomicReference<>();
    ClusterResult r = ds.cluster().noZoneMaps().by("x").fragments(List.of(0L, 1L)).targetRowsPerFragment(300)
        .beforeCommit(once(() -> {
          other.set(Dataset.open(dir, allocator).cluster().noZoneMaps().by("y").fragments(List.of(2L, 3L))
              .targetRowsPerFragment(200).commit());
          // Touches this clustering's sources and the other one's destinations.
          deleted.set(Dataset.open(dir, allocator).delete("x < 100 OR a = 3"));
        })).commit();

    Dataset now = Dataset.open(dir, allocator);
    assertThat(now.version()).isEqualTo(r.version()).isEqualTo(deleted.get().version() + 1);
    assertThat(byKey(now, "id")).isEqualTo(without(before, ConcurrentClusteringTest::small));
    assertThat(StablePartitionEntry.transitions(now.manifest(), now.store())).extracting(
        StablePartitionTransition::destinations).containsExactly(other.get().destinationIds(), r.destinationIds());
    Set<String> referenced = new HashSet<>();
    for (VersionInfo v : now.versions()) {
      for (Fragment f : now.checkout(v.version()).manifest().fragments()) {
        f.deletionFile().ifPresent(d -> referenced.add(d.key(f.id())));
      }
    }
    assertThat(files("_deletions")).isNotEmpty().allMatch(referenced::contains);
  }

  @Test
  void aDestinationWhoseEveryRowWasDeletedConcurrentlyStaysReadable() {
    Dataset ds = ClusterData.create(dir, allocator, 1200, 300, false);
    Map<Long, Map<String, Object>> before = byKey(ds, "id");
    ClusterResult r = ds.cluster().noZoneMaps().by("x").targetRowsPerFragment(100)
        .beforeCommit(once(() -> Dataset.open(dir, allocator).delete("x < 250"))).commit();

    Dataset now = Dataset.open(dir, allocator);
    // Range partitioning by x: the first destinations hold only rows with x < 250.
    assertThat(now.manifest().fragments().get(0).liveRows()).isZero();
    assertThat(now.manifest().fragments().get(0).physicalRows()).isPositive();
    assertThat(byKey(now, "id")).isEqualTo(without(before, row -> (Long) row.get("x") < 250));
    assertThat(now.countRows(null)).isEqualTo(without(before, row -> (Long) row.get("x") < 250).size());
    // The next delete drops it, as any fragment left without live rows.
    long some = before.values().stream().mapToLong(row -> (Long) row.get("x")).max().orElseThrow();
    Dataset later = now.delete("x = " + some);
    assertThat(later.version()).isEqualTo(now.version() + 1);
    assertThat(later.manifest().fragments()).allMatch(f -> f.liveRows() > 0);
    assertThat(r.destinationIds()).hasSize(12);
  }
}
