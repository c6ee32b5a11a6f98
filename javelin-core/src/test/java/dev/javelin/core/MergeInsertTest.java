package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.exceptions.ExpressionException;
import dev.javelin.core.exceptions.MergeInsertException;
import dev.javelin.index.IndexType;
import dev.javelin.table.OperationKind;
import dev.javelin.table.Transaction;
import dev.javelin.table.exceptions.CommitConflictException;
import dev.javelin.table.exceptions.SchemaMismatchException;
import dev.javelin.testing.ArrowData;
import dev.javelin.testing.Readers;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.LongPredicate;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MergeInsertTest {
  private static final Schema SCHEMA = new Schema(List.of(ArrowData.field("id", new ArrowType.Int(64, true)),
      ArrowData.field("v", new ArrowType.Int(64, true)), ArrowData.field("s", ArrowType.Utf8.INSTANCE)));

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  /** Rows id = 0..n-1, v = id, s = "t<id>", in fragments of 300 rows. */
  private Dataset create(int n, boolean stableRowIds) {
    List<Object[]> rows = new ArrayList<>();
    for (long i = 0; i < n; i++) {
      rows.add(new Object[] {i, i, "t" + i});
    }
    try (VectorSchemaRoot root = root(SCHEMA, rows)) {
      return Dataset.create(dir.resolve("ds"), List.of(root), WriteParams.builder().maxRowsPerFile(300)
          .enableStableRowIds(stableRowIds).build(), allocator);
    }
  }

  /** Source rows id, v = 1000 + id, s = "s<id>" for each id. */
  private VectorSchemaRoot source(long... ids) {
    List<Object[]> rows = new ArrayList<>();
    for (long id : ids) {
      rows.add(new Object[] {id, 1000 + id, "s" + id});
    }
    return root(SCHEMA, rows);
  }

  /** A batch of rows of Longs and Strings (or nulls). */
  private VectorSchemaRoot root(Schema schema, List<Object[]> rows) {
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
    root.allocateNew();
    for (int r = 0; r < rows.size(); r++) {
      for (int c = 0; c < schema.getFields().size(); c++) {
        Object x = rows.get(r)[c];
        if (root.getVector(c) instanceof BigIntVector b) {
          if (x == null) {
            b.setNull(r);
          } else {
            b.setSafe(r, (Long) x);
          }
        } else if (x == null) {
          ((VarCharVector) root.getVector(c)).setNull(r);
        } else {
          ((VarCharVector) root.getVector(c)).setSafe(r, ((String) x).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
      }
    }
    root.setRowCount(rows.size());
    return root;
  }

  private static long[] range(long from, long to) {
    return LongStream.range(from, to).toArray();
  }

  /** Runs a merge of a source batch configured by {@code how}. */
  private MergeInsertResult merge(Dataset ds, VectorSchemaRoot src,
      Function<MergeInsertBuilder, MergeInsertBuilder> how) {
    try (src; ArrowReader r = Readers.readerOf(allocator, src)) {
      return how.apply(ds.mergeInsert(r).on("id")).commit();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** id -> "v/s" of every live row (fails on a duplicate id). */
  private Map<Long, String> rows(Dataset ds) throws IOException {
    Map<Long, String> out = new TreeMap<>();
    try (ArrowReader r = ds.newScan().build()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot b = r.getVectorSchemaRoot();
        BigIntVector id = (BigIntVector) b.getVector("id");
        BigIntVector v = (BigIntVector) b.getVector("v");
        VarCharVector s = (VarCharVector) b.getVector("s");
        for (int i = 0; i < b.getRowCount(); i++) {
          Long key = id.isNull(i) ? null : id.get(i);
          String value = v.get(i) + "/" + s.getObject(i);
          if (key == null) {
            out.put(Long.MIN_VALUE + out.size(), value);
            continue;
          }
          assertThat(out.put(key, value)).as("duplicate id %d", key).isNull();
        }
      }
    }
    return out;
  }

  /** The rows expected: originals 0..n-1, with ids where {@code updated} holds replaced by the source's. */
  private static Map<Long, String> expected(int n, LongPredicate updated, long... inserted) {
    Map<Long, String> out = new TreeMap<>();
    for (long i = 0; i < n; i++) {
      out.put(i, updated.test(i) ? (1000 + i) + "/s" + i : i + "/t" + i);
    }
    for (long i : inserted) {
      out.put(i, (1000 + i) + "/s" + i);
    }
    return out;
  }

  @Test
  void upsertUpdatesMatchedRowsAndInsertsTheRest() throws IOException {
    Dataset ds = create(1000, false);
    MergeInsertResult r = merge(ds, source(range(900, 1100)), b -> b.whenMatchedUpdateAll().whenNotMatchedInsertAll());
    assertThat(r.rowsUpdated()).isEqualTo(100);
    assertThat(r.rowsInserted()).isEqualTo(100);
    assertThat(r.rowsDeleted()).isZero();
    assertThat(r.attempts()).isEqualTo(1);
    assertThat(r.dataset().version()).isEqualTo(ds.version() + 1);
    assertThat(rows(r.dataset())).isEqualTo(expected(1000, i -> i >= 900, range(1000, 1100)));
    Transaction t = r.dataset().table().transaction(r.dataset().manifest()).orElseThrow();
    assertThat(t.kind()).isEqualTo(OperationKind.UPDATE);
    assertThat(rows(ds)).isEqualTo(expected(1000, i -> false)); // the old version is unchanged
  }

  @Test
  void defaultsInsertOnlyKeysThatAreNotThere() throws IOException {
    Dataset ds = create(100, false);
    MergeInsertResult r = merge(ds, source(range(90, 110)), b -> b);
    assertThat(r.rowsUpdated()).isZero();
    assertThat(r.rowsInserted()).isEqualTo(10);
    assertThat(rows(r.dataset())).isEqualTo(expected(100, i -> false, range(100, 110)));
  }

  @Test
  void updateIfComparesTargetAndSourceColumns() throws IOException {
    Dataset ds = create(100, false);
    // Only even ids pass: source.v (1000 + id) > target.v + 1000 never, target.v % 2 = 0 for even ids.
    MergeInsertResult r = merge(ds, source(range(0, 20)),
        b -> b.whenMatchedUpdateIf("target.v % 2 = 0 AND source.s <> target.s AND source.v > target.v")
            .whenNotMatchedDoNothing());
    assertThat(r.rowsUpdated()).isEqualTo(10);
    assertThat(r.rowsInserted()).isZero();
    assertThat(rows(r.dataset())).isEqualTo(expected(100, i -> i < 20 && i % 2 == 0));
  }

  @Test
  void aConditionNamingAnUnknownColumnFailsBeforeAnythingIsRead() {
    Dataset ds = create(10, false);
    assertThatThrownBy(() -> merge(ds, source(1), b -> b.whenMatchedUpdateIf("target.nope > 1")))
        .isInstanceOf(ExpressionException.class).hasMessageContaining("target.nope");
    assertThatThrownBy(() -> merge(ds, source(1), b -> b.whenNotMatchedBySourceDeleteIf("nope > 1")))
        .isInstanceOf(ExpressionException.class).hasMessageContaining("nope");
  }

  @Test
  void matchedRowsCanBeDeleted() throws IOException {
    Dataset ds = create(100, false);
    MergeInsertResult r = merge(ds, source(range(50, 60)), b -> b.whenMatchedDelete().whenNotMatchedDoNothing());
    assertThat(r.rowsDeleted()).isEqualTo(10);
    Map<Long, String> want = expected(100, i -> false);
    LongStream.range(50, 60).forEach(want::remove);
    assertThat(rows(r.dataset())).isEqualTo(want);
  }

  @Test
  void whenMatchedFailRefusesAnyMatchAndCommitsNothing() throws IOException {
    Dataset ds = create(100, false);
    List<Path> before = files();
    assertThatThrownBy(() -> merge(ds, source(200, 7), b -> b.whenMatchedFail()))
        .isInstanceOf(MergeInsertException.class)
        .hasMessage("Source row with key id=7 matched a row of the dataset, and the merge insert was set to fail "
            + "when a row matches: " + ds.location());
    assertThat(ds.checkoutLatest().version()).isEqualTo(ds.version());
    assertThat(files()).isEqualTo(before);
    // Without a match it inserts.
    assertThat(merge(ds, source(200), b -> b.whenMatchedFail()).rowsInserted()).isEqualTo(1);
  }

  @Test
  void notMatchedBySourceDeleteReplacesTheDataset() throws IOException {
    Dataset ds = create(1000, false);
    MergeInsertResult r = merge(ds, source(range(500, 1200)),
        b -> b.whenMatchedUpdateAll().whenNotMatchedInsertAll().whenNotMatchedBySourceDelete());
    assertThat(r.rowsDeleted()).isEqualTo(500);
    assertThat(r.rowsUpdated()).isEqualTo(500);
    assertThat(r.rowsInserted()).isEqualTo(200);
    Map<Long, String> want = expected(1000, i -> true, range(1000, 1200));
    LongStream.range(0, 500).forEach(want::remove);
    assertThat(rows(r.dataset())).isEqualTo(want);
    // Fragments left without live rows are dropped.
    assertThat(r.dataset().manifest().fragments()).allMatch(f -> f.id() >= 1);
  }

  @Test
  void notMatchedBySourceDeleteIfReplacesARange() throws IOException {
    Dataset ds = create(100, false);
    MergeInsertResult r = merge(ds, source(range(10, 15)),
        b -> b.whenMatchedUpdateAll().whenNotMatchedBySourceDeleteIf("id >= 10 AND id < 20"));
    assertThat(r.rowsDeleted()).isEqualTo(5);
    Map<Long, String> want = expected(100, i -> i >= 10 && i < 15);
    LongStream.range(15, 20).forEach(want::remove);
    assertThat(rows(r.dataset())).isEqualTo(want);
  }

  @Test
  void duplicateSourceKeysFailNamingTheKey() throws IOException {
    Dataset ds = create(10, false);
    List<Path> before = files();
    assertThatThrownBy(() -> merge(ds, source(20, 3, 21, 3), b -> b.whenMatchedUpdateAll()))
        .isInstanceOf(MergeInsertException.class)
        .hasMessage("The source has two rows with key id=3 (rows 1 and 3); each key may appear once in a merge "
            + "insert's source: " + ds.location());
    assertThat(files()).isEqualTo(before);
  }

  @Test
  void nullKeysMatchNothing() throws IOException {
    Dataset ds = create(10, false);
    VectorSchemaRoot src = root(SCHEMA, List.<Object[]>of(new Object[] {null, 5L, "n1"},
        new Object[] {null, 6L, "n2"}, new Object[] {3L, 7L, "x"}));
    MergeInsertResult r = merge(ds, src, b -> b.whenMatchedUpdateAll());
    assertThat(r.rowsInserted()).isEqualTo(2);
    assertThat(r.rowsUpdated()).isEqualTo(1);
    assertThat(rows(r.dataset())).hasSize(12).containsEntry(3L, "7/x").containsValues("5/n1", "6/n2");
  }

  @Test
  void badKeysAndSourcesFailClearly() throws IOException {
    Dataset ds = create(10, false);
    try (VectorSchemaRoot src = source(1); ArrowReader r = Readers.readerOf(allocator, src)) {
      assertThatThrownBy(() -> ds.mergeInsert(r).on("nope").commit()).isInstanceOf(MergeInsertException.class)
          .hasMessage("Key column 'nope' does not exist in the dataset: " + ds.location());
      assertThatThrownBy(() -> ds.mergeInsert(r).commit()).isInstanceOf(IllegalStateException.class)
          .hasMessage("Say which columns are the key: on(columns)");
    }
    Schema other = new Schema(List.of(ArrowData.field("id", new ArrowType.Int(64, true))));
    try (VectorSchemaRoot src = root(other, List.<Object[]>of(new Object[] {1L}));
        ArrowReader r = Readers.readerOf(allocator, src)) {
      assertThatThrownBy(() -> ds.mergeInsert(r).on("id").commit()).isInstanceOf(SchemaMismatchException.class)
          .hasMessageContaining("'v'");
    }
  }

  @Test
  void compositeAndStringKeys() throws IOException {
    Dataset ds = create(100, false);
    VectorSchemaRoot src = root(SCHEMA, List.<Object[]>of(new Object[] {5L, 1L, "t5"},
        new Object[] {600L, 2L, "other"}));
    try (src; ArrowReader r = Readers.readerOf(allocator, src)) {
      MergeInsertResult m = ds.mergeInsert(r).on("id", "s").whenMatchedUpdateAll().commit();
      assertThat(m.rowsUpdated()).isEqualTo(1); // (5, 't5') matches; (600, 'other') does not
      assertThat(m.rowsInserted()).isEqualTo(1);
      assertThat(rows(m.dataset())).containsEntry(5L, "1/t5").containsEntry(600L, "2/other").hasSize(101);
    }
    VectorSchemaRoot byName = root(SCHEMA, List.<Object[]>of(new Object[] {777L, 9L, "t7"}));
    try (byName; ArrowReader r = Readers.readerOf(allocator, byName)) {
      MergeInsertResult m = ds.mergeInsert(r).on("s").whenMatchedUpdateAll().commit(); // read before the first
      assertThat(m.attempts()).isEqualTo(2);
      assertThat(m.rowsUpdated()).isEqualTo(1);
      assertThat(rows(m.dataset())).containsEntry(777L, "9/t7").doesNotContainKey(7L).hasSize(101);
    }
  }

  @Test
  void stringKeysMatchByTheirBytesAndRepeatsFail() throws IOException {
    Dataset ds = create(2000, false);
    // Keys "t1500".."t2499": half there, half new; a NULL key is inserted and matches nothing.
    List<Object[]> rows = new ArrayList<>();
    for (long i = 1500; i < 2500; i++) {
      rows.add(new Object[] {10_000 + i, 1000 + i, "t" + i});
    }
    rows.add(new Object[] {99_999L, 1L, null});
    try (VectorSchemaRoot src = root(SCHEMA, rows); ArrowReader rd = Readers.readerOf(allocator, src)) {
      MergeInsertResult m = ds.mergeInsert(rd).on("s").whenMatchedUpdateAll().commit();
      assertThat(m.rowsUpdated()).isEqualTo(500);
      assertThat(m.rowsInserted()).isEqualTo(501);
      Map<Long, String> got = rows(m.dataset());
      assertThat(got).hasSize(2000 + 501).containsEntry(11_500L, "2500/t1500").containsEntry(11_999L, "2999/t1999")
          .containsEntry(12_499L, "3499/t2499").containsEntry(99_999L, "1/null").containsEntry(1499L, "1499/t1499")
          .doesNotContainKey(1500L);
    }
    VectorSchemaRoot twice = root(SCHEMA, List.<Object[]>of(new Object[] {1L, 1L, "x"},
        new Object[] {2L, 2L, "y"}, new Object[] {3L, 3L, "x"}));
    try (twice; ArrowReader rd = Readers.readerOf(allocator, twice)) {
      assertThatThrownBy(() -> ds.mergeInsert(rd).on("s").commit()).isInstanceOf(MergeInsertException.class)
          .hasMessage("The source has two rows with key s='x' (rows 0 and 2); each key may appear once in a merge "
              + "insert's source: " + ds.location());
    }
  }

  @Test
  void withStableRowIdsUpdatedRowsKeepTheirIds() throws IOException {
    Dataset ds = create(1000, true);
    Map<Long, Long> idsBefore = rowIds(ds);
    MergeInsertResult r = merge(ds, source(range(250, 350)), b -> b.whenMatchedUpdateAll());
    Map<Long, Long> idsAfter = rowIds(r.dataset());
    for (long i = 0; i < 1000; i++) {
      assertThat(idsAfter.get(i)).as("row id of %d", i).isEqualTo(idsBefore.get(i));
    }
    try (ArrowReader rd = r.dataset().newScan().columns("id").withRowCreatedAtVersion()
        .withRowLastUpdatedAtVersion().build()) {
      while (rd.loadNextBatch()) {
        VectorSchemaRoot b = rd.getVectorSchemaRoot();
        BigIntVector id = (BigIntVector) b.getVector("id");
        UInt8Vector created = (UInt8Vector) b.getVector("_row_created_at_version");
        UInt8Vector updated = (UInt8Vector) b.getVector("_row_last_updated_at_version");
        for (int i = 0; i < b.getRowCount(); i++) {
          assertThat(created.get(i)).isEqualTo(1);
          assertThat(updated.get(i)).isEqualTo(id.get(i) >= 250 && id.get(i) < 350 ? 2 : 1);
        }
      }
    }
    try (VectorSchemaRoot taken = r.dataset().takeRows(new long[] {idsBefore.get(300L)}, List.of("v"))) {
      assertThat(taken.getVector(0).getObject(0)).isEqualTo(1300L);
    }
    // Inserted rows get new ids after every id handed out before.
    MergeInsertResult ins = merge(r.dataset(), source(5000, 5001), b -> b);
    Map<Long, Long> withNew = rowIds(ins.dataset());
    assertThat(List.of(withNew.get(5000L), withNew.get(5001L))).containsExactlyInAnyOrder(1000L, 1001L);
  }

  private Map<Long, Long> rowIds(Dataset ds) throws IOException {
    Map<Long, Long> out = new TreeMap<>();
    try (ArrowReader r = ds.newScan().columns("id").withRowId().build()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot b = r.getVectorSchemaRoot();
        for (int i = 0; i < b.getRowCount(); i++) {
          out.put(((BigIntVector) b.getVector("id")).get(i), ((UInt8Vector) b.getVector("_rowid")).get(i));
        }
      }
    }
    return out;
  }

  @Test
  void aBTreeOnTheKeyFindsTheMatchesAndStaysCorrect() throws IOException {
    Dataset ds = create(1000, false).createIndex("id", IndexType.BTREE);
    try (VectorSchemaRoot src = source(1); ArrowReader r = Readers.readerOf(allocator, src)) {
      MergeInsertPlan plan = ds.mergeInsert(r).on("id").explain();
      assertThat(plan.usesIndex()).isTrue();
      assertThat(plan.index()).isEqualTo("id_idx");
      assertThat(plan.indexedFragments()).containsExactly(0L, 1L, 2L, 3L);
      assertThat(plan.describe()).contains("key lookup: btree index id_idx on id for fragments [0, 1, 2, 3]");
      assertThat(ds.mergeInsert(r).on("id").useIndex(false).explain().describe())
          .contains("key lookup: full scan of the key columns (indices turned off)");
      assertThat(ds.mergeInsert(r).on("id").whenNotMatchedBySourceDelete().explain().usesIndex()).isFalse();
    }
    MergeInsertResult r = merge(ds, source(range(290, 310)), b -> b.whenMatchedUpdateAll());
    assertThat(r.plan().usesIndex()).isTrue();
    assertThat(r.rowsUpdated()).isEqualTo(20);
    assertThat(rows(r.dataset())).isEqualTo(expected(1000, i -> i >= 290 && i < 310));
    // The index still answers right: old copies are gone, new ones found by the scan of new fragments.
    Dataset after = r.dataset();
    assertThat(after.explain("id = 300").usesIndex()).isTrue();
    try (ArrowReader rd = after.newScan().filter("id = 300 OR id = 5").columns("v").build()) {
      List<Long> vs = new ArrayList<>();
      while (rd.loadNextBatch()) {
        BigIntVector v = (BigIntVector) rd.getVectorSchemaRoot().getVector("v");
        for (int i = 0; i < rd.getVectorSchemaRoot().getRowCount(); i++) {
          vs.add(v.get(i));
        }
      }
      assertThat(vs).containsExactlyInAnyOrder(1300L, 5L);
    }
    // A second merge over the partly covered dataset: index for old fragments, scan for the new.
    MergeInsertResult again = merge(after, source(300, 5, 2000), b -> b.whenMatchedUpdateAll());
    assertThat(again.plan().scannedFragments()).isNotEmpty();
    assertThat(again.rowsUpdated()).isEqualTo(2);
    assertThat(again.rowsInserted()).isEqualTo(1);
    assertThat(rows(again.dataset())).containsEntry(300L, "1300/s300").containsEntry(5L, "1005/s5").hasSize(1001);
  }

  @Test
  void aBitmapOnTheKeyFindsTheMatchesToo() throws IOException {
    Dataset ds = create(1000, false).createIndex("id").bitmap().name("id_bitmap").commit().dataset();
    try (VectorSchemaRoot src = source(1); ArrowReader r = Readers.readerOf(allocator, src)) {
      MergeInsertPlan plan = ds.mergeInsert(r).on("id").explain();
      assertThat(plan.index()).isEqualTo("id_bitmap");
      assertThat(plan.indexKind()).isEqualTo("bitmap");
      assertThat(plan.describe()).contains("key lookup: bitmap index id_bitmap on id for fragments [0, 1, 2, 3]");
    }
    MergeInsertResult r = merge(ds, source(range(290, 310)), b -> b.whenMatchedUpdateAll());
    assertThat(r.plan().usesIndex()).isTrue();
    assertThat(r.rowsUpdated()).isEqualTo(20);
    assertThat(rows(r.dataset())).isEqualTo(expected(1000, i -> i >= 290 && i < 310));
  }

  @Test
  void aBTreeLookupOfScatteredKeysSkipsDeletedRowsAndKeysThatAreNotThere() throws IOException {
    Dataset ds = create(3000, false).createIndex("id", IndexType.BTREE);
    ds = ds.delete("id = 7 OR id = 2107");
    // Scattered keys (looked up as an IN list), deleted ones among them: those are inserted.
    long[] keys = LongStream.range(0, 40).map(i -> i * 75 + 7).toArray(); // 7, 82, ..., 2932
    MergeInsertResult r = merge(ds, source(keys), b -> b.whenMatchedUpdateAll());
    assertThat(r.plan().usesIndex()).isTrue();
    assertThat(r.rowsUpdated()).isEqualTo(38);
    assertThat(r.rowsInserted()).isEqualTo(2);
    java.util.Set<Long> set = LongStream.of(keys).boxed().collect(Collectors.toSet());
    assertThat(rows(r.dataset())).isEqualTo(expected(3000, set::contains));
    // Dense runs of keys (looked up as ranges), with keys past the end.
    MergeInsertResult runs = merge(r.dataset(), source(LongStream.concat(LongStream.range(100, 160),
        LongStream.range(2990, 3010)).toArray()), b -> b.whenMatchedUpdateAll());
    assertThat(runs.rowsUpdated()).isEqualTo(70);
    assertThat(runs.rowsInserted()).isEqualTo(10);
    assertThat(rows(runs.dataset())).isEqualTo(expected(3000,
        i -> set.contains(i) || (i >= 100 && i < 160) || i >= 2990, range(3000, 3010)));
  }

  @Test
  void aBTreeOnAStringKeyFindsTheMatches() throws IOException {
    Dataset ds = create(1000, false).createIndex("s", IndexType.BTREE);
    VectorSchemaRoot src = root(SCHEMA, List.<Object[]>of(new Object[] {5000L, 1L, "t5"},
        new Object[] {5001L, 2L, "t999"}, new Object[] {5002L, 3L, "new"}));
    try (src; ArrowReader r = Readers.readerOf(allocator, src)) {
      MergeInsertResult m = ds.mergeInsert(r).on("s").whenMatchedUpdateAll().commit();
      assertThat(m.plan().usesIndex()).isTrue();
      assertThat(m.rowsUpdated()).isEqualTo(2);
      assertThat(m.rowsInserted()).isEqualTo(1);
      assertThat(rows(m.dataset())).containsEntry(5000L, "1/t5").containsEntry(5001L, "2/t999")
          .containsEntry(5002L, "3/new").doesNotContainKeys(5L, 999L).hasSize(1001);
    }
  }

  @Test
  void withStableRowIdsTheMergeScansInsteadOfUsingTheIndex() throws IOException {
    Dataset ds = create(1000, true).createIndex("id", IndexType.BTREE);
    Map<Long, Long> idsBefore = rowIds(ds);
    try (VectorSchemaRoot src = source(1); ArrowReader r = Readers.readerOf(allocator, src)) {
      assertThat(ds.mergeInsert(r).on("id").explain().describe())
          .contains("key lookup: full scan of the key columns (with stable row ids indices hold row ids, not "
              + "addresses)");
    }
    MergeInsertResult r = merge(ds, source(range(290, 310)), b -> b.whenMatchedUpdateAll());
    assertThat(r.rowsUpdated()).isEqualTo(20);
    assertThat(rows(r.dataset())).isEqualTo(expected(1000, i -> i >= 290 && i < 310));
    assertThat(rowIds(r.dataset())).isEqualTo(idsBefore);
  }

  // ---- concurrency: a merge that read an older version than the newest

  @Test
  void aConcurrentAppendOfASourceKeyMakesTheMergeRunAgain() throws IOException {
    Dataset stale = create(100, false);
    try (VectorSchemaRoot more = source(150)) {
      stale.append(List.of(more), WriteParams.defaults()); // now id 150 exists
    }
    MergeInsertResult r = merge(stale, source(150, 151), b -> b.whenMatchedUpdateAll());
    assertThat(r.attempts()).isEqualTo(2);
    assertThat(r.rowsUpdated()).isEqualTo(1);
    assertThat(r.rowsInserted()).isEqualTo(1);
    assertThat(r.dataset().version()).isEqualTo(3);
    assertThat(rows(r.dataset())).hasSize(102).containsEntry(150L, "1150/s150");
  }

  @Test
  void aConcurrentDeleteOfAMatchedRowMakesTheMergeRunAgain() throws IOException {
    Dataset stale = create(100, false);
    stale.delete("id = 5");
    MergeInsertResult r = merge(stale, source(5, 500), b -> b); // insert if not exists
    assertThat(r.attempts()).isEqualTo(2);
    assertThat(r.rowsInserted()).isEqualTo(2); // 5 was deleted: now it is inserted, not "matched"
    assertThat(rows(r.dataset())).hasSize(101).containsEntry(5L, "1005/s5");
  }

  @Test
  void aConcurrentDeleteOfOtherRowsOfTheSameFragmentsIsMergedIn() throws IOException {
    Dataset stale = create(100, false);
    stale.delete("id = 6");
    MergeInsertResult r = merge(stale, source(5), b -> b.whenMatchedUpdateAll());
    assertThat(r.attempts()).isEqualTo(1);
    Map<Long, String> want = expected(100, i -> i == 5);
    want.remove(6L);
    assertThat(rows(r.dataset())).isEqualTo(want);
  }

  @Test
  void aConcurrentCompactionOfMatchedFragmentsMakesTheMergeRunAgain() throws IOException {
    Dataset stale = create(1000, false);
    stale.delete("id < 250"); // fragment 0 now has 50 live rows
    Dataset compacted = stale.checkoutLatest().compact(
        dev.javelin.core.compaction.CompactionOptions.builder().targetRowsPerFragment(2000).build());
    assertThat(compacted.manifest().fragments()).hasSize(1);
    MergeInsertResult r = merge(stale, source(range(600, 620)), b -> b.whenMatchedUpdateAll());
    assertThat(r.attempts()).isGreaterThan(1);
    Map<Long, String> want = expected(1000, i -> i >= 600 && i < 620);
    LongStream.range(0, 250).forEach(want::remove);
    assertThat(rows(r.dataset())).isEqualTo(want);
  }

  @Test
  void withoutRetriesALostRaceFailsAndLeavesNoFiles() throws IOException {
    Dataset stale = create(100, false);
    try (VectorSchemaRoot more = source(150)) {
      stale.append(List.of(more), WriteParams.defaults());
    }
    List<Path> before = files();
    assertThatThrownBy(() -> merge(stale, source(150), b -> b.whenMatchedUpdateAll().conflictRetries(0)))
        .isInstanceOf(CommitConflictException.class);
    assertThat(files()).isEqualTo(before);
    assertThatThrownBy(() -> merge(stale, source(150), b -> b.retryTimeout(java.time.Duration.ZERO)))
        .isInstanceOf(CommitConflictException.class);
  }

  @Test
  void twoMergesOfTheSameNewKeyInsertItOnce() throws Exception {
    Dataset ds = create(100, false);
    MergeInsertResult first = merge(ds, source(500), b -> b.whenMatchedUpdateAll());
    MergeInsertResult second = merge(ds, source(500), b -> b.whenMatchedUpdateAll()); // read before the first
    assertThat(first.rowsInserted()).isEqualTo(1);
    assertThat(second.attempts()).isEqualTo(2);
    assertThat(second.rowsInserted()).isZero();
    assertThat(second.rowsUpdated()).isEqualTo(1);
    assertThat(rows(second.dataset())).hasSize(101);
  }

  // ---- the source is spilled, not held

  private static List<Path> listing(Path directory) {
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(directory)) {
      return s.sorted().collect(Collectors.toList());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aSourceLargerThanTheMemoryAllowedIsSpilledAndMerged() throws IOException {
    create(1000, false);
    Path spill = dir.resolve("spill");
    List<List<Path>> spilledAtEnd = new ArrayList<>();
    long limit = 8 << 20;
    // 49,152 rows of about 1 KB: six times the off-heap memory the merge may use.
    long count = 24 * 2048;
    long bytes;
    MergeInsertResult r;
    try (BufferAllocator limited = allocator.newChildAllocator("merge", 0, limit)) {
      Dataset ds = Dataset.open(dir.resolve("ds"), limited);
      try (MergeInsertRows src = MergeInsertRows.source(allocator, 500, count, 2048, 1000,
          () -> spilledAtEnd.add(listing(spill)))) {
        r = ds.mergeInsert(src).on("id").whenMatchedUpdateAll().spillDirectory(spill).commit();
        bytes = src.bytes;
      }
      assertThat(limited.getAllocatedMemory()).isZero();
    }
    assertThat(bytes).isGreaterThan(5 * limit);
    assertThat(spilledAtEnd).hasSize(1);
    assertThat(spilledAtEnd.get(0)).hasSize(1); // the rows were on disk while the source was read
    assertThat(listing(spill)).isEmpty();
    assertThat(r.rowsUpdated()).isEqualTo(500);
    assertThat(r.rowsInserted()).isEqualTo(count - 500);
    long seen = 0;
    try (ArrowReader rd = Dataset.open(dir.resolve("ds"), allocator).newScan().build()) {
      while (rd.loadNextBatch()) {
        VectorSchemaRoot b = rd.getVectorSchemaRoot();
        BigIntVector id = (BigIntVector) b.getVector("id");
        BigIntVector v = (BigIntVector) b.getVector("v");
        VarCharVector str = (VarCharVector) b.getVector("s");
        for (int i = 0; i < b.getRowCount(); i++) {
          long key = id.get(i);
          if (key < 500) {
            assertThat(v.get(i)).isEqualTo(key);
            assertThat(str.getObject(i).toString()).isEqualTo("t" + key);
          } else {
            assertThat(v.get(i)).as("v of %d", key).isEqualTo(1000 + key);
            assertThat(str.getObject(i).toString()).as("s of %d", key).isEqualTo(MergeInsertRows.s(key, 1000));
          }
          seen++;
        }
      }
    }
    assertThat(seen).isEqualTo(500 + count);
  }

  @Test
  void updateIfReadsTheSpilledSourceAcrossManyBatches() throws IOException {
    Dataset ds = create(3000, false);
    Path spill = dir.resolve("spill");
    // Source batches of 7 rows: each target batch's matches come from many of them, in key order
    // that differs from the target's (ids descending in the source).
    List<VectorSchemaRoot> batches = new ArrayList<>();
    for (long hi = 3000; hi > 0; hi -= 7) {
      long top = hi - 1;
      batches.add(source(LongStream.range(0, Math.min(7, hi)).map(i -> top - i).toArray()));
    }
    MergeInsertResult r;
    try (ArrowReader rd = Readers.readerOf(allocator, SCHEMA, batches)) {
      r = ds.mergeInsert(rd).on("id").whenMatchedUpdateIf("source.v > target.v AND target.v % 3 = 0")
          .spillDirectory(spill).commit();
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
    assertThat(r.rowsUpdated()).isEqualTo(1000);
    assertThat(rows(r.dataset())).isEqualTo(expected(3000, i -> i % 3 == 0));
    assertThat(listing(spill)).isEmpty();
  }

  @Test
  void theSpillFileIsRemovedWhenTheMergeFails() throws IOException {
    Dataset ds = create(100, false);
    Path spill = dir.resolve("spill");
    // A repeated key.
    try (VectorSchemaRoot src = source(20, 3, 21, 3); ArrowReader r = Readers.readerOf(allocator, src)) {
      assertThatThrownBy(() -> ds.mergeInsert(r).on("id").spillDirectory(spill).commit())
          .isInstanceOf(MergeInsertException.class)
          .hasMessage("The source has two rows with key id=3 (rows 1 and 3); each key may appear once in a merge "
              + "insert's source: " + ds.location());
    }
    assertThat(listing(spill)).isEmpty();
    // A repeated key in a later batch of a streamed source, after rows were spilled.
    List<VectorSchemaRoot> parts = List.of(source(range(200, 300)), source(250));
    try (ArrowReader r = Readers.readerOf(allocator, SCHEMA, parts)) {
      assertThatThrownBy(() -> ds.mergeInsert(r).on("id").spillDirectory(spill).commit())
          .isInstanceOf(MergeInsertException.class)
          .hasMessage("The source has two rows with key id=250 (rows 50 and 100); each key may appear once in a "
              + "merge insert's source: " + ds.location());
    } finally {
      parts.forEach(VectorSchemaRoot::close);
    }
    assertThat(listing(spill)).isEmpty();
    // Columns that are not the dataset's.
    Schema other = new Schema(List.of(ArrowData.field("id", new ArrowType.Int(64, true))));
    try (VectorSchemaRoot src = root(other, List.<Object[]>of(new Object[] {1L}));
        ArrowReader r = Readers.readerOf(allocator, src)) {
      assertThatThrownBy(() -> ds.mergeInsert(r).on("id").spillDirectory(spill).commit())
          .isInstanceOf(SchemaMismatchException.class);
    }
    assertThat(listing(spill)).isEmpty();
    // A match under whenMatchedFail, found after the whole source was spilled.
    try (MergeInsertRows src = MergeInsertRows.source(allocator, 50, 3000, 500, 10, () -> { })) {
      assertThatThrownBy(() -> ds.mergeInsert(src).on("id").whenMatchedFail().spillDirectory(spill).commit())
          .isInstanceOf(MergeInsertException.class);
    }
    assertThat(listing(spill)).isEmpty();
    // Conflicts beyond the attempts allowed.
    try (VectorSchemaRoot more = source(150)) {
      ds.append(List.of(more), WriteParams.defaults());
    }
    try (MergeInsertRows src = MergeInsertRows.source(allocator, 150, 3000, 500, 10, () -> { })) {
      assertThatThrownBy(() -> ds.mergeInsert(src).on("id").whenMatchedUpdateAll().conflictRetries(0)
          .spillDirectory(spill).commit()).isInstanceOf(CommitConflictException.class);
    }
    assertThat(listing(spill)).isEmpty();
    // And after a conflict that was retried, the retry read the spilled rows again.
    try (MergeInsertRows src = MergeInsertRows.source(allocator, 150, 3000, 500, 10, () -> { })) {
      MergeInsertResult r = ds.mergeInsert(src).on("id").whenMatchedUpdateAll().spillDirectory(spill).commit();
      assertThat(r.attempts()).isEqualTo(2);
      assertThat(r.rowsUpdated()).isEqualTo(1);
      assertThat(r.rowsInserted()).isEqualTo(2999);
      assertThat(rows(r.dataset())).hasSize(100 + 3000).containsEntry(150L, "1150/" + MergeInsertRows.s(150, 10))
          .containsEntry(3149L, "4149/" + MergeInsertRows.s(3149, 10)).containsEntry(99L, "99/t99");
    }
    assertThat(listing(spill)).isEmpty();
  }

  private List<Path> files() throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
    }
  }
}
