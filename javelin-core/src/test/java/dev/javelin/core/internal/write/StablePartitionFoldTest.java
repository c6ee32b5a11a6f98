package dev.javelin.core.internal.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.table.Commit;
import dev.javelin.table.ConflictRules;
import dev.javelin.table.DeletionFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.TableTestBase;
import dev.javelin.table.Transaction;
import dev.javelin.table.deletion.Deletes;
import dev.javelin.table.deletion.DeletionFiles;
import dev.javelin.table.exceptions.CommitConflictException;
import dev.javelin.table.proto.TransactionProtos;
import dev.javelin.table.rowmap.RowMapReader;
import dev.javelin.table.rowmap.RowMapWriter;
import dev.javelin.table.stablepartition.StablePartition;
import dev.javelin.table.stablepartition.StablePartitionEntry;
import dev.javelin.table.stablepartition.StablePartitionFold;
import dev.javelin.table.stablepartition.StablePartitionTransition;
import dev.javelin.table.stablepartition.StablePartitionValidator;
import dev.javelin.testing.TestAllocator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

/**
 * Concurrent deletions of a reordered rewrite's sources folded into its destinations through the
 * row map (the table layer's StablePartitionFold), against the Delete operation.
 */
class StablePartitionFoldTest extends TableTestBase {
  @TestAllocator BufferAllocator allocator;

  /**
   * A reordered rewrite of {@code sourceIds} of {@code read} into {@code m} destinations, labels
   * drawn at random (seeded) for live rows, null for rows deleted in {@code read}.
   */
  final class Reorder {
    final Manifest read;
    final List<Fragment> olds;
    final List<Fragment> news = new ArrayList<>();
    final StablePartitionTransition transition;
    final int[] labels; // per row map position; -1 deleted at read time
    StablePartition sp;

    Reorder(Manifest base, List<Long> sourceIds, int m, long seed) throws Exception {
      read = table.newCommit(Transaction.reserveFragments(base.version(), m)).commit();
      olds = read.fragments().stream().filter(f -> sourceIds.contains(f.id())).toList();
      List<StablePartitionTransition.Source> sources = olds.stream().map(StablePartitionTransition.Source::of).toList();
      int rows = (int) sources.stream().mapToLong(StablePartitionTransition.Source::physicalRows).sum();
      labels = new int[rows];
      long[] counts = new long[m];
      Random r = new Random(seed);
      int p = 0;
      for (Fragment f : olds) {
        RoaringBitmap del = Deletes.deletedRows(store, f, allocator);
        for (int o = 0; o < f.physicalRows(); o++, p++) {
          labels[p] = del.contains(o) ? -1 : r.nextInt(m);
          if (labels[p] >= 0) {
            counts[labels[p]]++;
          }
        }
      }
      String path;
      try (RowMapWriter w = RowMapWriter.create(store, m, LanceFileVersion.V2_1, allocator)) {
        for (int l : labels) {
          if (l < 0) {
            w.appendDeleted();
          } else {
            w.append(l);
          }
        }
        w.finish();
        path = w.path();
      }
      long first = read.maxFragmentId().getAsLong() - m + 1;
      List<Long> ids = new ArrayList<>();
      for (int d = 0; d < m; d++) {
        news.add(fragment(counts[d]).withId(first + d));
        ids.add(first + d);
      }
      transition = new StablePartitionTransition(read.version(), sources, ids, path);
      try (RowMapReader map = RowMapReader.open(store, path, allocator)) {
        StablePartitionValidator.validate(transition, map.summary(), news);
      }
      sp = StablePartition.appendTo(read, transition, store);
    }

    Transaction txn() {
      return Transaction.reorderedRewrite(read.version(), List.of(olds), List.of(news), sp);
    }

    Commit commit() {
      List<String> files = new ArrayList<>(keys(news));
      files.addAll(sp.writtenFiles());
      return table.newCommit(txn()).cleanupOnFailure(files).backoff(0, 0)
          .rebase(new StablePartitionFold(table, allocator));
    }

