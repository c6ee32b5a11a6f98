package dev.javelin.table;

import static dev.javelin.table.ConflictRules.Resolution.COMPATIBLE;
import static dev.javelin.table.ConflictRules.Resolution.CONFLICT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.proto.TransactionProtos;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

class ConflictRulesTest {
  private static Transaction of(OperationKind kind) {
    TransactionProtos.Transaction.Builder b = TransactionProtos.Transaction.newBuilder().setReadVersion(1).setUuid("u");
    switch (kind) {
      case APPEND: b.setAppend(TransactionProtos.Transaction.Append.getDefaultInstance()); break;
      case DELETE: b.setDelete(TransactionProtos.Transaction.Delete.getDefaultInstance()); break;
      case OVERWRITE: b.setOverwrite(TransactionProtos.Transaction.Overwrite.getDefaultInstance()); break;
      case CREATE_INDEX: b.setCreateIndex(TransactionProtos.Transaction.CreateIndex.getDefaultInstance()); break;
      case REWRITE: b.setRewrite(TransactionProtos.Transaction.Rewrite.getDefaultInstance()); break;
      case MERGE: b.setMerge(TransactionProtos.Transaction.Merge.getDefaultInstance()); break;
      case RESTORE: b.setRestore(TransactionProtos.Transaction.Restore.getDefaultInstance()); break;
      case RESERVE_FRAGMENTS: b.setReserveFragments(TransactionProtos.Transaction.ReserveFragments.getDefaultInstance()); break;
      case UPDATE: b.setUpdate(TransactionProtos.Transaction.Update.getDefaultInstance()); break;
      case PROJECT: b.setProject(TransactionProtos.Transaction.Project.getDefaultInstance()); break;
      case UPDATE_CONFIG: b.setUpdateConfig(TransactionProtos.Transaction.UpdateConfig.getDefaultInstance()); break;
      case DATA_REPLACEMENT: b.setDataReplacement(TransactionProtos.Transaction.DataReplacement.getDefaultInstance()); break;
      case UPDATE_MEM_WAL_STATE: b.setUpdateMemWalState(TransactionProtos.Transaction.UpdateMemWalState.getDefaultInstance()); break;
      case CLONE: b.setClone(TransactionProtos.Transaction.Clone.getDefaultInstance()); break;
      case UPDATE_BASES: b.setUpdateBases(TransactionProtos.Transaction.UpdateBases.getDefaultInstance()); break;
      case UNKNOWN: break;
    }
    Transaction t = Transaction.fromProto(b.build());
    assertThat(t.kind()).isEqualTo(kind);
    return t;
  }

  @ParameterizedTest
  @EnumSource(OperationKind.class)
  void appendConflictsOnlyWithWhatReplacesItsSchemaOrFragments(OperationKind committed) {
    boolean conflict = List.of(OperationKind.OVERWRITE, OperationKind.RESTORE, OperationKind.UPDATE_MEM_WAL_STATE,
        OperationKind.UNKNOWN).contains(committed);
    assertThat(ConflictRules.check(of(OperationKind.APPEND), of(committed))).isEqualTo(conflict ? CONFLICT : COMPATIBLE);
  }

  @ParameterizedTest
  @EnumSource(OperationKind.class)
  void overwriteWinsOverAnythingButMemWalAndUnknown(OperationKind committed) {
    boolean conflict = List.of(OperationKind.UPDATE_MEM_WAL_STATE, OperationKind.UNKNOWN).contains(committed);
    assertThat(ConflictRules.check(of(OperationKind.OVERWRITE), of(committed)))
        .isEqualTo(conflict ? CONFLICT : COMPATIBLE);
  }

