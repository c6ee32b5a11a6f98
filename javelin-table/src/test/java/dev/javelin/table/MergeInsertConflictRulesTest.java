package dev.javelin.table;

import static dev.javelin.table.ConflictRules.Resolution.COMPATIBLE;
import static dev.javelin.table.ConflictRules.Resolution.CONFLICT;
import static dev.javelin.table.ConflictRules.Resolution.REBASE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.proto.TransactionProtos;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The rows of {@link ConflictRules} for a merge insert (a marked Update), each pair it decides. */
class MergeInsertConflictRulesTest {
  private static TableProtos.DataFragment frag(long id) {
    return TableProtos.DataFragment.newBuilder().setId(id).setPhysicalRows(10)
        .addFiles(TableProtos.DataFile.newBuilder().setPath("a")).build();
  }

  /**
   * A merge insert that rewrote rows of fragment 1, emptied fragment 3 and only matched rows of
   * fragment 2: its read set is {1, 2, 3}.
   */
  private static Transaction myMerge() {
    Transaction update = Transaction.fromProto(TransactionProtos.Transaction.newBuilder().setReadVersion(1)
        .setUuid("m").setUpdate(TransactionProtos.Transaction.Update.newBuilder().addUpdatedFragments(frag(1))
            .addRemovedFragmentIds(3).addNewFragments(frag(0))).build());
    return ConflictRules.markMergeInsert(update, Set.of(3L, 1L, 2L));
  }

  private static Transaction committed(OperationKind kind, Consumer<TransactionProtos.Transaction.Builder> f) {
    TransactionProtos.Transaction.Builder b = TransactionProtos.Transaction.newBuilder().setReadVersion(1)
        .setUuid("c");
    switch (kind) {
      case APPEND -> b.setAppend(TransactionProtos.Transaction.Append.getDefaultInstance());
      case DELETE -> b.setDelete(TransactionProtos.Transaction.Delete.getDefaultInstance());
      case OVERWRITE -> b.setOverwrite(TransactionProtos.Transaction.Overwrite.getDefaultInstance());
      case CREATE_INDEX -> b.setCreateIndex(TransactionProtos.Transaction.CreateIndex.getDefaultInstance());
      case REWRITE -> b.setRewrite(TransactionProtos.Transaction.Rewrite.getDefaultInstance());
      case MERGE -> b.setMerge(TransactionProtos.Transaction.Merge.getDefaultInstance());
      case RESTORE -> b.setRestore(TransactionProtos.Transaction.Restore.getDefaultInstance());
      case RESERVE_FRAGMENTS -> b.setReserveFragments(
          TransactionProtos.Transaction.ReserveFragments.getDefaultInstance());
      case UPDATE -> b.setUpdate(TransactionProtos.Transaction.Update.getDefaultInstance());
      case PROJECT -> b.setProject(TransactionProtos.Transaction.Project.getDefaultInstance());
      case UPDATE_CONFIG -> b.setUpdateConfig(TransactionProtos.Transaction.UpdateConfig.getDefaultInstance());
      case DATA_REPLACEMENT -> b.setDataReplacement(
          TransactionProtos.Transaction.DataReplacement.getDefaultInstance());
      case UPDATE_MEM_WAL_STATE -> b.setUpdateMemWalState(
          TransactionProtos.Transaction.UpdateMemWalState.getDefaultInstance());
      case CLONE -> b.setClone(TransactionProtos.Transaction.Clone.getDefaultInstance());
      case UPDATE_BASES -> b.setUpdateBases(TransactionProtos.Transaction.UpdateBases.getDefaultInstance());
      case UNKNOWN -> { }
    }
    f.accept(b);
    Transaction t = Transaction.fromProto(b.build());
    assertThat(t.kind()).isEqualTo(kind);
    return t;
  }

  @Test
  void theMarkNamesTheReadFragments() {
    Transaction m = myMerge();
    assertThat(ConflictRules.isMergeInsert(m)).isTrue();
    assertThat(m.proto().getTransactionPropertiesMap()).containsEntry(ConflictRules.MERGE_INSERT_READ, "1,2,3");
    assertThat(m.proto().getUpdate().getUpdatedFragmentsList()).hasSize(1);
  }