    /** What each destination must have deleted: ranks of the rows live at read and deleted in {@code now}. */
    Map<Long, RoaringBitmap> expected(Manifest now) throws Exception {
      Map<Long, RoaringBitmap> out = new HashMap<>();
      long[] seen = new long[news.size()];
      int p = 0;
      for (Fragment src : olds) {
        Fragment f = now.fragments().stream().filter(x -> x.id() == src.id()).findFirst().orElse(null);
        RoaringBitmap del = f == null ? null : Deletes.deletedRows(store, f, allocator);
        for (int o = 0; o < src.physicalRows(); o++, p++) {
          int l = labels[p];
          if (l < 0) {
            continue;
          }
          long rank = seen[l]++;
          if (del == null || del.contains(o)) {
            out.computeIfAbsent(news.get(l).id(), k -> new RoaringBitmap()).add((int) rank);
          }
        }
      }
      return out;
    }
  }

  /** Where rows of the sources (offsets per source id) went: destination id -> offsets there. */
  Map<Long, RoaringBitmap> whereWent(Reorder r, Map<Long, RoaringBitmap> rows) {
    Map<Long, RoaringBitmap> out = new HashMap<>();
    long[] seen = new long[r.news.size()];
    int p = 0;
    for (Fragment src : r.olds) {
      RoaringBitmap mine = rows.getOrDefault(src.id(), new RoaringBitmap());
      for (int o = 0; o < src.physicalRows(); o++, p++) {
        int l = r.labels[p];
        if (l >= 0) {
          long rank = seen[l]++;
          if (mine.contains(o)) {
            out.computeIfAbsent(r.news.get(l).id(), k -> new RoaringBitmap()).add((int) rank);
          }
        }
      }
    }
    return out;
  }

  Manifest create(int fragments, int rows) throws Exception {
    Fragment[] fs = new Fragment[fragments];
    for (int i = 0; i < fragments; i++) {
      fs[i] = fragment(rows);
    }
    return create(fs);
  }

  Manifest delete(Manifest read, Map<Long, RoaringBitmap> rows) {
    return DeleteCommit.commit(table, read, rows, "x > 1", allocator);
  }

  Map<Long, RoaringBitmap> deletions(Manifest m, List<Long> ids) throws Exception {
    Map<Long, RoaringBitmap> out = new HashMap<>();
    for (Fragment f : m.fragments()) {
      if (ids.contains(f.id()) && f.deletionFile().isPresent()) {
        out.put(f.id(), Deletes.deletedRows(store, f, allocator));
      }
    }
    return out;
  }

  static Map<Long, RoaringBitmap> rows(long fragment, int... offsets) {
    Map<Long, RoaringBitmap> out = new HashMap<>();
    out.put(fragment, RoaringBitmap.bitmapOf(offsets));
    return out;
  }

  @Test
  void aConcurrentDeleteOfSourceRowsIsFoldedIntoTheDestinations() throws Exception {
    Manifest v = create(3, 40); // fragments 0, 1, 2
    v = delete(v, rows(0, 1, 2, 30)); // deleted before the rewrite read: null labels
    Reorder r = new Reorder(v, List.of(0L, 1L), 3, 7);
    Map<Long, RoaringBitmap> concurrent = new HashMap<>(rows(0, 0, 2, 5, 39));
    concurrent.put(1L, RoaringBitmap.bitmapOf(0, 17, 18, 19, 39));
    concurrent.put(2L, RoaringBitmap.bitmapOf(4)); // not a source: stays where it is
    Manifest deleted = delete(r.read, concurrent);

    Manifest after = r.commit().commit();

    Map<Long, RoaringBitmap> want = r.expected(deleted);
    assertThat(want.values().stream().mapToLong(RoaringBitmap::getLongCardinality).sum()).isEqualTo(8); // 2 was deleted
    List<Long> dests = r.transition.destinations();
    assertThat(deletions(after, dests)).isEqualTo(want);
    assertThat(after.fragments().stream().map(Fragment::id)).containsExactly(2L, dests.get(0), dests.get(1),
        dests.get(2));
    assertThat(deletions(after, List.of(2L))).isEqualTo(rows(2, 4));
    long live = after.fragments().stream().mapToLong(Fragment::liveRows).sum();
    assertThat(live).isEqualTo(120 - 3 - 9);
    // The transition is what the rewrite read: the concurrent deletions are not in it.
    assertThat(StablePartitionEntry.transitions(after, store)).containsExactly(r.transition);
    assertThat(r.transition.sources().get(0).deletedRows()).isEqualTo(3);
    // Stored as an ordinary Rewrite, with the destinations' deletion files.
    Transaction stored = table.transaction(after).orElseThrow();
    assertThat(stored.readVersion()).isEqualTo(deleted.version());
    assertThat(stored.proto().getRewrite().getGroups(0).getNewFragmentsList()).allMatch(f ->
        f.hasDeletionFile() == want.containsKey(f.getId()));
  }