  @Test
  void overwritesSettingTheSameConfigKeyConflict() {
    Transaction mine = Transaction.fromProto(of(OperationKind.OVERWRITE).proto().toBuilder()
        .setOverwrite(TransactionProtos.Transaction.Overwrite.newBuilder().putConfigUpsertValues("a", "1")).build());
    Transaction sameKey = Transaction.fromProto(of(OperationKind.UPDATE_CONFIG).proto().toBuilder()
        .setUpdateConfig(TransactionProtos.Transaction.UpdateConfig.newBuilder().putUpsertValues("a", "2")).build());
    Transaction otherKey = Transaction.fromProto(of(OperationKind.OVERWRITE).proto().toBuilder()
        .setOverwrite(TransactionProtos.Transaction.Overwrite.newBuilder().putConfigUpsertValues("b", "2")).build());
    assertThat(ConflictRules.check(mine, sameKey)).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(mine, otherKey)).isEqualTo(COMPATIBLE);
  }

  @Test
  void operationsJavelinCannotCommitHaveNoRules() {
    assertThatThrownBy(() -> ConflictRules.check(of(OperationKind.DELETE), of(OperationKind.APPEND)))
        .isInstanceOf(UnsupportedOperationException.class).hasMessage("Javelin cannot commit a Delete yet");
  }

  @ParameterizedTest
  @EnumSource(OperationKind.class)
  void createIndexConflictsOnlyWithWhatReplacesTheData(OperationKind committed) {
    boolean conflict = List.of(OperationKind.OVERWRITE, OperationKind.RESTORE, OperationKind.UPDATE_MEM_WAL_STATE,
        OperationKind.UNKNOWN).contains(committed);
    assertThat(ConflictRules.check(createIndex(index("a", 3, 0, 1)), of(committed)))
        .isEqualTo(conflict ? CONFLICT : COMPATIBLE);
  }

  @Test
  void createIndexConflictsWithARewriteOfAFragmentItCovers() {
    Transaction mine = createIndex(index("a", 3, 0, 1));
    assertThat(ConflictRules.check(mine, rewrite(1, false))).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(mine, rewrite(1, true))).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(mine, rewrite(2, false))).isEqualTo(COMPATIBLE);
    // Without a bitmap the covered fragments are unknown.
    Transaction noBitmap = createIndex(index("a", 3).toBuilder().clearFragmentBitmap().build());
    assertThat(ConflictRules.check(noBitmap, rewrite(2, false))).isEqualTo(CONFLICT);
  }

  @Test
  void createIndexConflictsWithADataReplacementOfItsField() {
    Transaction mine = createIndex(index("a", 3, 0));
    assertThat(ConflictRules.check(mine, dataReplacement(3))).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(mine, dataReplacement(4))).isEqualTo(COMPATIBLE);
  }

  @Test
  void twoFragmentReuseIndicesConflictOtherIndicesDoNot() {
    Transaction reuse = createIndex(index(CreateIndexConflicts.FRAG_REUSE_INDEX_NAME, 3, 0));
    assertThat(ConflictRules.check(reuse, createIndex(index(CreateIndexConflicts.FRAG_REUSE_INDEX_NAME, 3, 0))))
        .isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(reuse, createIndex(index("b", 3, 0)))).isEqualTo(COMPATIBLE);
    assertThat(ConflictRules.check(createIndex(index("a", 3, 0)), createIndex(index("a", 3, 0))))
        .isEqualTo(COMPATIBLE);
  }

  @Test
  void aCommittedCreateIndexReplacesTheSameNameAndDropsByUuid() {
    TableProtos.IndexMetadata a = index("a", 3, 0);
    TableProtos.IndexMetadata b = index("b", 4, 0);
    TableProtos.IndexMetadata a2 = index("a", 3, 0, 1);
    List<TableProtos.IndexMetadata> out = CreateIndexes.apply(List.of(a, b),
        Transaction.createIndex(1, List.of(a2), List.of()).proto().getCreateIndex());
    assertThat(out).containsExactly(b, a2);
    out = CreateIndexes.apply(List.of(a, b), Transaction.createIndex(1, List.of(), List.of(b)).proto().getCreateIndex());
    assertThat(out).containsExactly(a);
  }

  private static int uuids;

  private static TableProtos.IndexMetadata index(String name, int field, int... fragments) {
    org.roaringbitmap.RoaringBitmap bitmap = org.roaringbitmap.RoaringBitmap.bitmapOf(fragments);
    java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate(bitmap.serializedSizeInBytes())
        .order(java.nio.ByteOrder.LITTLE_ENDIAN);
    bitmap.serialize(buf);
    return TableProtos.IndexMetadata.newBuilder().setName(name).addFields(field)
        .setUuid(TableProtos.UUID.newBuilder().setUuid(com.google.protobuf.ByteString.copyFrom(new byte[] {
            (byte) ++uuids})))
        .setFragmentBitmap(com.google.protobuf.ByteString.copyFrom(buf.array())).build();
  }

  private static Transaction createIndex(TableProtos.IndexMetadata index) {
    return Transaction.createIndex(1, List.of(index), List.of());
  }

  private static Transaction rewrite(long oldFragment, boolean legacy) {
    TransactionProtos.Transaction.Rewrite.Builder rw = TransactionProtos.Transaction.Rewrite.newBuilder();
    TableProtos.DataFragment f = TableProtos.DataFragment.newBuilder().setId(oldFragment).build();
    if (legacy) {
      rw.addOldFragments(f);
    } else {
      rw.addGroups(TransactionProtos.Transaction.Rewrite.RewriteGroup.newBuilder().addOldFragments(f));
    }
    return Transaction.fromProto(of(OperationKind.REWRITE).proto().toBuilder().setRewrite(rw).build());
  }

  private static Transaction dataReplacement(int field) {
    return Transaction.fromProto(of(OperationKind.DATA_REPLACEMENT).proto().toBuilder()
        .setDataReplacement(TransactionProtos.Transaction.DataReplacement.newBuilder()
            .addReplacements(TransactionProtos.Transaction.DataReplacementGroup.newBuilder()
                .setNewFile(TableProtos.DataFile.newBuilder().addFields(field)))).build());
  }
}