  // Whatever may have added a row with one of the merge's keys, or changed keys, makes its matches
  // stale; operations that change no row are compatible; the rest are decided by fragment below.
  @ParameterizedTest
  @EnumSource(OperationKind.class)
  void againstOperationsThatTouchNoFragmentItRead(OperationKind kind) {
    ConflictRules.Resolution want = switch (kind) {
      case APPEND, UPDATE, MERGE, OVERWRITE, RESTORE, UPDATE_MEM_WAL_STATE, UNKNOWN -> CONFLICT;
      case DATA_REPLACEMENT -> CONFLICT; // without data_change = false it may have changed keys
      default -> COMPATIBLE;
    };
    assertThat(ConflictRules.check(myMerge(), committed(kind, b -> { }))).isEqualTo(want);
  }

  @Test
  void aPlainRowUpdateStillBuildsOnAnAppend() {
    Transaction plain = Transaction.fromProto(myMerge().proto().toBuilder().clearTransactionProperties().build());
    assertThat(ConflictRules.check(plain, committed(OperationKind.APPEND, b -> { }))).isEqualTo(COMPATIBLE);
    assertThat(ConflictRules.check(myMerge(), committed(OperationKind.APPEND, b -> { }))).isEqualTo(CONFLICT);
  }

  @Test
  void aDeleteOfAFragmentItReadIsARebase() {
    // Fragment 2 was only matched: the rebase checks that none of its matched rows was deleted.
    assertThat(ConflictRules.check(myMerge(), committed(OperationKind.DELETE,
        b -> b.setDelete(TransactionProtos.Transaction.Delete.newBuilder().addUpdatedFragments(frag(2))))))
        .isEqualTo(REBASE);
    assertThat(ConflictRules.check(myMerge(), committed(OperationKind.DELETE,
        b -> b.setDelete(TransactionProtos.Transaction.Delete.newBuilder().addDeletedFragmentIds(1)))))
        .isEqualTo(REBASE);
    assertThat(ConflictRules.check(myMerge(), committed(OperationKind.DELETE,
        b -> b.setDelete(TransactionProtos.Transaction.Delete.newBuilder().addUpdatedFragments(frag(5))
            .addDeletedFragmentIds(6))))).isEqualTo(COMPATIBLE);
  }

  @Test
  void aRewriteOfAFragmentItReadConflicts() {
    for (long read : List.of(1L, 2L, 3L)) {
      assertThat(ConflictRules.check(myMerge(), committed(OperationKind.REWRITE,
          b -> b.setRewrite(TransactionProtos.Transaction.Rewrite.newBuilder().addGroups(
              TransactionProtos.Transaction.Rewrite.RewriteGroup.newBuilder().addOldFragments(frag(read)))))))
          .as("rewrite of %d", read).isEqualTo(CONFLICT);
    }
    assertThat(ConflictRules.check(myMerge(), committed(OperationKind.REWRITE,
        b -> b.setRewrite(TransactionProtos.Transaction.Rewrite.newBuilder().addOldFragments(frag(7))))))
        .isEqualTo(COMPATIBLE);
  }

  @Test
  void aRepackConflictsOnlyOnFragmentsItRead() {
    for (long id : List.of(2L, 9L)) {
      Transaction repack = committed(OperationKind.DATA_REPLACEMENT, b -> b.setDataReplacement(
          TransactionProtos.Transaction.DataReplacement.newBuilder().setDataChange(false).addReplacements(
              TransactionProtos.Transaction.DataReplacementGroup.newBuilder().setFragmentId(id)
                  .setNewFile(TableProtos.DataFile.newBuilder().addFields(0)))));
      assertThat(ConflictRules.check(myMerge(), repack)).as("repack of %d", id)
          .isEqualTo(id == 2 ? CONFLICT : COMPATIBLE);
    }
  }

  @Test
  void aConcurrentMergeInsertConflicts() {
    // Both may insert the same new key: the later one runs again and sees the earlier's rows.
    assertThat(ConflictRules.check(myMerge(), myMerge())).isEqualTo(CONFLICT);
  }
}