  @Test
  void aSourceDeletedWholeDeletesAllItsRowsFromTheDestinationsAndIsNoLongerReplaced() throws Exception {
    Manifest v = create(3, 30);
    v = delete(v, rows(1, 3, 4)); // labelled null: already deleted
    Reorder r = new Reorder(v, List.of(0L, 1L, 2L), 2, 11);
    int[] all = new int[30];
    for (int i = 0; i < 30; i++) {
      all[i] = i;
    }
    Map<Long, RoaringBitmap> gone = new HashMap<>(rows(1, all));
    gone.put(2L, RoaringBitmap.bitmapOf(29));
    Manifest deleted = delete(r.read, gone);
    assertThat(deleted.fragments().stream().map(Fragment::id)).doesNotContain(1L);

    Manifest after = r.commit().commit();

    Map<Long, RoaringBitmap> want = r.expected(deleted);
    assertThat(want.values().stream().mapToLong(RoaringBitmap::getLongCardinality).sum()).isEqualTo(28 + 1);
    assertThat(deletions(after, r.transition.destinations())).isEqualTo(want);
    assertThat(after.fragments().stream().map(Fragment::id)).containsExactlyElementsOf(r.transition.destinations());
    assertThat(after.fragments().stream().mapToLong(Fragment::liveRows).sum()).isEqualTo(90 - 30 - 1);
    Transaction stored = table.transaction(after).orElseThrow();
    assertThat(stored.proto().getRewrite().getGroups(0).getOldFragmentsList()).extracting(f -> f.getId())
        .containsExactly(0L, 2L);
    assertThat(StablePartitionEntry.transitions(after, store).get(0).sources())
        .extracting(StablePartitionTransition.Source::id).containsExactly(0L, 1L, 2L);
  }

  @Test
  void everySourceDeletedIsAConflictAndLeavesNoFiles() throws Exception {
    Manifest v = create(2, 5);
    Reorder r = new Reorder(v, List.of(0L, 1L), 2, 3);
    Map<Long, RoaringBitmap> all = new HashMap<>(rows(0, 0, 1, 2, 3, 4));
    all.put(1L, RoaringBitmap.bitmapOf(0, 1, 2, 3, 4));
    Manifest deleted = delete(r.read, all);
    assertThatThrownBy(() -> r.commit().commit()).isInstanceOf(CommitConflictException.class)
        .hasMessage("Every source fragment [0, 1] of the reordered rewrite was removed by a concurrent commit (by "
            + "version " + deleted.version() + "): nothing is left to rewrite: " + table.location());
    assertThat(table.latest().version()).isEqualTo(deleted.version());
    for (String k : keys(r.news)) {
      assertThat(local.exists(k)).isFalse();
    }
  }

