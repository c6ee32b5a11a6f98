package dev.javelin.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.Dataset;
import dev.javelin.core.exceptions.ClusterException;
import dev.javelin.format.exceptions.ColumnNotFoundException;
import dev.javelin.io.ObjectInfo;
import dev.javelin.table.Fragment;
import dev.javelin.testing.FaultyObjectStore.Fault;
import dev.javelin.testing.FaultyObjectStore.Op;
import dev.javelin.testing.FaultyObjectStore;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ClusterTest {
  @TempDir
  Path dir;
  @TestAllocator BufferAllocator allocator;

  @Test
  void rangeOnOneIntColumnCutsDisjointOrderedRangesAndKeepsEveryRow() {
    Dataset before = ClusterData.deleteSome(ClusterData.create(dir, allocator, 1000, 250, false));
    RecordingLabels labels = new RecordingLabels();
    ClusterResult r = before.cluster().by("a").targetRowsPerFragment(300).labels(labels).commit();
    Dataset after = r.dataset();

    long live = before.countRows();
    assertThat(r.rowsMoved()).isEqualTo(live);
    assertThat(r.sourceIds()).containsExactly(0L, 1L, 2L, 3L);
    assertThat(r.version()).isEqualTo(after.version()).isGreaterThan(before.version());
    assertThat(after.manifest().fragments().stream().map(Fragment::id).toList())
        .containsExactlyElementsOf(r.destinationIds());
    assertThat(ClusterData.values(after)).containsExactlyInAnyOrderElementsOf(ClusterData.values(before));
    assertThat(labels.labels).containsExactlyElementsOf(expectedLabels(before, r.sourceIds(), List.of("a"),
        Curve.RANGE, 300));
    assertThat(labels.deletedTotal).isEqualTo(1000 - live);

    List<List<Map<String, Object>>> dests = new ArrayList<>();
    for (long id : r.destinationIds()) {
      dests.add(ClusterData.rows(after, id));
    }
    for (int d = 0; d < dests.size(); d++) {
      assertThat(dests.get(d)).hasSize(d < dests.size() - 1 ? 300 : (int) (live - 300L * (dests.size() - 1)));
      assertThat(labels.totals[d]).isEqualTo(dests.get(d).size());
      // Stable partition: a destination holds its rows in source order.
      assertThat(dests.get(d).stream().map(m -> (Long) m.get("id")).toList()).isSorted();
    }
    // Ranges: every key of destination d is at most every key of d + 1, nulls last.
    Comparator<Integer> nullsLast = Comparator.nullsLast(Comparator.naturalOrder());
    for (int d = 0; d + 1 < dests.size(); d++) {
      Integer max = dests.get(d).stream().map(m -> (Integer) m.get("a")).max(nullsLast).orElseThrow();
      Integer min = dests.get(d + 1).stream().map(m -> (Integer) m.get("a")).min(nullsLast).orElseThrow();
      assertThat(nullsLast.compare(max, min)).isLessThanOrEqualTo(0);
    }
    assertThat(dests.get(dests.size() - 1).stream().anyMatch(m -> m.get("a") == null)).isTrue();
  }

  @Test
  void tiesKeepSourceOrderAcrossDestinations() {
    Dataset before = ClusterData.create(dir, allocator, 600, 200, false);
    ClusterResult r = before.cluster().by("a").targetRowsPerFragment(7).commit();
    // Read destination by destination: rows of one key, in that order, are in source (id) order.
    Map<Object, List<Long>> idsByKey = new HashMap<>();
    for (long id : r.destinationIds()) {
      for (Map<String, Object> row : ClusterData.rows(r.dataset(), id)) {
        idsByKey.computeIfAbsent(Objects.toString(row.get("a")), k -> new ArrayList<>()).add((Long) row.get("id"));
      }
    }
    assertThat(idsByKey).hasSize(51);
    idsByKey.values().forEach(ids -> assertThat(ids).isSorted());
  }

  @ParameterizedTest
  @EnumSource(Curve.class)
  void curvesOnTwoColumnsShrinkTheFragmentsBoxes(Curve curve) {
    Dataset before = ClusterData.deleteSome(ClusterData.create(dir, allocator, 4000, 500, false));
    RecordingLabels labels = new RecordingLabels();
    ClusterResult r = before.cluster().by("x", "y").curve(curve).targetRowsPerFragment(500).labels(labels).commit();

    assertThat(labels.labels).containsExactlyElementsOf(expectedLabels(before, r.sourceIds(), List.of("x", "y"),
        curve, 500));
    assertThat(labels.labels.stream().filter(l -> l == -1).count()).isEqualTo(4000 - before.countRows());
    assertThat(ClusterData.values(r.dataset())).containsExactlyInAnyOrderElementsOf(ClusterData.values(before));
    double boxesBefore = boxes(before);
    double boxesAfter = boxes(r.dataset());
    // RANGE on (x, y) sorts by x: narrow in x, full width in y; the curves shrink both.
    assertThat(boxesAfter).isLessThan(boxesBefore * (curve == Curve.RANGE ? 0.6 : 0.5));
  }

  @Test
  void severalColumnsDefaultToZorderAndStringsTakePart() {
    Dataset before = ClusterData.create(dir, allocator, 1500, 500, false);
    RecordingLabels labels = new RecordingLabels();
    ClusterResult r = before.cluster().by("s", "a").targetRowsPerFragment(200).labels(labels).commit();
    assertThat(labels.labels).containsExactlyElementsOf(expectedLabels(before, r.sourceIds(), List.of("s", "a"),
        Curve.ZORDER, 200));
    assertThat(r.destinationIds()).hasSize(8);
  }

  @Test
  void aChosenSubsetIsReadInTheGivenOrderAndTheRestStays() {
    Dataset before = ClusterData.create(dir, allocator, 1000, 250, false);
    RecordingLabels labels = new RecordingLabels();
    ClusterResult r = before.cluster().by("x").fragments(List.of(2L, 1L)).targetRowsPerFragment(100)
        .labels(labels).commit();
    assertThat(r.sourceIds()).containsExactly(2L, 1L);
    assertThat(labels.labels).containsExactlyElementsOf(expectedLabels(before, List.of(2L, 1L), List.of("x"),
        Curve.RANGE, 100));
    List<Long> ids = r.dataset().manifest().fragments().stream().map(Fragment::id).toList();
    assertThat(ids).contains(0L, 3L).doesNotContain(1L, 2L).containsAll(r.destinationIds());
    assertThat(ClusterData.rows(r.dataset(), 0L)).isEqualTo(ClusterData.rows(before, 0L));
    assertThat(ClusterData.values(r.dataset())).containsExactlyInAnyOrderElementsOf(ClusterData.values(before));
  }

  @Test
  void stableRowIdsFollowTheirRows() {
    Dataset before = ClusterData.deleteSome(ClusterData.create(dir, allocator, 900, 300, true));
    ClusterResult r = before.cluster().by("x", "y").curve(Curve.HILBERT).targetRowsPerFragment(200).commit();
    Dataset after = r.dataset();
    Map<Long, String> beforeById = byRowId(before);
    assertThat(byRowId(after)).isEqualTo(beforeById);
    long[] ids = beforeById.keySet().stream().mapToLong(Long::longValue).toArray();
    try (VectorSchemaRoot taken = after.takeRows(ids, List.of("id", "x"))) {
      for (int i = 0; i < ids.length; i++) {
        assertThat(beforeById.get(ids[i])).startsWith(taken.getVector("id").getObject(i) + "|");
      }
    }
    assertThat(versions(after)).isEqualTo(versions(before));
  }

  @Test
  void refusalsNameTheProblemAndLeaveNothingBehind() {
    Dataset ds = ClusterData.create(dir, allocator, 300, 100, false);
    Set<String> files = files(ds);
    assertThatThrownBy(() -> ds.cluster().by("nope").commit()).isInstanceOf(ColumnNotFoundException.class)
        .hasMessageContaining("Column 'nope' is not in the file's schema");
    assertThatThrownBy(() -> ds.cluster().by("x").fragments(List.of(1L, 9L)).commit())
        .isInstanceOf(ClusterException.class)
        .hasMessage("Fragment 9 is not in version 1: " + ds.location());
    assertThatThrownBy(() -> ds.cluster().targetRowsPerFragment(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("targetRowsPerFragment must be at least 1: 0");
    assertThatThrownBy(() -> ds.cluster().fragments(List.of())).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cluster at least one fragment: " + ds.location());
    assertThatThrownBy(() -> ds.cluster().commit()).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Name the key columns with by(...) before commit(): " + ds.location());
    assertThatThrownBy(() -> ds.cluster().targetRowsPerFragment(1).commit()).isInstanceOf(IllegalArgumentException.class);
    assertThat(files(ds)).isEqualTo(files);
    assertThat(Dataset.open(dir, allocator).version()).isEqualTo(ds.version());
  }

  @Test
  void aKeyOfAnUnorderableTypeIsRefused() {
    Dataset ds = ClusterData.create(dir, allocator, 100, 100, false);
    Dataset withList = ds.addNullColumns(List.of(new org.apache.arrow.vector.types.pojo.Field("l",
        org.apache.arrow.vector.types.pojo.FieldType.nullable(org.apache.arrow.vector.types.pojo.ArrowType.Bool.INSTANCE),
        null)));
    assertThatThrownBy(() -> withList.cluster().by("x", "l").commit()).isInstanceOf(ClusterException.class)
        .hasMessage("Column 'l' is of type Bool, which clustering cannot order (integers, floats, dates, times, "
            + "timestamps, durations, strings and binaries it can): " + ds.location());
  }

  @Test
  void tooManyDestinationsAreRefused() {
    Dataset ds = ClusterData.create(dir, allocator, 70000, 70000, false);
    assertThatThrownBy(() -> ds.cluster().by("x").targetRowsPerFragment(1).commit())
        .isInstanceOf(ClusterException.class)
        .hasMessage("Clustering 70000 rows into fragments of 1 rows makes 70000 destinations, more than the row "
            + "map's 65536; raise targetRowsPerFragment: " + ds.location());
  }

  @Test
  void aFailingWriterLeavesNoNewFiles() throws IOException {
    ClusterData.create(dir, allocator, 2000, 500, false).version();
    FaultyObjectStore store = new FaultyObjectStore(dir).failNth(Op.CREATE, 4, Fault.ioError("disk full"));
    Dataset ds = Dataset.open(store, allocator);
    Set<String> files = files(ds);
    // The row map is the first new file; by id the destinations fill one after another: two
    // data files are finished, the third fails.
    assertThatThrownBy(() -> ds.cluster().by("id").targetRowsPerFragment(400).batchSize(64).commit())
        .hasRootCauseMessage("disk full");
    assertThat(store.calls(Op.CREATE)).isEqualTo(4);
    assertThat(files(ds)).isEqualTo(files);
    Dataset reopened = Dataset.open(dir, allocator);
    assertThat(reopened.version()).isEqualTo(ds.version());
    assertThat(ClusterData.values(reopened)).hasSize(2000);
  }

  @Test
  void aWriterFailingWhileOthersAreOpenLeavesNoNewFiles() throws IOException {
    ClusterData.create(dir, allocator, 2000, 500, false).version();
    FaultyObjectStore store = new FaultyObjectStore(dir).failNth(Op.CREATE, 3, Fault.ioError("disk full"));
    Dataset ds = Dataset.open(store, allocator);
    Set<String> files = files(ds);
    assertThatThrownBy(() -> ds.cluster().by("x", "y").targetRowsPerFragment(400).batchSize(64).commit())
        .hasRootCauseMessage("disk full");
    assertThat(files(ds)).isEqualTo(files);
  }

  @Test
  void aRowMapFailingWhileTheDataIsWrittenLeavesNoNewFiles() throws IOException {
    // The row map is written on its own thread during pass 2: its failure must also remove the
    // data files pass 2 wrote or is writing.
    ClusterData.create(dir, allocator, 2000, 500, true).version();
    FaultyObjectStore store = new FaultyObjectStore(dir).failKeys(Op.WRITE, "row_map-", Fault.ioError("disk full"));
    Dataset ds = Dataset.open(store, allocator);
    Set<String> files = files(ds);
    assertThatThrownBy(() -> ds.cluster().by("x", "y").targetRowsPerFragment(400).batchSize(64).commit())
        .hasRootCauseMessage("disk full");
    assertThat(files(ds)).isEqualTo(files);
    Dataset reopened = Dataset.open(dir, allocator);
    assertThat(reopened.version()).isEqualTo(ds.version());
    assertThat(ClusterData.values(reopened)).hasSize(2000);
  }

  @Test
  void manyRowsWithSmallBatchesBufferAtMostABatchPerDestination() {
    Dataset ds = ClusterData.create(dir, allocator, 60000, 20000, false);
    ClusterBuilder b = ds.cluster().by("x", "y").curve(Curve.HILBERT).targetRowsPerFragment(10000).batchSize(128);
    ClusterResult r = b.commit();
    assertThat(r.destinationIds()).hasSize(6);
    assertThat(b.lastWriter().peakBufferedRows()).isGreaterThan(0).isLessThanOrEqualTo(6 * 128);
    assertThat(r.dataset().countRows()).isEqualTo(60000);
  }

  @Test
  void clusteringFitsInLessArrowMemoryThanTheData() throws IOException {
    Dataset created = ClusterData.create(dir, allocator, 240000, 60000, false);
    long dataBytes = 0;
    try (var r = created.newScan().build()) {
      while (r.loadNextBatch()) {
        for (var v : r.getVectorSchemaRoot().getFieldVectors()) {
          dataBytes += v.getBufferSize();
        }
      }
    }
    long limit = 6L << 20;
    assertThat(dataBytes).isGreaterThan(limit + (1L << 20));
    // Arrow buffers (read batches, destination buffers) must stay under the limit: the keys of
    // pass 1 live on the heap, the row data never gathers whole fragments.
    try (BufferAllocator small = new RootAllocator(limit)) {
      ClusterResult r = Dataset.open(dir, small).cluster().by("x", "y").curve(Curve.HILBERT)
          .targetRowsPerFragment(40000).batchSize(256).commit();
      assertThat(r.dataset().countRows()).isEqualTo(240000);
      assertThat(small.getPeakMemoryAllocation()).isLessThan(limit);
    }
  }

  // --- brute force ---------------------------------------------------------------------------

  /** The row map recomputed from scratch: ranks by counting, order by comparison sort. */
  static List<Integer> expectedLabels(Dataset before, List<Long> sources, List<String> keys, Curve curve,
      long target) {
    List<Map<String, Object>> live = new ArrayList<>();
    List<Integer> liveIndex = new ArrayList<>(); // per physical row: index into live, or -1
    for (long id : sources) {
      Fragment f = before.manifest().fragments().stream().filter(x -> x.id() == id).findFirst().orElseThrow();
      Map<Long, Map<String, Object>> byAddr = new HashMap<>();
      ClusterData.rows(before, id).forEach(row -> byAddr.put((Long) row.get("_rowaddr"), row));
      for (long o = 0; o < f.physicalRows(); o++) {
        Map<String, Object> row = byAddr.get((id << 32) | o);
        liveIndex.add(row == null ? -1 : live.size());
        if (row != null) {
          live.add(row);
        }
      }
    }
    int n = live.size();
    int d = keys.size();
    long[][] ranks = new long[n][d];
    long[] distinct = new long[d];
    for (int j = 0; j < d; j++) {
      String k = keys.get(j);
      TreeSet<Comparable<Object>> values = new TreeSet<>();
      boolean nulls = false;
      for (Map<String, Object> row : live) {
        @SuppressWarnings("unchecked")
        Comparable<Object> v = (Comparable<Object>) row.get(k);
        if (v == null) {
          nulls = true;
        } else {
          values.add(v);
        }
      }
      distinct[j] = values.size() + (nulls ? 1 : 0);
      for (int i = 0; i < n; i++) {
        @SuppressWarnings("unchecked")
        Comparable<Object> v = (Comparable<Object>) live.get(i).get(k);
        ranks[i][j] = v == null ? values.size() : values.headSet(v).size();
      }
    }
    Comparator<Integer> order;
    if (d == 1 || curve == Curve.RANGE) {
      order = (p, q) -> {
        for (int j = 0; j < d; j++) {
          int c = Long.compare(ranks[p][j], ranks[q][j]);
          if (c != 0) {
            return c;
          }
        }
        return Integer.compare(p, q);
      };
    } else {
      int bits = Math.min(31, 63 / d);
      long max = (1L << bits) - 1;
      long[] position = new long[n];
      for (int i = 0; i < n; i++) {
        long[] c = new long[d];
        for (int j = 0; j < d; j++) {
          c[j] = distinct[j] <= 1 ? 0 : ranks[i][j] * max / (distinct[j] - 1);
        }
        if (curve == Curve.HILBERT) {
          position[i] = SpaceFillingCurves.hilbert(c, bits);
        } else {
          for (int b = bits - 1; b >= 0; b--) {
            for (int j = 0; j < d; j++) {
              position[i] = position[i] * 2 + ((c[j] >> b) & 1);
            }
          }
        }
      }
      order = Comparator.<Integer>comparingLong(i -> position[i]).thenComparing(Comparator.naturalOrder());
    }
    List<Integer> sorted = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      sorted.add(i);
    }
    sorted.sort(order);
    int[] dest = new int[n];
    for (int p = 0; p < n; p++) {
      dest[sorted.get(p)] = (int) (p / target);
    }
    return liveIndex.stream().map(i -> i < 0 ? -1 : dest[i]).collect(Collectors.toList());
  }

  // Sum over fragments of the x and y extents, each as a fraction of its domain.
  private static double boxes(Dataset ds) {
    double sum = 0;
    for (Fragment f : ds.manifest().fragments()) {
      List<Map<String, Object>> rows = ClusterData.rows(ds, f.id());
      sum += (rows.stream().mapToLong(m -> (Long) m.get("x")).max().orElse(0)
          - rows.stream().mapToLong(m -> (Long) m.get("x")).min().orElse(0)) / 1000.0;
      sum += (rows.stream().mapToDouble(m -> (Double) m.get("y")).max().orElse(0)
          - rows.stream().mapToDouble(m -> (Double) m.get("y")).min().orElse(0)) / 1000.0;
    }
    return sum;
  }

  private static Map<Long, String> byRowId(Dataset ds) {
    Map<Long, String> out = new HashMap<>();
    for (Map<String, Object> row : ClusterData.rows(ds, null)) {
      out.put((Long) row.get("_rowid"), row.get("id") + "|" + row.get("a") + "|" + row.get("x") + "|"
          + row.get("y") + "|" + row.get("s"));
    }
    return out;
  }

  private static Map<Long, String> versions(Dataset ds) {
    Map<Long, String> out = new HashMap<>();
    try (var r = ds.newScan().columns("_rowid", "_row_created_at_version", "_row_last_updated_at_version")
        .build()) {
      VectorSchemaRoot root = r.getVectorSchemaRoot();
      while (r.loadNextBatch()) {
        for (int i = 0; i < root.getRowCount(); i++) {
          out.put((Long) root.getVector(0).getObject(i), root.getVector(1).getObject(i) + "/"
              + root.getVector(2).getObject(i));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private static Set<String> files(Dataset ds) {
    try {
      return ds.store().list("").stream().map(ObjectInfo::key).collect(Collectors.toSet());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
