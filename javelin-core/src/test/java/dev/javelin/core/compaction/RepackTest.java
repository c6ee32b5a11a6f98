package dev.javelin.core.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.Dataset;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.OperationKind;
import dev.javelin.table.Table;
import dev.javelin.table.Transaction;
import dev.javelin.table.exceptions.CommitConflictException;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class RepackTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private Dataset backfilled(LanceFileVersion v) {
    Dataset ds = Data.create(dir.resolve("ds"), allocator, 300, 100, v);
    ds = Data.backfill(ds, "a", 2);
    return Data.backfill(ds, "b", 3);
  }

  private static CompactionOptions repack(int maxFiles) {
    // Fragments of 100 rows are not small against a target of 100: no fragment rewrite.
    return CompactionOptions.builder().targetRowsPerFragment(100).maxDataFilesPerFragment(maxFiles).build();
  }

  private Transaction lastTransaction(Dataset ds) {
    return Table.at(ds.store()).transaction(ds.manifest()).orElseThrow();
  }

  private long dataFilesOnDisk() throws Exception {
    try (Stream<Path> s = Files.list(dir.resolve("ds").resolve("data"))) {
      return s.count();
    }
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void repackCollapsesBackfilledFiles(LanceFileVersion v) {
    Dataset ds = backfilled(v);
    assertThat(Data.fileCounts(ds)).containsExactly(3, 3, 3);
    List<List<String>> before = Data.rows(ds);
    List<Long> ids = ds.manifest().fragments().stream().map(Fragment::id).toList();
    Dataset after = ds.compact(repack(1));
    assertThat(after.version()).isEqualTo(ds.version() + 1);
    assertThat(lastTransaction(after).kind()).isEqualTo(OperationKind.DATA_REPLACEMENT);
    assertThat(lastTransaction(after).dataChange()).isFalse();
    assertThat(Data.fileCounts(after)).containsExactly(1, 1, 1);
    assertThat(after.manifest().fragments().stream().map(Fragment::id).toList()).isEqualTo(ids);
    assertThat(Data.rows(after)).isEqualTo(before);
    assertThat(Data.rows(Dataset.open(dir.resolve("ds"), allocator))).isEqualTo(before);
    // A second run has nothing to do.
    assertThat(after.compact(repack(1)).version()).isEqualTo(after.version());
  }

  @Test
  void repackKeepsTheBiggestFile() {
    Dataset ds = backfilled(LanceFileVersion.V2_1);
    Fragment f = ds.manifest().fragments().get(0);
    DataFile biggest = f.files().stream().max((x, y) -> Long.compare(x.fileSizeBytes(), y.fileSizeBytes())).orElseThrow();
    CompactionPlan plan = Compaction.plan(ds, repack(2));
    assertThat(plan.tasks()).hasSize(3).allMatch(t -> t.kind() == TaskKind.REPACK_COLUMNS);
    Dataset after = ds.compact(repack(2));
    assertThat(Data.fileCounts(after)).containsExactly(2, 2, 2);
    Fragment g = after.manifest().fragments().get(0);
    assertThat(g.files()).contains(biggest); // left in place, untouched
    assertThat(Data.rows(after)).isEqualTo(Data.rows(ds));
    assertThat(Compaction.plan(after, repack(2)).tasks()).isEmpty();
  }

  @Test
  void repackFollowsColumnGroups() {
    Dataset ds = backfilled(LanceFileVersion.V2_1);
    // id,s | a | b: group s with b; a is unclaimed.
    CompactionOptions groups = CompactionOptions.builder().targetRowsPerFragment(100).columnGroups(List.of(List.of("id"), List.of("s", "b")))
        .build();
    // "id" is not held alone and moving it empties no file: only {s, b} plans (it empties b's file).
    CompactionPlan plan = Compaction.plan(ds, groups);
    assertThat(plan.tasks()).hasSize(3);
    int s = ds.schema().field("s").orElseThrow().id();
    int b = ds.schema().field("b").orElseThrow().id();
    assertThat(plan.tasks().get(0).repackFiles()).containsExactly(List.of(s, b));
    Dataset after = ds.compact(groups);
    assertThat(Data.rows(after)).isEqualTo(Data.rows(ds));
    assertThat(Data.fileCounts(after)).containsExactly(3, 3, 3);
    // A layout that matches plans nothing.
    CompactionOptions matching = CompactionOptions.builder().targetRowsPerFragment(100).columnGroups(List.of(List.of("s", "b"), List.of("a")))
        .build();
    assertThat(Compaction.plan(after, matching).tasks()).isEmpty();
  }

  @Test
  void repackMergesUnclaimedColumnsOverTheLimit() {
    Dataset ds = Data.backfill(backfilled(LanceFileVersion.V2_1), "c", 4);
    CompactionOptions groups = CompactionOptions.builder().targetRowsPerFragment(100).columnGroups(List.of(List.of("id", "s"))).build();
    assertThat(Compaction.plan(ds, groups).tasks()).isEmpty();
    CompactionOptions limited = groups.toBuilder().maxDataFilesPerFragment(2).build();
    Dataset after = ds.compact(limited);
    assertThat(Data.fileCounts(after)).containsExactly(2, 2, 2);
    assertThat(Data.rows(after)).isEqualTo(Data.rows(ds));
  }

  @Test
  void repackKeepsDeletions() {
    Dataset ds = backfilled(LanceFileVersion.V2_1).delete("id % 7 = 0 OR id >= 290");
    List<List<String>> before = Data.rows(ds);
    Dataset after = ds.compact(repack(1).toBuilder().scope(CompactionScope.REPACK_COLUMNS).build());
    assertThat(Data.fileCounts(after)).containsExactly(1, 1, 1);
    assertThat(Data.rows(after)).isEqualTo(before);
    for (int i = 0; i < 3; i++) {
      assertThat(after.manifest().fragments().get(i).deletionFile())
          .isEqualTo(ds.manifest().fragments().get(i).deletionFile());
    }
  }

  @Test
  void repackDropsFileLeftWithOnlyDroppedColumns() {
    Dataset ds = Data.backfill(backfilled(LanceFileVersion.V2_1), "c", 4);
    // Put b and c in one file, then drop c: that file holds b and a dead slot.
    ds = ds.compact(CompactionOptions.builder().targetRowsPerFragment(100).columnGroups(List.of(List.of("b", "c"))).build());
    assertThat(Data.fileCounts(ds)).containsExactly(3, 3, 3);
    ds = ds.dropColumns("c");
    assertThat(ds.columnLayoutStats().fragments().get(0).deadSlotShare()).isGreaterThan(0);
    Dataset after = ds.compact(repack(1));
    assertThat(Data.fileCounts(after)).containsExactly(1, 1, 1);
    assertThat(after.manifest().fragments().get(0).files()).hasSize(1);
    assertThat(after.columnLayoutStats().fragments().get(0).deadSlotShare()).isZero();
    assertThat(Data.rows(after)).isEqualTo(Data.rows(ds));
  }

  @Test
  void repackNeverAddsAFile() {
    Dataset ds = Data.backfill(backfilled(LanceFileVersion.V2_1), "c", 4);
    List<List<List<String>>> groupings = List.of(
        List.of(List.of("id")), List.of(List.of("s")), List.of(List.of("id", "a")), List.of(List.of("s", "b", "c")),
        List.of(List.of("a"), List.of("b"), List.of("c")), List.of(List.of("id", "s", "a", "b", "c")),
        List.of(List.of("c", "a"), List.of("id")));
    for (List<List<String>> g : groupings) {
      for (Integer max : new Integer[] {null, 1, 2, 3}) {
        CompactionOptions.Builder b = CompactionOptions.builder().targetRowsPerFragment(100).columnGroups(g);
        if (max != null) {
          b.maxDataFilesPerFragment(max);
        }
        for (CompactionTask t : Compaction.plan(ds, b.build()).tasks()) {
          FragmentColumns fc = new FragmentColumns(
              ds.manifest().fragments().stream().filter(f -> f.id() == t.fragmentIds().get(0)).findFirst().orElseThrow(),
              ds.schema().fields());
          List<Integer> moved = new ArrayList<>();
          t.repackFiles().forEach(moved::addAll);
          long emptied = fc.liveFiles.stream().filter(d -> moved.containsAll(fc.owned.get(d))).count();
          assertThat(emptied).as("%s max %s", g, max).isGreaterThanOrEqualTo(t.repackFiles().size());
        }
      }
    }
  }

  @Test
  void repackCountsOnlyTheFilesItReadsAgainstTheByteBudget() {
    Dataset ds = backfilled(LanceFileVersion.V2_1);
    Fragment f = ds.manifest().fragments().get(0);
    long total = f.files().stream().mapToLong(DataFile::fileSizeBytes).sum();
    long kept = f.files().stream().mapToLong(DataFile::fileSizeBytes).max().getAsLong();
    long small = total - kept;
    // Keeping the largest leaves the other two to merge: the task reads only their files.
    CompactionOptions o = repack(2).toBuilder().maxSourceBytes(small).build();
    assertThat(Compaction.plan(ds, o).tasks()).hasSize(1);
    assertThat(Compaction.plan(ds, repack(2).toBuilder().maxSourceBytes(small - 1).build()).tasks()).isEmpty();
    assertThat(Compaction.plan(ds, repack(2).toBuilder().maxSourceBytes(3 * small).build()).tasks()).hasSize(3);
  }

  @Test
  void repackAgainstConcurrentDelete() {
    Dataset ds = backfilled(LanceFileVersion.V2_1);
    CompactionPlan plan = Compaction.plan(ds, repack(1));
    List<CompactionTaskResult> results = new ArrayList<>();
    plan.tasks().forEach(t -> results.add(new DefaultCompactionExecutor().execute(ds, t)));
    Dataset deleted = ds.delete("id < 10");
    Dataset after = Compaction.commit(ds, results).dataset();
    assertThat(after.version()).isEqualTo(deleted.version() + 1);
    assertThat(Data.fileCounts(after)).containsExactly(1, 1, 1);
    assertThat(Data.rows(after)).isEqualTo(Data.rows(deleted));

    // A delete of a whole fragment makes the repack retry; its files are removed.
    Dataset ds3 = Data.backfill(Data.backfill(Data.create(dir.resolve("ds2"), allocator, 300, 100,
        LanceFileVersion.V2_1), "a", 2), "b", 3);
    List<CompactionTaskResult> r2 = new ArrayList<>();
    Compaction.plan(ds3, repack(1)).tasks().forEach(t -> r2.add(new DefaultCompactionExecutor().execute(ds3, t)));
    Dataset gone = ds3.delete("id >= 200");
    assertThatThrownBy(() -> Compaction.commit(ds3, r2)).isInstanceOf(CommitConflictException.class);
    r2.forEach(r -> r.writtenKeys().forEach(k -> assertThat(dir.resolve("ds2").resolve(k)).doesNotExist()));
    assertThat(Data.rows(Dataset.open(dir.resolve("ds2"), allocator))).isEqualTo(Data.rows(gone));
  }

  @Test
  void repackAgainstConcurrentDrop() throws Exception {
    Dataset ds = Data.backfill(backfilled(LanceFileVersion.V2_1), "c", 4);
    // Repack only {a, b} (c unclaimed stays): a concurrent drop of c is kept.
    CompactionOptions ab = CompactionOptions.builder().targetRowsPerFragment(100).columnGroups(List.of(List.of("a", "b"))).build();
    List<CompactionTaskResult> results = new ArrayList<>();
    Compaction.plan(ds, ab).tasks().forEach(t -> results.add(new DefaultCompactionExecutor().execute(ds, t)));
    Dataset dropped = ds.dropColumns("c");
    Dataset after = Compaction.commit(ds, results).dataset();
    assertThat(after.schema().field("c")).isEmpty();
    assertThat(Data.rows(after)).isEqualTo(Data.rows(dropped));
    assertThat(Data.fileCounts(after)).containsExactly(2, 2, 2);

    // A drop of a moved column makes it retry, and its files go.
    Dataset ds2 = after;
    List<CompactionTaskResult> r2 = new ArrayList<>();
    Compaction.plan(ds2, repack(1)).tasks().forEach(t -> r2.add(new DefaultCompactionExecutor().execute(ds2, t)));
    long files = dataFilesOnDisk();
    Dataset dropA = ds2.dropColumns("a");
    assertThatThrownBy(() -> Compaction.commit(ds2, r2)).isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("DataReplacement").hasMessageContaining("Project");
    assertThat(dataFilesOnDisk()).isEqualTo(files - 3);
    assertThat(Data.rows(Dataset.open(dir.resolve("ds"), allocator))).isEqualTo(Data.rows(dropA));
  }

  @Test
  void repackRetriesAgainstAConcurrentRewriteOfTheFragment() {
    Dataset ds = backfilled(LanceFileVersion.V2_1);
    List<CompactionTaskResult> results = new ArrayList<>();
    Compaction.plan(ds, repack(1)).tasks().forEach(t -> results.add(new DefaultCompactionExecutor().execute(ds, t)));
    ds.compact(CompactionOptions.builder().scope(CompactionScope.REWRITE_FRAGMENTS).build());
    assertThat(Table.at(ds.store()).latest().version()).isEqualTo(ds.version() + 2);
    assertThatThrownBy(() -> Compaction.commit(ds, results)).isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("Rewrite");
  }

  @Test
  void staleDeleteRebasesOverARepack() {
    Dataset ds = backfilled(LanceFileVersion.V2_1).delete("id = 150");
    Dataset repacked = ds.compact(repack(1));
    Dataset deleted = ds.delete("id < 10 OR id = 151"); // read before the repack
    assertThat(deleted.version()).isEqualTo(repacked.version() + 1);
    assertThat(Data.fileCounts(deleted)).containsExactly(1, 1, 1);
    List<List<String>> want = new ArrayList<>();
    for (List<String> r : Data.rows(ds)) {
      long id = Long.parseLong(r.get(0));
      if (id >= 10 && id != 151) {
        want.add(r);
      }
    }
    assertThat(Data.rows(Dataset.open(dir.resolve("ds"), allocator))).isEqualTo(want);
  }
}