  @Test
  void foldsOverSeveralRebasesReplaceEarlierDeletionFiles() throws Exception {
    Manifest v = create(2, 200);
    Reorder r = new Reorder(v, List.of(0L, 1L), 4, 5);
    StablePartitionFold fold = new StablePartitionFold(table, allocator);
    Manifest d1 = delete(r.read, rows(0, 10, 11, 12));
    Transaction t1 = table.transaction(d1).orElseThrow();
    Commit.Rebased first = fold.rebase(r.txn(), List.of(t1), d1);
    assertThat(first.transaction.stablePartition()).isNotNull();
    assertThat(first.transaction.readVersion()).isEqualTo(d1.version());
    assertThat(first.written).hasSize((int) r.expected(d1).size());
    for (String k : first.written) {
      assertThat(local.exists(k)).isTrue();
    }

    Manifest d2 = delete(d1, rows(1, 0, 199));
    Commit.Rebased second = fold.rebase(first.transaction, List.of(table.transaction(d2).orElseThrow()), d2);
    assertThat(second.superseded).containsExactlyInAnyOrderElementsOf(first.written);
    Map<Long, RoaringBitmap> got = new HashMap<>();
    for (var f : second.transaction.proto().getRewrite().getGroups(0).getNewFragmentsList()) {
      if (f.hasDeletionFile()) {
        got.put(f.getId(), DeletionFiles.read(store, f.getId(), DeletionFile.fromProto(f.getDeletionFile()),
            allocator));
      }
    }
    assertThat(got).isEqualTo(r.expected(d2));
    assertThat(got.values().stream().mapToLong(RoaringBitmap::getLongCardinality).sum()).isEqualTo(5);
  }

  @Test
  void aRowRewritingUpdateOfSourcesIsFoldedAndItsNewRowsKept() throws Exception {
    Manifest v = create(2, 20);
    Reorder r = new Reorder(v, List.of(0L, 1L), 2, 9);
    Fragment f1 = r.read.fragments().stream().filter(f -> f.id() == 1).findFirst().orElseThrow();
    DeletionFile file = DeletionFiles.write(store, 1, r.read.version(), RoaringBitmap.bitmapOf(2, 3), allocator);
    Fragment moved = fragment(2);
    Manifest updated = table.newCommit(Transaction.update(r.read.version(),
        List.of(Fragment.fromProto(f1.proto().toBuilder().setDeletionFile(file.proto()).build())), List.of(),
        List.of(moved), List.of(), List.of(0), TransactionProtos.Transaction.UpdateMode.REWRITE_ROWS)).commit();
    long newId = updated.maxFragmentId().getAsLong();

    Manifest after = r.commit().commit();

    assertThat(deletions(after, r.transition.destinations())).isEqualTo(r.expected(updated));
    assertThat(after.fragments().stream().map(Fragment::id)).contains(newId).doesNotContain(0L, 1L);
    assertThat(after.fragments().stream().mapToLong(Fragment::liveRows).sum()).isEqualTo(40);
  }

