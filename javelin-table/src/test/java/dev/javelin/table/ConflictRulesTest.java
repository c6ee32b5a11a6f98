package dev.javelin.table;

import static dev.javelin.table.ConflictRules.Resolution.COMPATIBLE;
import static dev.javelin.table.ConflictRules.Resolution.CONFLICT;
import static dev.javelin.table.ConflictRules.Resolution.REBASE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.proto.TransactionProtos;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

  // Lance's check_restore_txn: a restore replaces everything, so only MemWAL state stops it.
  @ParameterizedTest
  @EnumSource(OperationKind.class)
  void restoreWinsOverAnythingButMemWalAndUnknown(OperationKind committed) {
    boolean conflict = List.of(OperationKind.UPDATE_MEM_WAL_STATE, OperationKind.UNKNOWN).contains(committed);
    assertThat(ConflictRules.check(of(OperationKind.RESTORE), of(committed)))
        .isEqualTo(conflict ? CONFLICT : COMPATIBLE);
  }

  // Lance's check_merge_txn: index, reserve, clone, config and base changes leave the merged
  // fragment list valid; everything else makes it stale or replaced it.
  @ParameterizedTest
  @EnumSource(OperationKind.class)
  void mergeIsCompatibleOnlyWithWhatLeavesFragmentsAndSchemaAlone(OperationKind committed) {
    boolean compatible = List.of(OperationKind.CREATE_INDEX, OperationKind.RESERVE_FRAGMENTS, OperationKind.CLONE,
        OperationKind.UPDATE_CONFIG, OperationKind.UPDATE_BASES).contains(committed);
    assertThat(ConflictRules.check(of(OperationKind.MERGE), of(committed)))
        .isEqualTo(compatible ? COMPATIBLE : CONFLICT);
  }

  // Lance's check_project_txn: only schema changes and wholesale replacements conflict.
  @ParameterizedTest
  @EnumSource(OperationKind.class)
  void projectConflictsOnlyWithSchemaChangesAndReplacements(OperationKind committed) {
    boolean conflict = List.of(OperationKind.MERGE, OperationKind.PROJECT, OperationKind.OVERWRITE,
        OperationKind.RESTORE, OperationKind.UPDATE_MEM_WAL_STATE, OperationKind.UNKNOWN).contains(committed);
    assertThat(ConflictRules.check(of(OperationKind.PROJECT), of(committed)))
        .isEqualTo(conflict ? CONFLICT : COMPATIBLE);
  }

  @Test
  void appendAndOverwriteBuildOnCommittedSchemaChanges() {
    for (OperationKind mine : List.of(OperationKind.APPEND, OperationKind.OVERWRITE)) {
      assertThat(ConflictRules.check(of(mine), of(OperationKind.MERGE))).isEqualTo(COMPATIBLE);
      assertThat(ConflictRules.check(of(mine), of(OperationKind.PROJECT))).isEqualTo(COMPATIBLE);
    }
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

  // ---- UpdateConfig (Lance's check_update_config_txn, and its column in every other row)

  private static Transaction config(Map<String, String> upserts, Set<String> deletes) {
    return Transaction.updateConfig(1, upserts, deletes);
  }

  private static Transaction overwriteSetting(String key) {
    return with(OperationKind.OVERWRITE, b -> b.setOverwrite(
        TransactionProtos.Transaction.Overwrite.newBuilder().putConfigUpsertValues(key, "v")));
  }

  @ParameterizedTest
  @EnumSource(OperationKind.class)
  void aConfigUpdateIsCompatibleWithEverythingButUnknownWhenNoKeyIsShared(OperationKind committed) {
    Transaction mine = config(Map.of("a", "1"), Set.of("b"));
    assertThat(ConflictRules.check(mine, of(committed)))
        .isEqualTo(committed == OperationKind.UNKNOWN ? CONFLICT : COMPATIBLE);
  }

  @Test
  void twoConfigUpdatesConflictWhenOneSetsAKeyTheOtherSetsOrRemoves() {
    Transaction setA = config(Map.of("a", "1"), Set.of());
    assertThat(ConflictRules.check(setA, config(Map.of("a", "2"), Set.of()))).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(setA, config(Map.of(), Set.of("a")))).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(config(Map.of(), Set.of("a")), setA)).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(setA, config(Map.of("b", "2"), Set.of("c"))))
        .isEqualTo(COMPATIBLE);
    // Removing the same key twice ends the same either way (Lance does not count it).
    assertThat(ConflictRules.check(config(Map.of(), Set.of("a")),
        config(Map.of(), Set.of("a")))).isEqualTo(COMPATIBLE);
    // Keys in the deprecated fields older writers used count too.
    Transaction legacy = with(OperationKind.UPDATE_CONFIG, b -> b.setUpdateConfig(
        TransactionProtos.Transaction.UpdateConfig.newBuilder().putUpsertValues("a", "3")));
    assertThat(ConflictRules.check(setA, legacy)).isEqualTo(CONFLICT);
    Transaction legacyDelete = with(OperationKind.UPDATE_CONFIG, b -> b.setUpdateConfig(
        TransactionProtos.Transaction.UpdateConfig.newBuilder().addDeleteKeys("a")));
    assertThat(ConflictRules.check(setA, legacyDelete)).isEqualTo(CONFLICT);
  }

  @Test
  void aConfigUpdateAndAnOverwriteConflictOnlyOverAKeyTheOverwriteSets() {
    Transaction setA = config(Map.of("a", "1"), Set.of());
    Transaction removeA = config(Map.of(), Set.of("a"));
    assertThat(ConflictRules.check(setA, overwriteSetting("a"))).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(removeA, overwriteSetting("a"))).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(setA, overwriteSetting("b"))).isEqualTo(COMPATIBLE);
    assertThat(ConflictRules.check(overwriteSetting("a"), setA)).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(overwriteSetting("a"), removeA)).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(overwriteSetting("b"), setA)).isEqualTo(COMPATIBLE);
  }

  @Test
  void schemaOrFieldMetadataUpdatesLoseToAnOverwriteAndToTheSameMetadata() {
    Transaction schemaMeta = with(OperationKind.UPDATE_CONFIG, b -> b.setUpdateConfig(
        TransactionProtos.Transaction.UpdateConfig.newBuilder().setSchemaMetadataUpdates(
            TransactionProtos.Transaction.UpdateMap.getDefaultInstance())));
    Transaction fieldMeta = with(OperationKind.UPDATE_CONFIG, b -> b.setUpdateConfig(
        TransactionProtos.Transaction.UpdateConfig.newBuilder().putFieldMetadataUpdates(3,
            TransactionProtos.Transaction.UpdateMap.getDefaultInstance())));
    assertThat(ConflictRules.check(schemaMeta, overwriteSetting("z"))).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(fieldMeta, overwriteSetting("z"))).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(schemaMeta, schemaMeta)).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(fieldMeta, fieldMeta)).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(schemaMeta, fieldMeta)).isEqualTo(COMPATIBLE);
    assertThat(ConflictRules.check(config(Map.of("a", "1"), Set.of()), schemaMeta))
        .isEqualTo(COMPATIBLE);
  }

  // Every operation Javelin commits builds on a committed config update (an overwrite unless it
  // sets one of its keys, above).
  @ParameterizedTest
  @EnumSource(value = OperationKind.class, names = {"APPEND", "OVERWRITE", "RESTORE", "DELETE", "MERGE", "PROJECT",
      "CREATE_INDEX", "UPDATE", "RESERVE_FRAGMENTS", "REWRITE", "DATA_REPLACEMENT"})
  void everyOperationBuildsOnACommittedConfigUpdate(OperationKind mine) {
    assertThat(ConflictRules.check(of(mine), config(Map.of("a", "1"), Set.of("b"))))
        .isEqualTo(COMPATIBLE);
  }

  @Test
  void operationsJavelinCannotCommitHaveNoRules() {
    assertThatThrownBy(() -> ConflictRules.check(of(OperationKind.UPDATE_MEM_WAL_STATE), of(OperationKind.APPEND)))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessage("Javelin cannot commit a UpdateMemWalState yet");
  }

  // ---- Delete (Lance's check_delete_txn)

  private static TableProtos.DataFragment frag(long id, String file) {
    return TableProtos.DataFragment.newBuilder().setId(id).setPhysicalRows(10)
        .addFiles(TableProtos.DataFile.newBuilder().setPath(file))
        .setDeletionFile(TableProtos.DeletionFile.newBuilder().setNumDeletedRows(1).setId(id * 7)).build();
  }

  /** A delete of fragments 1 and 2 (read with data file "a"), which also drops fragment 3. */
  private static Transaction myDelete() {
    return Transaction.fromProto(of(OperationKind.DELETE).proto().toBuilder()
        .setDelete(TransactionProtos.Transaction.Delete.newBuilder()
            .addUpdatedFragments(frag(1, "a")).addUpdatedFragments(frag(2, "a")).addDeletedFragmentIds(3))
        .build());
  }

  private static Transaction with(OperationKind kind, java.util.function.Consumer<TransactionProtos.Transaction.Builder> f) {
    TransactionProtos.Transaction.Builder b = of(kind).proto().toBuilder();
    f.accept(b);
    return Transaction.fromProto(b.build());
  }

  @ParameterizedTest
  @EnumSource(OperationKind.class)
  void deleteAgainstOperationsThatTouchNoFragmentOfIt(OperationKind committed) {
    boolean conflict = List.of(OperationKind.OVERWRITE, OperationKind.RESTORE, OperationKind.UPDATE_MEM_WAL_STATE,
        OperationKind.MERGE, OperationKind.UNKNOWN).contains(committed);
    assertThat(ConflictRules.check(myDelete(), of(committed))).isEqualTo(conflict ? CONFLICT : COMPATIBLE);
  }

  @Test
  void deleteAgainstARewriteOrReplacementOfItsFragments() {
    var rewrite = TransactionProtos.Transaction.Rewrite.newBuilder();
    rewrite.addGroupsBuilder().addOldFragments(frag(2, "a"));
    // A rebase follows the rows through a reordered rewrite's row map, or reports the conflict.
    assertThat(ConflictRules.check(myDelete(), with(OperationKind.REWRITE, b -> b.setRewrite(rewrite))))
        .isEqualTo(REBASE);
    var legacy = TransactionProtos.Transaction.Rewrite.newBuilder().addOldFragments(frag(3, "a"));
    assertThat(ConflictRules.check(myDelete(), with(OperationKind.REWRITE, b -> b.setRewrite(legacy))))
        .isEqualTo(REBASE);
    var other = TransactionProtos.Transaction.Rewrite.newBuilder();
    other.addGroupsBuilder().addOldFragments(frag(4, "a"));
    assertThat(ConflictRules.check(myDelete(), with(OperationKind.REWRITE, b -> b.setRewrite(other))))
        .isEqualTo(COMPATIBLE);
    assertThat(ConflictRules.check(myDelete(), with(OperationKind.DATA_REPLACEMENT, b -> b.setDataReplacement(
        TransactionProtos.Transaction.DataReplacement.newBuilder().addReplacements(
            TransactionProtos.Transaction.DataReplacementGroup.newBuilder().setFragmentId(1))))))
        .isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(myDelete(), with(OperationKind.DATA_REPLACEMENT, b -> b.setDataReplacement(
        TransactionProtos.Transaction.DataReplacement.newBuilder().addReplacements(
            TransactionProtos.Transaction.DataReplacementGroup.newBuilder().setFragmentId(9))))))
        .isEqualTo(COMPATIBLE);
  }

  @Test
  void deleteAgainstDeletes() {
    assertThat(ConflictRules.check(myDelete(), with(OperationKind.DELETE, b -> b.setDelete(
        TransactionProtos.Transaction.Delete.newBuilder().addUpdatedFragments(frag(5, "a")).addDeletedFragmentIds(6)))))
        .isEqualTo(COMPATIBLE);
    assertThat(ConflictRules.check(myDelete(), with(OperationKind.DELETE, b -> b.setDelete(
        TransactionProtos.Transaction.Delete.newBuilder().addUpdatedFragments(frag(2, "a"))))))
        .isEqualTo(REBASE);
    // They dropped a fragment this one deletes rows of, or this one drops a fragment they changed.
    assertThat(ConflictRules.check(myDelete(), with(OperationKind.DELETE, b -> b.setDelete(
        TransactionProtos.Transaction.Delete.newBuilder().addDeletedFragmentIds(1)))))
        .isEqualTo(REBASE);
    assertThat(ConflictRules.check(myDelete(), with(OperationKind.DELETE, b -> b.setDelete(
        TransactionProtos.Transaction.Delete.newBuilder().addUpdatedFragments(frag(3, "a"))))))
        .isEqualTo(REBASE);
  }

  @Test
  void deleteAgainstUpdates() {
    assertThat(ConflictRules.check(myDelete(), with(OperationKind.UPDATE, b -> b.setUpdate(
        TransactionProtos.Transaction.Update.newBuilder().addUpdatedFragments(frag(7, "b")).addRemovedFragmentIds(8)))))
        .isEqualTo(COMPATIBLE);
    // Only the deletion file changed: merge (the rebase refuses rows the update rewrote).
    assertThat(ConflictRules.check(myDelete(), with(OperationKind.UPDATE, b -> b.setUpdate(
        TransactionProtos.Transaction.Update.newBuilder().addUpdatedFragments(frag(1, "a"))))))
        .isEqualTo(REBASE);
    // Data files changed, a fragment this one drops was changed, or a fragment was removed.
    assertThat(ConflictRules.check(myDelete(), with(OperationKind.UPDATE, b -> b.setUpdate(
        TransactionProtos.Transaction.Update.newBuilder().addUpdatedFragments(frag(1, "b"))))))
        .isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(myDelete(), with(OperationKind.UPDATE, b -> b.setUpdate(
        TransactionProtos.Transaction.Update.newBuilder().addUpdatedFragments(frag(3, "a"))))))
        .isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(myDelete(), with(OperationKind.UPDATE, b -> b.setUpdate(
        TransactionProtos.Transaction.Update.newBuilder().addRemovedFragmentIds(2)))))
        .isEqualTo(CONFLICT);
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
    IndexMetadata a = IndexMetadata.fromProto(index("a", 3, 0));
    IndexMetadata b = IndexMetadata.fromProto(index("b", 4, 0));
    IndexMetadata a2 = IndexMetadata.fromProto(index("a", 3, 0, 1));
    List<IndexMetadata> out = CreateIndexes.apply(List.of(a, b),
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
    return Transaction.createIndex(1, List.of(IndexMetadata.fromProto(index)), List.of());
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

  // ---- Update (Lance's check_update_txn)

  /** A row-rewriting update that moved rows out of fragments 1 and 2 (read with file "a") and emptied 3. */
  private static Transaction myUpdate(TransactionProtos.Transaction.UpdateMode mode) {
    return Transaction.fromProto(of(OperationKind.UPDATE).proto().toBuilder()
        .setUpdate(TransactionProtos.Transaction.Update.newBuilder()
            .addUpdatedFragments(frag(1, "a")).addUpdatedFragments(frag(2, "a")).addRemovedFragmentIds(3)
            .addNewFragments(frag(0, "n")).setUpdateMode(mode))
        .build());
  }

  private static Transaction myUpdate() {
    return myUpdate(TransactionProtos.Transaction.UpdateMode.REWRITE_ROWS);
  }

  @ParameterizedTest
  @EnumSource(OperationKind.class)
  void updateAgainstOperationsThatTouchNoFragmentOfIt(OperationKind committed) {
    boolean conflict = List.of(OperationKind.OVERWRITE, OperationKind.RESTORE, OperationKind.MERGE,
        OperationKind.UNKNOWN).contains(committed);
    assertThat(ConflictRules.check(myUpdate(), of(committed))).isEqualTo(conflict ? CONFLICT : COMPATIBLE);
  }

  @Test
  void updateAgainstARewriteOrReplacementOfItsFragments() {
    assertThat(ConflictRules.check(myUpdate(), with(OperationKind.REWRITE, b -> b.setRewrite(
        TransactionProtos.Transaction.Rewrite.newBuilder().addGroups(
            TransactionProtos.Transaction.Rewrite.RewriteGroup.newBuilder().addOldFragments(frag(3, "a")))))))
        .isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(myUpdate(), with(OperationKind.REWRITE, b -> b.setRewrite(
        TransactionProtos.Transaction.Rewrite.newBuilder().addGroups(
            TransactionProtos.Transaction.Rewrite.RewriteGroup.newBuilder().addOldFragments(frag(4, "a")))))))
        .isEqualTo(COMPATIBLE);
    assertThat(ConflictRules.check(myUpdate(), with(OperationKind.DATA_REPLACEMENT, b -> b.setDataReplacement(
        TransactionProtos.Transaction.DataReplacement.newBuilder().addReplacements(
            TransactionProtos.Transaction.DataReplacementGroup.newBuilder().setFragmentId(2))))))
        .isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(myUpdate(), with(OperationKind.DATA_REPLACEMENT, b -> b.setDataReplacement(
        TransactionProtos.Transaction.DataReplacement.newBuilder().addReplacements(
            TransactionProtos.Transaction.DataReplacementGroup.newBuilder().setFragmentId(9))))))
        .isEqualTo(COMPATIBLE);
  }

  @Test
  void updateAgainstDeletesAndUpdates() {
    for (OperationKind kind : List.of(OperationKind.DELETE, OperationKind.UPDATE)) {
      // Other fragments only: compatible.
      assertThat(ConflictRules.check(myUpdate(), touching(kind, List.of(frag(7, "a")), List.of(8L))))
          .as("%s of other fragments", kind).isEqualTo(COMPATIBLE);
      // Only the deletion file of a fragment whose rows moved: rebased (deletion vectors merged).
      assertThat(ConflictRules.check(myUpdate(), touching(kind, List.of(frag(1, "a")), List.of())))
          .as("%s of deletions of fragment 1", kind).isEqualTo(REBASE);
      // Its data files changed: conflict.
      assertThat(ConflictRules.check(myUpdate(), touching(kind, List.of(frag(1, "b")), List.of())))
          .as("%s of data of fragment 1", kind).isEqualTo(CONFLICT);
      // The fragment this update emptied changed: every row of it was moved here, so conflict.
      assertThat(ConflictRules.check(myUpdate(), touching(kind, List.of(frag(3, "a")), List.of())))
          .as("%s of the emptied fragment", kind).isEqualTo(CONFLICT);
      // A fragment of it was removed: conflict.
      assertThat(ConflictRules.check(myUpdate(), touching(kind, List.of(), List.of(2L))))
          .as("%s removing fragment 2", kind).isEqualTo(CONFLICT);
      // A column rewrite has no row-level record: any change of its fragments conflicts.
      assertThat(ConflictRules.check(myUpdate(TransactionProtos.Transaction.UpdateMode.REWRITE_COLUMNS),
          touching(kind, List.of(frag(1, "a")), List.of()))).as("%s vs column rewrite", kind).isEqualTo(CONFLICT);
      assertThat(ConflictRules.check(myUpdate(TransactionProtos.Transaction.UpdateMode.REWRITE_COLUMNS),
          touching(kind, List.of(frag(7, "a")), List.of()))).as("%s vs column rewrite", kind).isEqualTo(COMPATIBLE);
    }
  }

  private static Transaction touching(OperationKind kind, List<TableProtos.DataFragment> updated, List<Long> removed) {
    if (kind == OperationKind.DELETE) {
      return with(kind, b -> b.setDelete(TransactionProtos.Transaction.Delete.newBuilder()
          .addAllUpdatedFragments(updated).addAllDeletedFragmentIds(removed)));
    }
    return with(kind, b -> b.setUpdate(TransactionProtos.Transaction.Update.newBuilder()
        .addAllUpdatedFragments(updated).addAllRemovedFragmentIds(removed)));
  }

  @Test
  void anAppendOrProjectBuildsOnACommittedUpdateButAMergeDoesNot() {
    assertThat(ConflictRules.check(of(OperationKind.APPEND), myUpdate())).isEqualTo(COMPATIBLE);
    assertThat(ConflictRules.check(of(OperationKind.PROJECT), myUpdate())).isEqualTo(COMPATIBLE);
    assertThat(ConflictRules.check(of(OperationKind.OVERWRITE), myUpdate())).isEqualTo(COMPATIBLE);
    assertThat(ConflictRules.check(of(OperationKind.MERGE), myUpdate())).isEqualTo(CONFLICT);
  }
}
