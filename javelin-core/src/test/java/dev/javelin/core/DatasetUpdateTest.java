package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.exceptions.ColumnLengthMismatchException;
import dev.javelin.core.exceptions.ExpressionTypeException;
import dev.javelin.core.exceptions.InvalidUpdateException;
import dev.javelin.core.exceptions.SchemaEvolutionException;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.OperationKind;
import dev.javelin.table.Transaction;
import dev.javelin.table.exceptions.CommitConflictException;
import dev.javelin.table.exceptions.StableRowIdsUnsupportedException;
import dev.javelin.table.proto.TransactionProtos;
import dev.javelin.testing.MixedBatches;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongPredicate;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class DatasetUpdateTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  // Rows 0..rows-1 in fragments of 1000 rows (columns id, x, s, l, st of MixedBatches).
  private Dataset create(LanceFileVersion v, int rows) {
    return create(v, rows, false);
  }

  private Dataset create(LanceFileVersion v, int rows, boolean stableRowIds) {
    List<VectorSchemaRoot> batches = MixedBatches.batches(allocator, 0, rows, 700);
    try {
      return Dataset.create(dir.resolve("ds"), batches, WriteParams.builder().fileVersion(v).maxRowsPerFile(1000)
          .maxRowsPerGroup(300).enableStableRowIds(stableRowIds).build(), allocator);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  private List<List<Object>> original(int rows) {
    try (VectorSchemaRoot r = MixedBatches.batch(allocator, 0, rows)) {
      return MixedBatches.rows(r);
    }
  }

  private static List<List<Object>> sortedById(List<List<Object>> rows) {
    List<List<Object>> out = new ArrayList<>(rows);
    out.sort(Comparator.comparingLong(r -> Long.parseLong((String) r.get(0))));
    return out;
  }

  // The original rows with x doubled and s = 'u' where the id matches.
  private List<List<Object>> updated(int rows, LongPredicate where) {
    List<List<Object>> out = new ArrayList<>();
    for (List<Object> r : original(rows)) {
      List<Object> row = new ArrayList<>(r);
      if (where.test(Long.parseLong((String) r.get(0)))) {
        row.set(1, r.get(1) == null ? null : String.valueOf(Double.parseDouble((String) r.get(1)) * 2));
        row.set(2, "u");
      }
      out.add(row);
    }
    return out;
  }

  private static Map<String, String> doubleXSetS() {
    Map<String, String> set = new LinkedHashMap<>();
    set.put("x", "x * 2");
    set.put("s", "'u'");
    return set;
  }

  private static Transaction txn(Dataset ds) {
    return ds.table().transaction(ds.manifest()).orElseThrow();
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void updateRewritesMatchingRowsToNewFragments(LanceFileVersion v) throws Exception {
    Dataset ds = create(v, 2500);
    UpdateResult r = ds.update("id >= 200 AND id < 500", doubleXSetS());

    assertThat(r.rowsUpdated()).isEqualTo(300);
    Dataset after = r.dataset();
    assertThat(after.version()).isEqualTo(ds.version() + 1);
    assertThat(after.countRows()).isEqualTo(2500);
    MixedBatches.assertSameRows(sortedById(DatasetApiTest.scanAll(after, 512)),
        updated(2500, id -> id >= 200 && id < 500));
    // The old version still reads the old values.
    MixedBatches.assertSameRows(DatasetApiTest.scanAll(after.checkout(ds.version()), 512), original(2500));

    TransactionProtos.Transaction.Update op = txn(after).proto().getUpdate();
    assertThat(txn(after).kind()).isEqualTo(OperationKind.UPDATE);
    assertThat(op.getUpdateMode()).isEqualTo(TransactionProtos.Transaction.UpdateMode.REWRITE_ROWS);
    assertThat(op.getUpdatedFragmentsList()).extracting(f -> f.getId()).containsExactly(0L);
    assertThat(op.getRemovedFragmentIdsList()).isEmpty();
    assertThat(op.getNewFragmentsList()).hasSize(1);
    assertThat(op.getFieldsModifiedList()).isEmpty();
    assertThat(op.getFieldsForPreservingFragBitmapList()).containsExactly(
        ds.schema().field("x").orElseThrow().id(), ds.schema().field("s").orElseThrow().id());
    List<Fragment> frags = after.manifest().fragments();
    assertThat(frags).extracting(Fragment::id).containsExactly(0L, 1L, 2L, 3L);
    assertThat(frags.get(0).deletionFile().orElseThrow().numDeletedRows()).isEqualTo(300);
    assertThat(frags.get(3).physicalRows()).isEqualTo(300);
  }

  @Test
  void aFragmentWhoseEveryRowMovesIsRemoved() throws Exception {
    Dataset ds = create(LanceFileVersion.V2_1, 2500).delete("id < 10");
    UpdateResult r = ds.update("id < 1000", Map.of("s", "'u'"));
    assertThat(r.rowsUpdated()).isEqualTo(990);
    TransactionProtos.Transaction.Update op = txn(r.dataset()).proto().getUpdate();
    assertThat(op.getRemovedFragmentIdsList()).containsExactly(0L);
    assertThat(op.getUpdatedFragmentsList()).isEmpty();
    assertThat(r.dataset().manifest().fragments()).extracting(Fragment::id).containsExactly(1L, 2L, 3L);
    assertThat(r.dataset().countRows("s = 'u'")).isEqualTo(990);
    assertThat(r.dataset().countRows()).isEqualTo(2490);
  }

  @Test
  void updateWithoutFilterChangesEveryRowAndNoMatchCommitsNothing() throws Exception {
    Dataset ds = create(LanceFileVersion.V2_1, 1200);
    UpdateResult none = ds.update("id < 0", doubleXSetS());
    assertThat(none.rowsUpdated()).isZero();
    assertThat(none.dataset()).isSameAs(ds);
    assertThat(ds.checkoutLatest().version()).isEqualTo(ds.version());

    UpdateResult all = ds.update(doubleXSetS());
    assertThat(all.rowsUpdated()).isEqualTo(1200);
    MixedBatches.assertSameRows(sortedById(DatasetApiTest.scanAll(all.dataset(), 1000)), updated(1200, id -> true));
    assertThat(txn(all.dataset()).proto().getUpdate().getRemovedFragmentIdsList()).containsExactly(0L, 1L);
  }

  @Test
  void badUpdatesFailBeforeWritingAnything() throws Exception {
    Dataset ds = create(LanceFileVersion.V2_1, 100);
    long files = dataFiles();
    assertThatThrownBy(() -> ds.update("id < 5", Map.of("nope", "1")))
        .isInstanceOf(InvalidUpdateException.class)
        .hasMessage("Column 'nope' does not exist in the dataset: " + ds.location());
    assertThatThrownBy(() -> ds.update("id < 5", Map.of("st.a", "1")))
        .isInstanceOf(InvalidUpdateException.class)
        .hasMessage("Nested columns cannot be updated yet: 'st.a': " + ds.location());
    assertThatThrownBy(() -> ds.update("id < 5", Map.of()))
        .isInstanceOf(InvalidUpdateException.class)
        .hasMessage("No columns to update: " + ds.location());
    assertThatThrownBy(() -> ds.updateColumns(Map.of("id", "s")))
        .isInstanceOf(ExpressionTypeException.class);
    assertThat(dataFiles()).isEqualTo(files);
    assertThat(ds.checkoutLatest().version()).isEqualTo(ds.version());
  }

  @Test
  void anExpressionFailingMidStreamLeavesNoFiles() throws Exception {
    Dataset ds = create(LanceFileVersion.V2_1, 1500);
    long files = dataFiles();
    // Division by zero at id 1300, after rows of the first batches were written.
    assertThatThrownBy(() -> ds.update("id > 1100", Map.of("id", "id / (id - 1300)")))
        .isInstanceOf(dev.javelin.core.exceptions.ExpressionException.class);
    assertThat(dataFiles()).isEqualTo(files);
    assertThat(ds.checkoutLatest().version()).isEqualTo(ds.version());
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void updateColumnsRewritesColumnsInPlace(LanceFileVersion v) throws Exception {
    Dataset ds = create(v, 2500).delete("id % 7 = 1");
    int xId = ds.schema().field("x").orElseThrow().id();
    int sId = ds.schema().field("s").orElseThrow().id();
    UpdateResult r = ds.updateColumns(doubleXSetS());
    long live = ds.countRows();
    assertThat(r.rowsUpdated()).isEqualTo(live);
    List<List<Object>> want = new ArrayList<>(updated(2500, id -> true));
    want.removeIf(row -> Long.parseLong((String) row.get(0)) % 7 == 1);
    MixedBatches.assertSameRows(DatasetApiTest.scanAll(r.dataset(), 333), want);

    TransactionProtos.Transaction.Update op = txn(r.dataset()).proto().getUpdate();
    assertThat(op.getUpdateMode()).isEqualTo(TransactionProtos.Transaction.UpdateMode.REWRITE_COLUMNS);
    assertThat(op.getFieldsModifiedList()).containsExactly(xId, sId);
    assertThat(op.getNewFragmentsList()).isEmpty();
    for (Fragment f : r.dataset().manifest().fragments()) {
      assertThat(f.files()).hasSize(2);
      assertThat(f.files().get(0).fields()).contains(DataFile.TOMBSTONE).doesNotContain(xId, sId);
      assertThat(f.files().get(1).fields()).containsExactly(xId, sId);
      assertThat(f.deletionFile()).isPresent();
    }
    // Row addresses are unchanged: the same rows are deleted, the same offsets read.
    assertThat(r.dataset().countRows()).isEqualTo(live);
  }

  @Test
  void updateColumnsWithFilterKeepsOtherRowsAndSkipsUntouchedFragments() throws Exception {
    Dataset ds = create(LanceFileVersion.V2_1, 2500);
    UpdateResult r = ds.updateColumns("id >= 1100 AND id < 1200", doubleXSetS());
    assertThat(r.rowsUpdated()).isEqualTo(100);
    MixedBatches.assertSameRows(DatasetApiTest.scanAll(r.dataset(), 400), updated(2500, id -> id >= 1100 && id < 1200));
    TransactionProtos.Transaction.Update op = txn(r.dataset()).proto().getUpdate();
    assertThat(op.getUpdatedFragmentsList()).extracting(f -> f.getId()).containsExactly(1L);
    assertThat(r.dataset().manifest().fragments().get(0).files()).hasSize(1);
    // A second update of x tombstones its slot in the first rewrite's file (s stays there).
    UpdateResult again = r.dataset().updateColumns("id >= 1100", Map.of("x", "0.25"));
    int xId = ds.schema().field("x").orElseThrow().id();
    int sId = ds.schema().field("s").orElseThrow().id();
    assertThat(again.dataset().manifest().fragments().get(1).files()).extracting(DataFile::fields)
        .element(1).isEqualTo(List.of(DataFile.TOMBSTONE, sId));
    assertThat(again.dataset().manifest().fragments().get(1).files()).extracting(DataFile::fields)
        .element(2).isEqualTo(List.of(xId));
    assertThat(again.dataset().countRows("x = 0.25")).isEqualTo(1400);
  }

  @Test
  void movedRowsKeepTheirStableRowIdsAndCreationVersion() throws Exception {
    Dataset ds = create(LanceFileVersion.V2_1, 2500, true);
    List<VectorSchemaRoot> more = MixedBatches.batches(allocator, 2500, 500, 500);
    try {
      ds = ds.append(more, WriteParams.defaults()); // ids 2500..2999 created at version 2
    } finally {
      more.forEach(VectorSchemaRoot::close);
    }
    long nextRowId = ds.manifest().nextRowId();
    UpdateResult r = ds.update("id >= 900 AND id < 1100 OR id >= 2990", Map.of("s", "'u'"));
    assertThat(r.rowsUpdated()).isEqualTo(210);
    Dataset after = r.dataset();
    assertThat(after.manifest().nextRowId()).isEqualTo(nextRowId);
    Fragment moved = after.manifest().fragments().get(after.manifest().fragments().size() - 1);
    assertThat(moved.physicalRows()).isEqualTo(210);
    long[] want = java.util.stream.LongStream.concat(java.util.stream.LongStream.range(900, 1100),
        java.util.stream.LongStream.range(2990, 3000)).toArray();
    assertThat(moved.rowIdSequence(after.store()).orElseThrow().toArray()).containsExactly(want);
    var created = moved.createdAtVersions(after.store()).orElseThrow();
    var updated = moved.lastUpdatedAtVersions(after.store()).orElseThrow();
    for (int i = 0; i < 210; i++) {
      assertThat(created.get(i)).as("created %d", i).isEqualTo(i < 200 ? 1 : 2);
      assertThat(updated.get(i)).as("updated %d", i).isEqualTo(after.version());
    }
    // Rewriting columns in place would need per-row version refreshes: refused.
    assertThatThrownBy(() -> after.updateColumns(Map.of("s", "'c'")))
        .isInstanceOf(StableRowIdsUnsupportedException.class);
  }

  @Test
  void concurrentUpdatesOfTheSameRowsBothApply() throws Exception {
    Dataset ds = create(LanceFileVersion.V2_1, 2000);
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch go = new CountDownLatch(1);
    try {
      List<Future<UpdateResult>> ids = new ArrayList<>();
      List<Future<UpdateResult>> strings = new ArrayList<>();
      for (int t = 0; t < threads / 2; t++) {
        ids.add(pool.submit(() -> {
          go.await();
          return ds.update("id >= 100 AND id < 300", Map.of("id", "id + 10000"));
        }));
        strings.add(pool.submit(() -> {
          go.await();
          return ds.update("id >= 1500 AND id < 1510", Map.of("s", "'v'"));
        }));
      }
      go.countDown();
      long moved = 0;
      for (Future<UpdateResult> f : ids) {
        moved += f.get().rowsUpdated();
      }
      assertThat(moved).isEqualTo(200);
      for (Future<UpdateResult> f : strings) {
        assertThat(f.get().rowsUpdated()).isEqualTo(10);
      }
    } finally {
      pool.shutdown();
    }
    Dataset last = ds.checkoutLatest();
    // Each redo read the newest version: the ids moved once each time they were re-selected,
    // so only the first of the id updates matched (the others found no row).
    assertThat(last.countRows()).isEqualTo(2000);
    assertThat(last.countRows("id >= 10100 AND id < 10300")).isEqualTo(200);
    assertThat(last.countRows("s = 'v'")).isEqualTo(10);
    assertThat(last.countRows("id >= 100 AND id < 300")).isZero();
  }

  @Test
  void concurrentUpdatesOfDisjointRowsOfOneFragmentMergeDeletions() throws Exception {
    Dataset ds = create(LanceFileVersion.V2_1, 1000);
    Dataset a = ds.update("id < 10", Map.of("s", "'a'")).dataset();
    // Built on the stale version: its deletion file is merged with a's.
    Dataset b = ds.update("id >= 990", Map.of("s", "'b'")).dataset();
    assertThat(b.version()).isEqualTo(a.version() + 1);
    assertThat(b.countRows()).isEqualTo(1000);
    assertThat(b.countRows("s = 'a'")).isEqualTo(10);
    assertThat(b.countRows("s = 'b'")).isEqualTo(10);
    assertThat(b.manifest().fragments().get(0).deletionFile().orElseThrow().numDeletedRows()).isEqualTo(20);
  }

  @Test
  void aStaleUpdateOfDeletedRowsIsRedoneAndAStaleDeleteOfMovedRowsConflicts() throws Exception {
    Dataset ds = create(LanceFileVersion.V2_1, 1000);
    Dataset deleted = ds.delete("id < 100");
    UpdateResult r = ds.update("id < 200", Map.of("s", "'u'"));
    // Redone on the newest version: the deleted rows stay deleted.
    assertThat(r.rowsUpdated()).isEqualTo(100);
    assertThat(r.dataset().version()).isEqualTo(deleted.version() + 1);
    assertThat(r.dataset().countRows()).isEqualTo(900);
    assertThat(r.dataset().countRows("s = 'u'")).isEqualTo(100);

    assertThatThrownBy(() -> deleted.delete("id >= 150 AND id < 160"))
        .isInstanceOf(CommitConflictException.class);
  }

  @Test
  void anUpdateAfterAnOverwriteIsNotRedone() throws Exception {
    Dataset ds = create(LanceFileVersion.V2_1, 100);
    List<VectorSchemaRoot> batches = MixedBatches.batches(allocator, 0, 10, 10);
    try {
      ds.overwrite(batches, WriteParams.defaults());
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
    assertThatThrownBy(() -> ds.update("id < 5", Map.of("s", "'u'")))
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("conflicts with the Overwrite committed as version 2");
  }

  // ---- add columns

  @Test
  void addColumnsFromExpressions() throws Exception {
    Dataset ds = create(LanceFileVersion.V2_1, 1500).delete("id % 10 = 3");
    Map<String, String> cols = new LinkedHashMap<>();
    cols.put("double_id", "id * 2");
    cols.put("half", "x / 2");
    cols.put("big", "id > 700");
    Dataset after = ds.addColumns(cols);
    assertThat(after.schema().field("double_id").orElseThrow().toArrow().getType().toString()).isEqualTo("Int(64, true)");
    List<List<Object>> got = DatasetApiTest.scanAll(after, 500, "id", "double_id", "half", "big");
    List<List<Object>> want = new ArrayList<>();
    for (List<Object> r : original(1500)) {
      long id = Long.parseLong((String) r.get(0));
      if (id % 10 == 3) {
        continue;
      }
      Object x = r.get(1);
      want.add(List.of(r.get(0), String.valueOf(2 * id),
          x == null ? "null" : String.valueOf(Double.parseDouble((String) x) / 2), String.valueOf(id > 700)));
    }
    MixedBatches.assertSameRows(replaceNulls(got), want);
    assertThatThrownBy(() -> after.addColumns(Map.of("id", "1")))
        .isInstanceOf(SchemaEvolutionException.class)
        .hasMessage("Column 'id' already exists in the dataset: " + ds.location());
  }

  @Test
  void addColumnsWithValuesOnAFragmentWithDeletedRows() throws Exception {
    Dataset ds = create(LanceFileVersion.V2_1, 1500).delete("id < 3 OR (id > 995 AND id < 1010) OR id >= 1497");
    long live = ds.countRows();
    Dataset after;
    try (SchemaEvolutionTest.NewValues values = new SchemaEvolutionTest.NewValues(allocator, live, 400)) {
      after = ds.addColumns(values);
    }
    List<List<Object>> got = DatasetApiTest.scanAll(after, 300, "id", "y");
    assertThat(got).hasSize((int) live);
    for (int i = 0; i < got.size(); i++) {
      assertThat(got.get(i).get(1)).isEqualTo(String.valueOf(2L * i));
    }
    for (Fragment f : after.manifest().fragments()) {
      assertThat(f.files()).hasSize(2);
    }
    try (SchemaEvolutionTest.NewValues values = new SchemaEvolutionTest.NewValues(allocator, live + 1, 400)) {
      assertThatThrownBy(() -> ds.addColumns(values)).isInstanceOf(ColumnLengthMismatchException.class);
    }
  }

  private static List<List<Object>> replaceNulls(List<List<Object>> rows) {
    List<List<Object>> out = new ArrayList<>();
    for (List<Object> r : rows) {
      List<Object> row = new ArrayList<>();
      r.forEach(o -> row.add(o == null ? "null" : o));
      out.add(row);
    }
    return out;
  }

  private long dataFiles() throws Exception {
    try (Stream<Path> s = Files.list(dir.resolve("ds").resolve("data"))) {
      return s.count();
    }
  }
}
