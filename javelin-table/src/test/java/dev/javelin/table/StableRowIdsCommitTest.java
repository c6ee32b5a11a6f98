package dev.javelin.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.table.exceptions.StableRowIdsUnsupportedException;
import dev.javelin.table.exceptions.UnsupportedFeatureException;
import dev.javelin.table.proto.TransactionProtos;
import dev.javelin.table.rowids.RowIdSequence;
import dev.javelin.table.rowids.RowVersionSequence;
import dev.javelin.table.rowids.U64Segment;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class StableRowIdsCommitTest extends TableTestBase {
  private Manifest createStable(Fragment... fragments) {
    return table.newCommit(Transaction.overwrite(0, SCHEMA, List.of(fragments))).createOnly().enableStableRowIds()
        .cleanupOnFailure(keys(List.of(fragments))).commit();
  }

  private RowIdSequence ids(Fragment f) {
    return f.rowIdSequence(store).orElseThrow();
  }

  private long createdAt(Fragment f, long row) {
    return f.createdAtVersions(store).orElseThrow().get(row);
  }

  @Test
  void createAssignsContiguousRangesAndVersions() throws Exception {
    Manifest m = createStable(fragment(100), fragment(50));
    assertThat(m.readerFeatureFlags() & FeatureFlags.STABLE_ROW_IDS).isNotZero();
    assertThat(m.writerFeatureFlags() & FeatureFlags.STABLE_ROW_IDS).isNotZero();
    assertThat(m.nextRowId()).isEqualTo(150);
    assertThat(ids(m.fragments().get(0))).isEqualTo(RowIdSequence.range(0, 100));
    assertThat(ids(m.fragments().get(1))).isEqualTo(RowIdSequence.range(100, 150));
    assertThat(ids(m.fragments().get(1)).segments()).extracting(U64Segment::kind)
        .containsExactly(U64Segment.Kind.RANGE);
    for (Fragment f : m.fragments()) {
      assertThat(f.createdAtVersions(store)).contains(RowVersionSequence.uniform(f.physicalRows(), 1));
      assertThat(f.lastUpdatedAtVersions(store)).contains(RowVersionSequence.uniform(f.physicalRows(), 1));
    }
    // What was written is what is read back.
    assertThat(table.latest().fragments()).isEqualTo(m.fragments());
    assertThat(table.latest().nextRowId()).isEqualTo(150);
  }

  @Test
  void appendContinuesFromNextRowIdAndOverwriteDoesNotReuseIds() throws Exception {
    createStable(fragment(10));
    Manifest m = append(1, fragment(5), fragment(7));
    assertThat(m.fragments()).extracting(f -> ids(f).toString())
        .containsExactly("RowIdSequence[Range[0, 10)]", "RowIdSequence[Range[10, 15)]", "RowIdSequence[Range[15, 22)]");
    assertThat(createdAt(m.fragments().get(0), 9)).isEqualTo(1);
    assertThat(createdAt(m.fragments().get(2), 0)).isEqualTo(2);
    assertThat(m.nextRowId()).isEqualTo(22);

    Manifest o = table.newCommit(Transaction.overwrite(2, SCHEMA, List.of(fragment(4)))).commit();
    assertThat(o.fragments()).hasSize(1);
    assertThat(o.fragments().get(0).id()).isZero();
    assertThat(ids(o.fragments().get(0))).isEqualTo(RowIdSequence.range(22, 26));
    assertThat(createdAt(o.fragments().get(0), 3)).isEqualTo(3);
    assertThat(o.nextRowId()).isEqualTo(26);
    assertThat(o.readerFeatureFlags() & FeatureFlags.STABLE_ROW_IDS).isNotZero();
  }

  @Test
  void aRebasedAppendTakesIdsAfterTheCommitThatWon() throws Exception {
    createStable(fragment(10));
    Transaction mine = Transaction.append(1, List.of(fragment(3)));
    append(1, fragment(20)); // lands first, as version 2
    Manifest m = table.newCommit(mine).commit();
    assertThat(m.version()).isEqualTo(3);
    assertThat(ids(m.fragments().get(2))).isEqualTo(RowIdSequence.range(30, 33));
    assertThat(createdAt(m.fragments().get(2), 0)).isEqualTo(3);
    assertThat(m.nextRowId()).isEqualTo(33);
  }

  @Test
  void concurrentAppendsGetUniqueContiguousIds() throws Exception {
    createStable(fragment(1));
    int threads = 4;
    int perThread = 6;
    List<List<Fragment>> work = new ArrayList<>();
    long total = 1;
    for (int t = 0; t < threads; t++) {
      List<Fragment> fs = new ArrayList<>();
      for (int i = 0; i < perThread; i++) {
        long rows = 1 + (t * 7 + i * 13) % 29;
        fs.add(fragment(rows));
        total += rows;
      }
      work.add(fs);
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (List<Fragment> fs : work) {
        done.add(pool.submit(() -> {
          for (Fragment f : fs) {
            table.newCommit(Transaction.append(1, List.of(f))).backoff(1, 20).maxAttempts(200).commit();
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    Manifest m = table.latest();
    assertThat(m.version()).isEqualTo(1 + threads * perThread);
    assertThat(m.nextRowId()).isEqualTo(total);
    // In fragment id order the ids run 0, 1, ..., total - 1 with no gap or repeat, and each
    // fragment was created at the version that added it.
    long expect = 0;
    for (Fragment f : m.fragments()) {
      RowIdSequence s = ids(f);
      assertThat(s).isEqualTo(RowIdSequence.range(expect, expect + f.physicalRows()));
      expect += f.physicalRows();
      long v = createdAt(f, 0);
      assertThat(table.load(v).fragments()).extracting(Fragment::id).contains(f.id());
      if (v > 1) {
        assertThat(table.load(v - 1).fragments()).extracting(Fragment::id).doesNotContain(f.id());
      }
    }
    assertThat(expect).isEqualTo(total);
  }

  @Test
  void operationsThatDoNotKeepRowIdsAreRefused() throws Exception {
    createStable(fragment(10));
    Transaction replace = Transaction.fromProto(TransactionProtos.Transaction.newBuilder().setReadVersion(1)
        .setUuid(UUID.randomUUID().toString())
        .setUpdateMemWalState(TransactionProtos.Transaction.UpdateMemWalState.newBuilder()).build());
    assertThatThrownBy(() -> table.newCommit(replace).commit())
        .isInstanceOf(StableRowIdsUnsupportedException.class)
        .hasMessage("Javelin cannot commit a UpdateMemWalState on a dataset with stable row ids yet (version 1): "
            + table.location())
        .satisfies(e -> assertThat(((StableRowIdsUnsupportedException) e).operation())
            .isEqualTo(OperationKind.UPDATE_MEM_WAL_STATE));
    assertThat(table.latest().version()).isEqualTo(1);
    assertThat(local.list(Table.TRANSACTIONS)).hasSize(1); // the refused one's file was removed
  }

  @Test
  void deleteMergeProjectAndRestoreKeepSequences() throws Exception {
    Manifest v1 = createStable(fragment(10), fragment(6));
    append(1, fragment(4));
    Manifest v2 = table.latest();
    // Delete: fragment 0 is dropped, fragment 1 keeps its proto (sequences included).
    Manifest v3 = table.newCommit(Transaction.delete(2, List.of(v2.fragments().get(1)), List.of(0L), null)).commit();
    assertThat(v3.fragments()).extracting(Fragment::id).containsExactly(1L, 2L);
    assertThat(v3.fragments().get(0).proto()).isEqualTo(v2.fragments().get(1).proto());
    assertThat(v3.nextRowId()).isEqualTo(20);
    // Merge with the fragments as they are: sequences and versions unchanged.
    Manifest v4 = table.newCommit(Transaction.merge(3, v3.schema(), v3.fragments())).commit();
    assertThat(v4.fragments()).isEqualTo(v3.fragments());
    assertThat(v4.fragments().get(1).lastUpdatedAtVersions(store)).contains(RowVersionSequence.uniform(4, 2));
    // Project: untouched.
    Manifest v5p = table.newCommit(Transaction.project(4, v4.schema())).commit();
    assertThat(v5p.fragments()).isEqualTo(v4.fragments());
    // A Merge that gives fragment 2 a data file: its rows are last updated now, as lance-core's add columns.
    Fragment grown = Fragment.fromProto(v4.fragments().get(1).proto().toBuilder()
        .addFiles(fragment(4).proto().getFiles(0)).build());
    Manifest v5 = table.newCommit(Transaction.merge(5, v4.schema(), List.of(v4.fragments().get(0), grown))).commit();
    assertThat(v5.fragments().get(0)).isEqualTo(v4.fragments().get(0));
    assertThat(v5.fragments().get(1).lastUpdatedAtVersions(store)).contains(RowVersionSequence.uniform(4, 6));
    assertThat(v5.fragments().get(1).createdAtVersions(store)).contains(RowVersionSequence.uniform(4, 2));
    assertThat(v5.fragments()).extracting(f -> ids(f).toString())
        .containsExactly("RowIdSequence[Range[10, 16)]", "RowIdSequence[Range[16, 20)]");
    // Restore: the old manifest, next_row_id included, as Lance does.
    Manifest v6 = table.newCommit(Transaction.restore(6, v1)).commit();
    assertThat(v6.fragments()).isEqualTo(v1.fragments());
    assertThat(v6.nextRowId()).isEqualTo(16);
    assertThat(v6.readerFeatureFlags() & FeatureFlags.STABLE_ROW_IDS).isNotZero();
  }

  @Test
  void aMergeThatLosesRowIdsIsRefused() throws Exception {
    Manifest v1 = createStable(fragment(10));
    Fragment stripped = Fragment.fromProto(v1.fragments().get(0).proto().toBuilder().clearInlineRowIds().build());
    assertThatThrownBy(() -> table.newCommit(Transaction.merge(1, v1.schema(), List.of(stripped))).commit())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Merge fragment 0 does not keep the row ids and versions of version 1, which has stable row ids: "
            + table.location());
    assertThat(table.latest().version()).isEqualTo(1);
  }

  @Test
  void stableRowIdsCannotBeTurnedOnLater() throws Exception {
    create(fragment(10));
    Fragment f = fragment(3);
    assertThatThrownBy(() -> table.newCommit(Transaction.overwrite(1, SCHEMA, List.of(f))).enableStableRowIds()
        .cleanupOnFailure(keys(List.of(f))).commit())
        .isInstanceOf(UnsupportedFeatureException.class)
        .hasMessage("Cannot enable stable row ids on an existing dataset (version 1 has none): " + table.location());
    assertThat(local.exists("data/" + f.files().get(0).path())).isFalse();
    // Without the flag nothing gets row ids.
    Manifest m = append(1, fragment(2));
    assertThat(m.fragments()).allSatisfy(x -> assertThat(x.rowIdSequence(store)).isEmpty());
    assertThat(m.nextRowId()).isZero();
  }
}
