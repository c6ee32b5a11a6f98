package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.table.Fragment;
import dev.javelin.table.exceptions.RowNotFoundException;
import dev.javelin.testing.FaultyObjectStore.Op;
import dev.javelin.testing.InterleavingObjectStore;
import dev.javelin.testing.MixedBatches;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class DatasetDeleteTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  // Rows 0..rows-1, fragments of rowsPerFile rows: row r sits at fragment r / rowsPerFile.
  private Dataset create(LanceFileVersion v, int rows, long rowsPerFile) {
    List<VectorSchemaRoot> batches = MixedBatches.batches(allocator, 0, rows, 700);
    try {
      return Dataset.create(dir.resolve("ds"), batches,
          WriteParams.builder().fileVersion(v).maxRowsPerFile(rowsPerFile).maxRowsPerGroup(300).build(), allocator);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  private static long addr(long row, long perFragment) {
    return (row / perFragment) << 32 | (row % perFragment);
  }

  private static long[] addrs(LongStream rows, long perFragment) {
    return rows.map(r -> addr(r, perFragment)).toArray();
  }

  private List<Long> scanIds(Dataset ds, int batchSize) throws IOException {
    List<Long> out = new ArrayList<>();
    try (ArrowReader r = ds.newScan().columns("id").batchSize(batchSize).build()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot root = r.getVectorSchemaRoot();
        assertThat(root.getRowCount()).isPositive();
        BigIntVector id = (BigIntVector) root.getVector(0);
        for (int i = 0; i < root.getRowCount(); i++) {
          out.add(id.get(i));
        }
      }
    }
    return out;
  }

  private static List<Long> live(int rows, Set<Long> deleted) {
    return LongStream.range(0, rows).filter(r -> !deleted.contains(r)).boxed().collect(Collectors.toList());
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void scansTakesAndCountsSkipDeletedRows(LanceFileVersion v) throws IOException {
    Set<Long> deleted = new TreeSet<>(List.of(0L, 1L, 299L, 300L, 999L, 1000L, 1500L, 2999L));
    Dataset ds = create(v, 3000, 1000).deleteRows(addrs(deleted.stream().mapToLong(Long::longValue), 1000));
    assertThat(ds.version()).isEqualTo(2);
    assertThat(ds.countRows()).isEqualTo(3000 - deleted.size());
    List<Long> want = live(3000, deleted);
    assertThat(scanIds(ds, 256)).isEqualTo(want);
    assertThat(scanIds(Dataset.open(dir.resolve("ds"), allocator), 8192)).isEqualTo(want);
    // The old version still has every row.
    assertThat(ds.checkout(1).countRows()).isEqualTo(3000);
    assertThat(scanIds(ds.checkout(1), 8192)).hasSize(3000);

    long[] offsets = {0, 1, 296, 297, 990, 991, want.size() - 1, 5};
    try (VectorSchemaRoot got = ds.take(offsets, List.of("id", "s", "l", "st"))) {
      try (VectorSchemaRoot expect = ds.checkout(1).take(
          LongStream.of(offsets).map(o -> want.get((int) o)).toArray(), List.of("id", "s", "l", "st"))) {
        MixedBatches.assertSameRows(MixedBatches.rows(got), MixedBatches.rows(expect));
      }
    }
    assertThatThrownBy(() -> ds.take(new long[] {want.size()}, null))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void rowAddressesAndIdsAreScanColumnsAndTakeKeys() throws IOException {
    Dataset ds = create(LanceFileVersion.V2_1, 2500, 1000).deleteRows(addrs(LongStream.of(3, 1001, 2400), 1000));
    List<Long> ids = new ArrayList<>();
    List<Long> addresses = new ArrayList<>();
    try (ArrowReader r = ds.newScan().columns("id").withRowId().withRowAddress().batchSize(100).build()) {
      assertThat(r.getVectorSchemaRoot().getSchema().getFields()).extracting(f -> f.getName())
          .containsExactly("id", "_rowid", "_rowaddr");
      while (r.loadNextBatch()) {
        VectorSchemaRoot root = r.getVectorSchemaRoot();
        for (int i = 0; i < root.getRowCount(); i++) {
          long id = ((BigIntVector) root.getVector(0)).get(i);
          long rowId = ((UInt8Vector) root.getVector(1)).get(i);
          long rowAddr = ((UInt8Vector) root.getVector(2)).get(i);
          assertThat(rowAddr).isEqualTo(addr(id, 1000));
          assertThat(rowId).isEqualTo(rowAddr);
          ids.add(id);
          addresses.add(rowAddr);
        }
      }
    }
    assertThat(ids).hasSize(2497);
    // Only the address column: rows come from the fragments' lengths.
    try (ArrowReader r = ds.newScan().columns(List.of()).withRowAddress().batchSize(700).build()) {
      List<Long> only = new ArrayList<>();
      while (r.loadNextBatch()) {
        UInt8Vector a = (UInt8Vector) r.getVectorSchemaRoot().getVector(0);
        for (int i = 0; i < a.getValueCount(); i++) {
          only.add(a.get(i));
        }
      }
      assertThat(only).isEqualTo(addresses);
    }
    long[] pick = {addresses.get(2000), addresses.get(0), addresses.get(1500), addresses.get(0)};
    try (VectorSchemaRoot got = ds.takeRows(pick, List.of("id"))) {
      BigIntVector id = (BigIntVector) got.getVector(0);
      assertThat(List.of(id.get(0), id.get(1), id.get(2), id.get(3)))
          .containsExactly(ids.get(2000), ids.get(0), ids.get(1500), ids.get(0));
    }
    String loc = ds.location();
    assertThatThrownBy(() -> ds.takeRows(new long[] {addr(1001, 1000)}, null))
        .isInstanceOf(RowNotFoundException.class)
        .hasMessage("Row address 4294967297 (fragment 1, offset 1) is deleted in version 2: " + loc);
    assertThatThrownBy(() -> ds.takeRows(new long[] {7L << 32}, null))
        .isInstanceOf(RowNotFoundException.class)
        .hasMessage("Row address 30064771072 (fragment 7, offset 0) names no fragment in version 2: " + loc);
    assertThatThrownBy(() -> ds.takeRows(new long[] {(2L << 32) | 500}, null))
        .isInstanceOf(RowNotFoundException.class)
        .hasMessage("Row address 8589935092 (fragment 2, offset 500) is past the 500 rows of its fragment in "
            + "version 2: " + loc);
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void manyDeletionsAreABitmapAndLaterDeletesMerge(LanceFileVersion v) throws IOException {
    Dataset ds = create(v, 12000, 12000);
    Set<Long> deleted = new TreeSet<>();
    LongStream.range(0, 12000).filter(r -> r % 2 == 0).forEach(deleted::add);
    ds = ds.deleteRows(addrs(deleted.stream().mapToLong(Long::longValue), 12000));
    assertThat(ds.manifest().fragments().get(0).deletionFile().get().isBitmap()).isTrue();
    ds = ds.deleteRows(addrs(LongStream.of(1, 3, 4, 11999), 12000)); // 4 is already deleted
    deleted.addAll(List.of(1L, 3L, 11999L));
    Fragment f = ds.manifest().fragments().get(0);
    assertThat(f.deletionFile().get().numDeletedRows()).isEqualTo(deleted.size());
    assertThat(ds.countRows()).isEqualTo(12000 - deleted.size());
    assertThat(scanIds(ds, 1000)).isEqualTo(live(12000, deleted));
    try (Stream<Path> files = Files.list(dir.resolve("ds/_deletions"))) {
      assertThat(files.map(p -> p.getFileName().toString())).hasSize(2).allMatch(n -> n.startsWith("0-"))
          .allMatch(n -> n.endsWith(".bin"));
    }
  }

  @Test
  void aFragmentWithEveryRowDeletedIsDropped() throws IOException {
    Dataset ds = create(LanceFileVersion.V2_1, 300, 100);
    ds = ds.deleteRows(addrs(LongStream.range(100, 150), 100));
    ds = ds.deleteRows(addrs(LongStream.range(150, 200), 100));
    assertThat(ds.manifest().fragments()).extracting(Fragment::id).containsExactly(0L, 2L);
    assertThat(ds.countRows()).isEqualTo(200);
    assertThat(scanIds(ds, 64)).isEqualTo(live(300, LongStream.range(100, 200).boxed().collect(Collectors.toSet())));
    // Naming only deleted rows commits nothing.
    Dataset same = ds.deleteRows(addrs(LongStream.of(0), 100)).deleteRows(addrs(LongStream.of(0), 100));
    assertThat(same.version()).isEqualTo(ds.version() + 1);
  }

  @Test
  void staleDeletesThatTogetherEmptyAFragmentDropIt() throws IOException {
    Dataset v1 = create(LanceFileVersion.V2_1, 300, 100);
    v1.deleteRows(addrs(LongStream.range(100, 150), 100));
    Dataset v3 = v1.deleteRows(addrs(LongStream.range(140, 200), 100)); // read version 1, merged over v2
    assertThat(v3.version()).isEqualTo(3);
    assertThat(v3.manifest().fragments()).extracting(Fragment::id).containsExactly(0L, 2L);
    // A stale delete of a row in a fragment that is gone by now has nothing left to do.
    Dataset v4 = v1.deleteRows(addrs(LongStream.of(105, 250), 100));
    assertThat(v4.version()).isEqualTo(4);
    Set<Long> gone = LongStream.range(100, 200).boxed().collect(Collectors.toCollection(TreeSet::new));
    gone.add(250L);
    assertThat(v4.countRows()).isEqualTo(300 - gone.size());
    assertThat(scanIds(v4, 8192)).isEqualTo(live(300, gone));
    try (Stream<Path> files = Files.list(dir.resolve("ds/_deletions"))) {
      // v2's file for fragment 1 and v4's for fragment 2; the stale deletes' first files were removed.
      assertThat(files.map(p -> p.getFileName().toString().substring(0, 2))).containsExactlyInAnyOrder("1-", "2-");
    }
  }

  @Test
  void aBadAddressWritesNothing() throws IOException {
    Dataset ds = create(LanceFileVersion.V2_1, 300, 100);
    String loc = ds.location();
    assertThatThrownBy(() -> ds.deleteRows(new long[] {1, (1L << 32) | 100}))
        .isInstanceOf(RowNotFoundException.class)
        .hasMessage("Row address 4294967396 (fragment 1, offset 100) is past the 100 rows of its fragment in "
            + "version 1: " + loc);
    assertThat(ds.checkoutLatest().version()).isEqualTo(1);
    assertThat(dir.resolve("ds/_deletions")).satisfiesAnyOf(p -> assertThat(p).doesNotExist(),
        p -> assertThat(p).isEmptyDirectory());
  }

  @Test
  void concurrentDeletesOfTheSameAndOtherFragmentsAllLand() throws Exception {
    Dataset base = create(LanceFileVersion.V2_1, 4000, 1000);
    int threads = 6;
    List<Set<Long>> plans = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Set<Long> rows = new TreeSet<>();
      for (long r = t; r < 4000; r += 7) {
        rows.add(r); // disjoint between threads, all fragments
      }
      for (long r = 500; r < 520; r++) {
        rows.add(r); // the same rows in every thread
      }
      plans.add(rows);
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Dataset>> done = new ArrayList<>();
      for (Set<Long> rows : plans) {
        done.add(pool.submit(() -> base.deleteRows(addrs(rows.stream().mapToLong(Long::longValue), 1000))));
      }
      for (Future<Dataset> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    Dataset latest = base.checkoutLatest();
    assertThat(latest.version()).isEqualTo(1 + threads);
    Set<Long> all = new TreeSet<>();
    plans.forEach(all::addAll);
    assertThat(latest.countRows()).isEqualTo(4000 - all.size());
    assertThat(scanIds(latest, 8192)).isEqualTo(live(4000, all));
    // Exactly one deletion file per fragment is referenced; superseded ones were removed, so
    // every file left is referenced by some version.
    Set<String> referenced = new TreeSet<>();
    for (long v = 1; v <= latest.version(); v++) {
      for (Fragment f : latest.checkout(v).manifest().fragments()) {
        f.deletionFile().ifPresent(d -> referenced.add(d.key(f.id())));
      }
    }
    try (Stream<Path> files = Files.list(dir.resolve("ds/_deletions"))) {
      assertThat(files.map(p -> "_deletions/" + p.getFileName())).containsExactlyInAnyOrderElementsOf(referenced);
    }
  }

  // ---- the count a delete reports

  @Test
  void aDeleteRacingAnAppendCountsOnlyTheRowsItDeleted() throws IOException {
    create(LanceFileVersion.V2_1, 300, 100);
    Path root = dir.resolve("ds");
    Dataset other = Dataset.open(root, allocator);
    Dataset ds = Dataset.open(new InterleavingObjectStore(root).before(Op.PUT_IF_ABSENT, "\\.manifest$", 1, () -> {
      try (VectorSchemaRoot more = MixedBatches.batch(allocator, 1000, 50)) {
        other.append(List.of(more), WriteParams.defaults());
      }
    }), allocator);
    DeleteResult r = ds.deleteWhere("id < 30");
    // Before minus after would say -20: the append's 50 rows landed between read and commit.
    assertThat(r.rowsDeleted()).isEqualTo(30);
    assertThat(r.dataset().version()).isEqualTo(3);
    assertThat(r.dataset().countRows()).isEqualTo(320);
  }

  @Test
  void aDeleteRebasedOverOverlappingDeletesCountsOnlyTheRowsStillLive() throws IOException {
    create(LanceFileVersion.V2_1, 300, 100);
    Path root = dir.resolve("ds");
    Dataset other = Dataset.open(root, allocator);
    String[] concurrent = {"id >= 20 AND id < 50", "id >= 100 AND id < 200"};
    int[] next = {0};
    // Two lost races: first to a delete of some of the same rows, then to one of all of fragment 1.
    Dataset ds = Dataset.open(new InterleavingObjectStore(root).before(Op.PUT_IF_ABSENT, "\\.manifest$", 2, () ->
        other.checkoutLatest().delete(concurrent[next[0]++])), allocator);
    DeleteResult r = ds.deleteWhere("id < 30 OR (id >= 150 AND id < 160) OR id >= 290");
    // 0-19 and 290-299 are this delete's; 20-29 and 150-159 were deleted first by the others.
    assertThat(r.rowsDeleted()).isEqualTo(30);
    assertThat(r.dataset().version()).isEqualTo(4);
    assertThat(r.dataset().countRows()).isEqualTo(300 - 50 - 100 - 10);
    Set<Long> gone = new TreeSet<>();
    LongStream.range(0, 50).forEach(gone::add);
    LongStream.range(100, 200).forEach(gone::add);
    LongStream.range(290, 300).forEach(gone::add);
    assertThat(scanIds(r.dataset(), 8192)).isEqualTo(live(300, gone));
  }

  @Test
  void aWholeFragmentDeleteRebasedOverAPartialOneCountsTheRest() throws IOException {
    create(LanceFileVersion.V2_1, 300, 100);
    Path root = dir.resolve("ds");
    Dataset other = Dataset.open(root, allocator);
    Dataset ds = Dataset.open(new InterleavingObjectStore(root).before(Op.PUT_IF_ABSENT, "\\.manifest$", 1, () ->
        other.checkoutLatest().delete("id >= 100 AND id < 140")), allocator);
    DeleteResult r = ds.deleteAddresses(addrs(LongStream.range(100, 200), 100)); // all of fragment 1
    assertThat(r.rowsDeleted()).isEqualTo(60);
    assertThat(r.dataset().manifest().fragments()).extracting(Fragment::id).containsExactly(0L, 2L);
    assertThat(ds.deleteWhere("id > 100000").rowsDeleted()).isZero();
  }
}