  @Test
  void whatIsNotFoldedStillConflicts() throws Exception {
    Manifest v = create(3, 10);
    Reorder r = new Reorder(v, List.of(0L, 1L), 2, 1);
    Transaction mine = r.txn();
    Transaction plain = Transaction.rewrite(r.read.version(), List.of(r.olds), List.of(r.news));
    Fragment f0 = r.olds.get(0);
    DeletionFile file = DeletionFiles.write(store, 0, r.read.version(), RoaringBitmap.bitmapOf(1), allocator);
    Fragment f0del = Fragment.fromProto(f0.proto().toBuilder().setDeletionFile(file.proto()).build());
    Fragment f2 = r.read.fragments().stream().filter(f -> f.id() == 2).findFirst().orElseThrow();
    Transaction delSource = Transaction.delete(r.read.version(), List.of(f0del), List.of(), "");
    Transaction delWhole = Transaction.delete(r.read.version(), List.of(), List.of(1L), "");
    Transaction delOther = Transaction.delete(r.read.version(), List.of(f2), List.of(), "");
    Transaction delBoth = Transaction.delete(r.read.version(), List.of(f0del, f2), List.of(), "");
    assertThat(ConflictRules.check(mine, delSource)).isEqualTo(ConflictRules.Resolution.REBASE);
    assertThat(ConflictRules.check(mine, delWhole)).isEqualTo(ConflictRules.Resolution.REBASE);
    assertThat(ConflictRules.check(mine, delOther)).isEqualTo(ConflictRules.Resolution.COMPATIBLE);
    assertThat(ConflictRules.check(mine, delBoth)).isEqualTo(ConflictRules.Resolution.REBASE);
    // A plain Rewrite keeps conflicting: it has no row map to fold through.
    assertThat(ConflictRules.check(plain, delSource)).isEqualTo(ConflictRules.Resolution.CONFLICT);
    assertThat(ConflictRules.check(plain, delWhole)).isEqualTo(ConflictRules.Resolution.CONFLICT);

    var rows = TransactionProtos.Transaction.UpdateMode.REWRITE_ROWS;
    var columns = TransactionProtos.Transaction.UpdateMode.REWRITE_COLUMNS;
    Transaction rowUpdate = Transaction.update(r.read.version(), List.of(f0del), List.of(1L), List.of(fragment(1)),
        List.of(), List.of(), rows);
    assertThat(ConflictRules.check(mine, rowUpdate)).isEqualTo(ConflictRules.Resolution.REBASE);
    assertThat(ConflictRules.check(plain, rowUpdate)).isEqualTo(ConflictRules.Resolution.CONFLICT);
    // New data files for a source: values changed, not only rows deleted.
    Fragment newFiles = Fragment.fromProto(f0del.proto().toBuilder().clearFiles()
        .addFiles(fragment(10).files().get(0).proto()).build());
    Transaction columnUpdate = Transaction.update(r.read.version(), List.of(newFiles), List.of(), List.of(),
        List.of(0), List.of(), columns);
    assertThat(ConflictRules.check(mine, columnUpdate)).isEqualTo(ConflictRules.Resolution.CONFLICT);
    Transaction rowsButNewFiles = Transaction.update(r.read.version(), List.of(newFiles), List.of(), List.of(),
        List.of(), List.of(), rows);
    assertThat(ConflictRules.check(mine, rowsButNewFiles)).isEqualTo(ConflictRules.Resolution.CONFLICT);
    Transaction overlay = Transaction.overlayUpdate(r.read.version(), List.of(f0), List.of(0));
    assertThat(ConflictRules.check(mine, overlay)).isEqualTo(ConflictRules.Resolution.CONFLICT);
    // Another rewrite of a source is never folded.
    Transaction otherRewrite = Transaction.rewrite(r.read.version(), List.of(List.of(f0)), List.of(List.of(f0)));
    assertThat(ConflictRules.check(mine, otherRewrite)).isEqualTo(ConflictRules.Resolution.CONFLICT);
  }

  @Test
  void withoutTheFoldAConcurrentDeleteOfASourceConflictsAndLeavesNoFiles() throws Exception {
    Manifest v = create(2, 10);
    Reorder r = new Reorder(v, List.of(0L, 1L), 2, 2);
    Manifest deleted = delete(r.read, rows(1, 5));
    Commit c = table.newCommit(r.txn()).cleanupOnFailure(keys(r.news)).backoff(0, 0);
    assertThatThrownBy(c::commit).isInstanceOf(CommitConflictException.class)
        .hasMessage("This Rewrite (read version " + r.read.version() + ") conflicts with the Delete committed as "
            + "version " + deleted.version() + ": " + table.location());
    for (String k : keys(r.news)) {
      assertThat(local.exists(k)).isFalse();
    }
  }

  @Test
  void aDeleteThatReadBeforeAClusteringFollowsItsRowsThroughTheRowMap() throws Exception {
    Manifest v = create(3, 40);
    v = delete(v, rows(0, 7));
    Reorder r = new Reorder(v, List.of(0L, 1L), 3, 21);
    Manifest landed = r.commit().commit();
    Map<Long, RoaringBitmap> mine = new HashMap<>(rows(0, 3, 4, 7, 39)); // 7 was already deleted
    mine.put(1L, RoaringBitmap.bitmapOf(0, 10, 11));
    mine.put(2L, RoaringBitmap.bitmapOf(5));

    Manifest after = DeleteCommit.commit(table, r.read, mine, "s = 'a'", allocator); // read before the rewrite

    assertThat(after.version()).isEqualTo(landed.version() + 1);
    Map<Long, RoaringBitmap> want = whereWent(r, mine);
    assertThat(want.values().stream().mapToLong(RoaringBitmap::getLongCardinality).sum()).isEqualTo(6);
    assertThat(deletions(after, r.transition.destinations())).isEqualTo(want);
    assertThat(deletions(after, List.of(2L))).isEqualTo(rows(2, 5));
    assertThat(after.fragments().stream().mapToLong(Fragment::liveRows).sum()).isEqualTo(120 - 1 - 7);
    // The committed delete names the destinations it deleted from, not the retired sources.
    Transaction stored = table.transaction(after).orElseThrow();
    List<Long> touched = new ArrayList<>(want.keySet());
    touched.add(2L);
    assertThat(stored.proto().getDelete().getUpdatedFragmentsList()).extracting(f -> f.getId())
        .containsExactlyInAnyOrderElementsOf(touched);
  }

