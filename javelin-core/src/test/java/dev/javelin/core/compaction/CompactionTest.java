package dev.javelin.core.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.core.exceptions.CompactionException;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.OperationKind;
import dev.javelin.table.Table;
import dev.javelin.table.rowids.RowIdSequence;
import dev.javelin.testing.TestAllocator;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompactionTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private OperationKind kindAt(Dataset ds, long version) {
    Table t = Table.at(ds.store());
    return t.transaction(t.load(version)).orElseThrow().kind();
  }

  private static List<Long> ids(Dataset ds) {
    return ds.manifest().fragments().stream().map(Fragment::id).toList();
  }

  /** Rows ordered by id (a rewrite's new fragments come after older ones). */
  static List<List<String>> sorted(List<List<String>> rows) {
    List<List<String>> out = new ArrayList<>(rows);
    out.sort(java.util.Comparator.comparingLong(r -> Long.parseLong(r.get(0))));
    return out;
  }

  @Test
  void compactsSmallNeighboursWithReserveThenRewrite() {
    Dataset ds = Data.create(dir.resolve("ds"), allocator, 1000, 100, LanceFileVersion.V2_1);
    List<List<String>> before = Data.values(ds);
    CompactionSummary m = Compaction.compact(ds, CompactionOptions.defaults());
    Dataset after = m.dataset();
    assertThat(after.version()).isEqualTo(ds.version() + 2);
    assertThat(kindAt(after, ds.version() + 1)).isEqualTo(OperationKind.RESERVE_FRAGMENTS);
    assertThat(kindAt(after, ds.version() + 2)).isEqualTo(OperationKind.REWRITE);
    assertThat(ids(after)).containsExactly(10L); // the reserved id, after 0..9
    assertThat(m.fragmentsRemoved()).isEqualTo(10);
    assertThat(m.fragmentsAdded()).isEqualTo(1);
    assertThat(Data.values(after)).isEqualTo(before);
    assertThat(Compaction.plan(after, CompactionOptions.defaults()).tasks()).isEmpty();
  }

  @Test
  void splitsToTheTargetAndGroupsOnlyNeighbours() {
    Dataset ds = Data.create(dir.resolve("ds"), allocator, 1000, 100, LanceFileVersion.V2_1);
    CompactionOptions o = CompactionOptions.builder().targetRowsPerFragment(300).build();
    // 10 x 100 rows: runs of 300, the last taking the rest.
    assertThat(Compaction.plan(ds, o).tasks()).extracting(t -> t.fragmentIds().size()).containsExactly(3, 3, 4);
    Dataset after = ds.compact(o);
    assertThat(after.manifest().fragments()).extracting(Fragment::physicalRows).containsExactly(300L, 300L, 300L, 100L);
    assertThat(Data.values(after)).isEqualTo(Data.values(ds));
    // A big fragment between two small ones: no small one has a candidate neighbour.
    Dataset mixed = Data.create(dir.resolve("mixed"), allocator, 500, 100, LanceFileVersion.V2_1);
    assertThat(Compaction.plan(mixed, CompactionOptions.builder().targetRowsPerFragment(100).build()).tasks())
        .isEmpty();
    assertThat(Compaction.plan(mixed, CompactionOptions.builder().targetRowsPerFragment(200).maxSourceFragments(1)
        .build()).tasks()).isEmpty();
    assertThat(Compaction.plan(mixed, CompactionOptions.builder().maxSourceFragments(2).build()).tasks())
        .extracting(t -> t.fragmentIds().size()).containsExactly(2, 2);
  }

  @Test
  void materializesDeletionsAboveTheThreshold() {
    Dataset ds = Data.create(dir.resolve("ds"), allocator, 300, 100, LanceFileVersion.V2_1).delete("id >= 180 AND id < 200");
    CompactionOptions o = CompactionOptions.builder().targetRowsPerFragment(100).build();
    CompactionPlan plan = Compaction.plan(ds, o);
    assertThat(plan.tasks()).hasSize(1);
    assertThat(plan.tasks().get(0).fragmentIds()).containsExactly(1L);
    Dataset after = ds.compact(o);
    assertThat(after.manifest().fragments()).extracting(Fragment::physicalRows).containsExactly(100L, 100L, 80L);
    assertThat(after.manifest().fragments().get(2).deletionFile()).isEmpty();
    assertThat(ids(after)).containsExactly(0L, 2L, 3L); // fragments stay in id order, as in Lance
    assertThat(sorted(Data.values(after))).isEqualTo(sorted(Data.values(ds)));
    assertThat(Compaction.plan(ds, o.toBuilder().materializeDeletionsThreshold(0.25).build()).tasks()).isEmpty();
    assertThat(Compaction.plan(ds, o.toBuilder().materializeDeletions(false).build()).tasks()).isEmpty();
  }

  @Test
  void rewriteSplitsFilesByBytesAndRowGroups() {
    Dataset ds = Data.create(dir.resolve("ds"), allocator, 1000, 100, LanceFileVersion.V2_1);
    Dataset after = ds.compact(CompactionOptions.builder().maxBytesPerFile(4000).maxRowsPerGroup(50).build());
    assertThat(after.manifest().fragments().size()).isGreaterThan(1);
    assertThat(Data.values(after)).isEqualTo(Data.values(ds));
  }

  @Test
  void rewriteCarriesStableRowIds() {
    List<VectorSchemaRoot> batches = List.of(Data.batch(allocator, 0, 100), Data.batch(allocator, 100, 100),
        Data.batch(allocator, 200, 100));
    Dataset ds;
    try {
      ds = Dataset.create(dir.resolve("ds"), batches, WriteParams.builder().maxRowsPerFile(100)
          .enableStableRowIds(true).build(), allocator);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
    // (Deletes on stable-row-id datasets are not committed by Javelin yet; deleted rows are
    // skipped by the same code that reads the deletion vector for every fragment.)
    Dataset after = ds.compact(CompactionOptions.builder().targetRowsPerFragment(200).build());
    assertThat(after.manifest().fragments()).extracting(Fragment::physicalRows).containsExactly(200L, 100L);
    List<Long> got = new ArrayList<>();
    for (Fragment f : after.manifest().fragments()) {
      RowIdSequence s = f.rowIdSequence(after.store()).orElseThrow();
      for (long i = 0; i < s.length(); i++) {
        got.add(s.get(i));
      }
      assertThat(f.createdAtVersions(after.store())).isPresent();
    }
    assertThat(got).isEqualTo(LongStream.range(0, 300).boxed().toList());
    assertThat(after.manifest().nextRowId()).isEqualTo(300);
    assertThat(Data.values(after)).isEqualTo(Data.values(ds));
  }

  private Dataset mixedLayout() {
    // Three small fragments and one big one, each with three files after two backfills.
    Dataset ds = Data.create(dir.resolve("ds"), allocator, 300, 100, LanceFileVersion.V2_1);
    List<VectorSchemaRoot> big = List.of(Data.batch(allocator, 300, 400));
    try {
      ds = ds.append(big, WriteParams.builder().maxRowsPerFile(400).build());
    } finally {
      big.forEach(VectorSchemaRoot::close);
    }
    return Data.backfill(Data.backfill(ds, "a", 2), "b", 3);
  }

  private static CompactionOptions mixedOptions() {
    return CompactionOptions.builder().targetRowsPerFragment(400).maxDataFilesPerFragment(1).build();
  }

  @Test
  void compactionRewritesAndRepacksInOneRun() {
    Dataset ds = mixedLayout();
    CompactionPlan plan = Compaction.plan(ds, mixedOptions());
    assertThat(plan.tasks()).extracting(CompactionTask::kind)
        .containsExactly(TaskKind.REWRITE_FRAGMENTS, TaskKind.REPACK_COLUMNS);
    assertThat(plan.tasks().get(0).fragmentIds()).containsExactly(0L, 1L, 2L);
    assertThat(plan.tasks().get(1).fragmentIds()).containsExactly(3L);
    Dataset after = ds.compact(mixedOptions());
    assertThat(after.version()).isEqualTo(ds.version() + 3);
    assertThat(kindAt(after, ds.version() + 1)).isEqualTo(OperationKind.RESERVE_FRAGMENTS);
    assertThat(kindAt(after, ds.version() + 2)).isEqualTo(OperationKind.REWRITE);
    assertThat(kindAt(after, ds.version() + 3)).isEqualTo(OperationKind.DATA_REPLACEMENT);
    assertThat(ids(after)).containsExactly(3L, 4L);
    assertThat(Data.fileCounts(after)).containsExactly(1, 1);
    assertThat(sorted(Data.values(after))).isEqualTo(sorted(Data.values(ds)));
  }

  @Test
  void compactionScopeSelectsTaskKinds() {
    Dataset ds = mixedLayout();
    CompactionOptions o = mixedOptions();
    assertThat(Compaction.plan(ds, o.toBuilder().scope(CompactionScope.REWRITE_FRAGMENTS).build()).tasks())
        .extracting(CompactionTask::kind).containsExactly(TaskKind.REWRITE_FRAGMENTS);
    CompactionPlan repacks = Compaction.plan(ds, o.toBuilder().scope(CompactionScope.REPACK_COLUMNS).build());
    assertThat(repacks.tasks()).extracting(CompactionTask::kind).containsOnly(TaskKind.REPACK_COLUMNS).hasSize(4);
    Dataset after = ds.compact(o.toBuilder().scope(CompactionScope.REPACK_COLUMNS).build());
    assertThat(after.version()).isEqualTo(ds.version() + 1);
    assertThat(Data.fileCounts(after)).containsExactly(1, 1, 1, 1);
    assertThat(Data.rows(after)).isEqualTo(Data.rows(ds));
  }

  @Test
  void repackTriggersComeFromTableConfig() {
    Dataset ds = mixedLayout();
    CompactionOptions o = CompactionOptions.builder().targetRowsPerFragment(100).build();
    assertThat(Compaction.plan(ds, o).tasks()).isEmpty();
    CompactionOptions withConfig = o.withTableConfig(java.util.Map.of(CompactionOptions.MAX_DATA_FILES_KEY, "1",
        CompactionOptions.COLUMN_GROUPS_KEY, "[[\"id\",\"s\"],[\"a\",\"b\"]]"));
    assertThat(withConfig.maxDataFilesPerFragment()).hasValue(1);
    assertThat(withConfig.columnGroups()).containsExactly(List.of("id", "s"), List.of("a", "b"));
    assertThat(o.toBuilder().maxDataFilesPerFragment(3).build()
        .withTableConfig(java.util.Map.of(CompactionOptions.MAX_DATA_FILES_KEY, "1")).maxDataFilesPerFragment())
        .hasValue(3);
    assertThatThrownBy(() -> o.withTableConfig(java.util.Map.of(CompactionOptions.COLUMN_GROUPS_KEY, "[a")))
        .isInstanceOf(CompactionException.class)
        .hasMessage("Table config lance.compaction.column_groups is not a JSON array of arrays of column names: '[a'");
  }

  @SuppressWarnings("unchecked")
  private static <T> T roundTrip(T o) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(o);
    }
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      return (T) in.readObject();
    }
  }

  @Test
  void repackTasksRunDistributed() throws Exception {
    Dataset ds = mixedLayout();
    CompactionPlan plan = roundTrip(Compaction.plan(ds, mixedOptions()));
    List<CompactionTaskResult> results = new ArrayList<>();
    for (CompactionTask t : plan.tasks()) {
      CompactionTask viaJson = CompactionTask.fromJson(roundTrip(t).toJson());
      assertThat(viaJson.toJson()).isEqualTo(t.toJson());
      // A worker opens the dataset itself.
      Dataset worker = Dataset.open(dir.resolve("ds"), allocator);
      CompactionTaskResult r = new DefaultCompactionExecutor().execute(worker, viaJson);
      CompactionTaskResult back = CompactionTaskResult.fromJson(roundTrip(r).toJson());
      assertThat(back.toJson()).isEqualTo(r.toJson());
      results.add(back);
    }
    Dataset after = Compaction.commit(ds, results).dataset();
    assertThat(ids(after)).containsExactly(3L, 4L);
    assertThat(Data.fileCounts(after)).containsExactly(1, 1);
    assertThat(sorted(Data.values(after))).isEqualTo(sorted(Data.values(ds)));
  }

  @Test
  void taskDataWithoutKindRewritesFragments() {
    Dataset ds = Data.create(dir.resolve("ds"), allocator, 300, 100, LanceFileVersion.V2_1);
    CompactionTask t = CompactionTask.fromJson("{\"read_version\":" + ds.version() + ",\"fragments\":[0,1,2]}");
    assertThat(t.kind()).isEqualTo(TaskKind.REWRITE_FRAGMENTS);
    assertThat(t.repackFiles()).isEmpty();
    CompactionTaskResult r = new DefaultCompactionExecutor().execute(ds, t);
    String json = r.toJson().replace("\"kind\":\"rewrite_fragments\",", "").replace(",\"repacked_files\":[]", "");
    assertThat(json).doesNotContain("kind");
    CompactionTaskResult old = CompactionTaskResult.fromJson(json);
    assertThat(old.kind()).isEqualTo(TaskKind.REWRITE_FRAGMENTS);
    Dataset after = Compaction.commit(ds, List.of(old)).dataset();
    assertThat(after.manifest().fragments()).hasSize(1);
    assertThat(Data.values(after)).isEqualTo(Data.values(ds));
    assertThatThrownBy(() -> CompactionTask.fromJson("{\"kind\":\"fold\",\"read_version\":1,\"fragments\":[]}"))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("Unknown compaction task kind 'fold'");
  }

  @Test
  void commitRejectsAFragmentInBothKindsOfTask() {
    Dataset ds = mixedLayout();
    CompactionTask rewrite = Compaction.plan(ds, mixedOptions()).tasks().get(0);
    CompactionTask repack = Compaction.plan(ds, mixedOptions().toBuilder().scope(CompactionScope.REPACK_COLUMNS)
        .build()).tasks().get(0);
    assertThat(repack.fragmentIds()).containsExactly(0L);
    CompactionExecutor ex = new DefaultCompactionExecutor();
    List<CompactionTaskResult> results = List.of(ex.execute(ds, rewrite), ex.execute(ds, repack));
    assertThatThrownBy(() -> Compaction.commit(ds, results)).isInstanceOf(CompactionException.class)
        .hasMessage("Fragment 0 is in both a fragment rewrite and a column repack; a run may put a fragment in one "
            + "kind of task only: " + ds.location());
    Manifest latest = Table.at(ds.store()).latest();
    assertThat(latest.version()).isEqualTo(ds.version());
    results.forEach(r -> r.writtenKeys().forEach(k -> assertThat(dir.resolve("ds").resolve(k)).doesNotExist()));
  }
}