  @Test
  void aDeleteFollowsRowsThroughTwoClusteringsInARow() throws Exception {
    Manifest v = create(2, 30);
    Reorder first = new Reorder(v, List.of(0L, 1L), 2, 4);
    Manifest one = first.commit().commit();
    Reorder second = new Reorder(one, first.transition.destinations(), 3, 8);
    second.commit().commit();
    Map<Long, RoaringBitmap> mine = new HashMap<>(rows(0, 0, 29));
    mine.put(1L, RoaringBitmap.bitmapOf(15));

    Manifest after = DeleteCommit.commit(table, first.read, mine, null, allocator);

    Map<Long, RoaringBitmap> want = whereWent(second, whereWent(first, mine));
    assertThat(deletions(after, second.transition.destinations())).isEqualTo(want);
    assertThat(after.fragments().stream().mapToLong(Fragment::liveRows).sum()).isEqualTo(57);
  }

  @Test
  void aDeleteRacingAnOrderPreservingRewriteStillConflicts() throws Exception {
    Manifest v = create(2, 10);
    Manifest reserved = table.newCommit(Transaction.reserveFragments(v.version(), 1)).commit();
    Fragment merged = fragment(20).withId(reserved.maxFragmentId().getAsLong());
    Manifest rewritten = table.newCommit(Transaction.rewrite(reserved.version(), List.of(reserved.fragments()),
        List.of(List.of(merged)))).commit();
    assertThatThrownBy(() -> DeleteCommit.commit(table, reserved, rows(1, 4), null, allocator))
        .isInstanceOf(CommitConflictException.class)
        .hasMessage("This Delete (read version " + reserved.version() + ") conflicts with the Rewrite committed as "
            + "version " + rewritten.version() + ": " + table.location());
    assertThat(table.latest().version()).isEqualTo(rewritten.version());
    assertThat(local.list("_deletions/")).isEmpty();
  }

  @Test
  void aDeleteOfARowAnUpdateMovedBeforeTheClusteringConflicts() throws Exception {
    Manifest v = create(2, 20);
    Reorder r = new Reorder(v, List.of(0L, 1L), 2, 13);
    Fragment f1 = r.read.fragments().stream().filter(f -> f.id() == 1).findFirst().orElseThrow();
    DeletionFile file = DeletionFiles.write(store, 1, r.read.version(), RoaringBitmap.bitmapOf(6), allocator);
    Manifest updated = table.newCommit(Transaction.update(r.read.version(),
        List.of(Fragment.fromProto(f1.proto().toBuilder().setDeletionFile(file.proto()).build())), List.of(),
        List.of(fragment(1)), List.of(), List.of(0), TransactionProtos.Transaction.UpdateMode.REWRITE_ROWS)).commit();
    Manifest landed = r.commit().commit();
    assertThat(landed.version()).isEqualTo(updated.version() + 1);

    assertThatThrownBy(() -> DeleteCommit.commit(table, r.read, rows(1, 6), null, allocator))
        .isInstanceOf(CommitConflictException.class)
        .hasMessage("This Delete (read version " + r.read.version() + ") deletes row " + ((1L << 32) | 6)
            + " (fragment 1, offset 6) that a concurrent Update "
            + "rewrote (by version " + landed.version() + "): " + table.location());
    // Another row of the same fragment follows the clustering.
    Manifest after = DeleteCommit.commit(table, r.read, rows(1, 7), null, allocator);
    assertThat(after.fragments().stream().mapToLong(Fragment::liveRows).sum()).isEqualTo(39);
  }
}
