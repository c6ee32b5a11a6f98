package dev.javelin.table;

import static dev.javelin.table.ConflictRules.Resolution.COMPATIBLE;
import static dev.javelin.table.ConflictRules.Resolution.CONFLICT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.proto.FileProtos;
import dev.javelin.table.exceptions.CommitConflictException;
import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.proto.TransactionProtos;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.roaringbitmap.RoaringBitmap;

/** Conflict rules and manifest cases of ReserveFragments, Rewrite and DataReplacement. */
class CompactionRulesTest {
  // Fragment 1: files "base" (fields 0, 1) and "a" (field 2) and "b" (field 3); fragment 2 likewise.
  static TableProtos.DataFile file(String path, int... fields) {
    TableProtos.DataFile.Builder b = TableProtos.DataFile.newBuilder().setPath(path).setFileMajorVersion(2)
        .setFileMinorVersion(1);
    for (int i = 0; i < fields.length; i++) {
      b.addFields(fields[i]).addColumnIndices(i);
    }
    return b.build();
  }

  static TableProtos.DataFragment frag(long id) {
    return TableProtos.DataFragment.newBuilder().setId(id).setPhysicalRows(10)
        .addFiles(file("base" + id, 0, 1)).addFiles(file("a" + id, 2)).addFiles(file("b" + id, 3)).build();
  }

  static Manifest manifest(List<TableProtos.IndexMetadata> indices) {
    TableProtos.Manifest.Builder m = TableProtos.Manifest.newBuilder().setVersion(5).setMaxFragmentId(2)
        .setDataFormat(TableProtos.Manifest.DataStorageFormat.newBuilder().setFileFormat("lance").setVersion("2.1"));
    for (int id = 0; id < 4; id++) {
      m.addFields(FileProtos.Field.newBuilder().setId(id).setParentId(-1).setName("c" + id).setLogicalType("int64"));
    }
    m.addFragments(frag(1)).addFragments(frag(2));
    return new Manifest(m.build(), IndexMetadata.fromProtos(indices), null);
  }

  static TableProtos.IndexMetadata index(String name, int field, long... fragments) {
    RoaringBitmap b = new RoaringBitmap();
    for (long f : fragments) {
      b.add((int) f);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      b.serialize(new DataOutputStream(out));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return TableProtos.IndexMetadata.newBuilder().setName(name).addFields(field)
        .setFragmentBitmap(ByteString.copyFrom(out.toByteArray())).build();
  }

  static Manifest build(Transaction t, Manifest current) {
    return ManifestBuilder.build(t, current, current.version() + 1, LanceFileVersion.V2_1, Instant.now(), "loc");
  }

  /** A repack of fragment 1: a and b into one new file. */
  static Transaction repack(boolean dataChange) {
    return Transaction.dataReplacement(5, List.of(1L), List.of(DataFile.fromProto(file("ab", 2, 3))), dataChange);
  }

  static Transaction committed(Consumer<TransactionProtos.Transaction.Builder> f) {
    TransactionProtos.Transaction.Builder b = TransactionProtos.Transaction.newBuilder().setReadVersion(5).setUuid("u");
    f.accept(b);
    return Transaction.fromProto(b.build());
  }

  @Test
  void dataReplacementDataChangeRoundtrips() throws Exception {
    assertThat(Transaction.parse(repack(false).proto().toByteArray(), "t").dataChange()).isFalse();
    assertThat(Transaction.parse(repack(true).proto().toByteArray(), "t").dataChange()).isTrue();
    // Written before the field existed: a data change.
    Transaction old = Transaction.fromProto(repack(false).proto().toBuilder()
        .setDataReplacement(repack(false).proto().getDataReplacement().toBuilder().clearDataChange()).build());
    assertThat(old.dataChange()).isTrue();
  }

  @Test
  void dataReplacementAppliesSeveralGroupsToOneFragment() throws Exception {
    Manifest current = manifest(List.of(index("idx", 2, 1, 2)));
    Transaction t = Transaction.dataReplacement(5, List.of(1L, 1L),
        List.of(DataFile.fromProto(file("n1", 0, 2)), DataFile.fromProto(file("n2", 1, 3))), false);
    Manifest next = build(t, current);
    TableProtos.DataFragment f = next.proto().getFragments(0);
    // Every old file emptied and removed; the new files in order.
    assertThat(f.getFilesList()).extracting(TableProtos.DataFile::getPath).containsExactly("n1", "n2");
    assertThat(next.proto().getFragments(1)).isEqualTo(frag(2));
    assertThat(next.indices()).isEqualTo(current.indices()); // coverage kept
  }

  @Test
  void dataReplacementTombstonesMovedFieldsInFilesItDoesNotEmpty() {
    Transaction t = Transaction.dataReplacement(5, List.of(2L), List.of(DataFile.fromProto(file("n", 1, 2))), false);
    TableProtos.DataFragment f = build(t, manifest(List.of())).proto().getFragments(1);
    assertThat(f.getFilesList()).extracting(TableProtos.DataFile::getPath).containsExactly("base2", "b2", "n");
    assertThat(f.getFiles(0).getFieldsList()).containsExactly(0, -2);
    assertThat(f.getFiles(0).getColumnIndicesList()).containsExactly(0, 1);
  }

  @Test
  void dataReplacementWithDataChangeDropsCoverageOfReplacedFields() throws Exception {
    Manifest current = manifest(List.of(index("on_a", 2, 1, 2), index("on_base", 0, 1, 2)));
    Manifest next = build(repack(true), current);
    assertThat(next.indices().get(0).fragmentBitmap().toArray()).containsExactly(2);
    assertThat(next.indices().get(1).fragmentBitmap().toArray()).containsExactly(1, 2);
    assertThat(build(repack(false), current).indices()).isEqualTo(current.indices());
  }

  @Test
  void dataReplacementOfAMissingFragmentConflicts() {
    Transaction t = Transaction.dataReplacement(5, List.of(9L), List.of(DataFile.fromProto(file("n", 2))), false);
    assertThatThrownBy(() -> build(t, manifest(List.of()))).isInstanceOf(CommitConflictException.class)
        .hasMessage("Fragment 9 to replace data of is not in version 5 any more: loc");
  }

  @ParameterizedTest
  @EnumSource(OperationKind.class)
  void conflictsDataReplacementWithOperationsOfNoFragment(OperationKind kind) {
    boolean conflict = List.of(OperationKind.OVERWRITE, OperationKind.RESTORE, OperationKind.UPDATE_MEM_WAL_STATE,
        OperationKind.UNKNOWN).contains(kind);
    Transaction theirs = committed(b -> {
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
        case PROJECT: b.setProject(TransactionProtos.Transaction.Project.newBuilder().addAllSchema(
            manifest(List.of()).proto().getFieldsList())); break;
        case UPDATE_CONFIG: b.setUpdateConfig(TransactionProtos.Transaction.UpdateConfig.getDefaultInstance()); break;
        case DATA_REPLACEMENT: b.setDataReplacement(TransactionProtos.Transaction.DataReplacement.getDefaultInstance()); break;
        case UPDATE_MEM_WAL_STATE: b.setUpdateMemWalState(TransactionProtos.Transaction.UpdateMemWalState.getDefaultInstance()); break;
        case CLONE: b.setClone(TransactionProtos.Transaction.Clone.getDefaultInstance()); break;
        case UPDATE_BASES: b.setUpdateBases(TransactionProtos.Transaction.UpdateBases.getDefaultInstance()); break;
        case UNKNOWN: break;
      }
    });
    assertThat(ConflictRules.check(repack(false), theirs)).isEqualTo(conflict ? CONFLICT : COMPATIBLE);
  }

  @Test
  void testConflictsDataReplacement() throws Exception {
    Transaction mine = repack(false);
    // Deleting some rows of the fragment is kept; deleting the whole fragment is not.
    assertThat(ConflictRules.check(mine, committed(b -> b.setDelete(TransactionProtos.Transaction.Delete.newBuilder()
        .addUpdatedFragments(frag(1)))))).isEqualTo(COMPATIBLE);
    assertThat(ConflictRules.check(mine, committed(b -> b.setDelete(TransactionProtos.Transaction.Delete.newBuilder()
        .addDeletedFragmentIds(1))))).isEqualTo(CONFLICT);
    // An update of a moved column conflicts; of another column (or another fragment) it does not.
    assertThat(ConflictRules.check(mine, committed(b -> b.setUpdate(TransactionProtos.Transaction.Update.newBuilder()
        .addUpdatedFragments(frag(1)).addFieldsModified(3))))).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(mine, committed(b -> b.setUpdate(TransactionProtos.Transaction.Update.newBuilder()
        .addUpdatedFragments(frag(1)).addFieldsModified(0))))).isEqualTo(COMPATIBLE);
    assertThat(ConflictRules.check(mine, committed(b -> b.setUpdate(TransactionProtos.Transaction.Update.newBuilder()
        .addUpdatedFragments(frag(2)).addFieldsModified(3))))).isEqualTo(COMPATIBLE);
    assertThat(ConflictRules.check(mine, committed(b -> b.setUpdate(TransactionProtos.Transaction.Update.newBuilder()
        .addRemovedFragmentIds(1))))).isEqualTo(CONFLICT);
    // A rewrite of the fragment conflicts.
    var rw = TransactionProtos.Transaction.Rewrite.newBuilder();
    rw.addGroupsBuilder().addOldFragments(frag(1));
    assertThat(ConflictRules.check(mine, committed(b -> b.setRewrite(rw)))).isEqualTo(CONFLICT);
    // Another replacement of the same fragment and field conflicts, of other fields it does not.
    assertThat(ConflictRules.check(mine, committed(b -> b.setDataReplacement(repack(false).proto()
        .getDataReplacement())))).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(mine, committed(b -> b.setDataReplacement(Transaction.dataReplacement(5,
        List.of(1L), List.of(DataFile.fromProto(file("z", 0))), true).proto().getDataReplacement()))))
        .isEqualTo(COMPATIBLE);
    // Dropping a moved column conflicts; dropping another is kept.
    var fields = manifest(List.of()).proto().getFieldsList();
    assertThat(ConflictRules.check(mine, committed(b -> b.setProject(TransactionProtos.Transaction.Project.newBuilder()
        .addAllSchema(fields.subList(0, 3)))))).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(mine, committed(b -> b.setProject(TransactionProtos.Transaction.Project.newBuilder()
        .addAllSchema(fields.subList(1, 4)))))).isEqualTo(COMPATIBLE);
    // An index build on a moved field: fine without a data change, a conflict with one.
    var idx = TransactionProtos.Transaction.CreateIndex.newBuilder().addNewIndices(index("i", 2, 1));
    assertThat(ConflictRules.check(mine, committed(b -> b.setCreateIndex(idx)))).isEqualTo(COMPATIBLE);
    assertThat(ConflictRules.check(repack(true), committed(b -> b.setCreateIndex(idx)))).isEqualTo(CONFLICT);
  }

  @Test
  void rewriteConflictsWithChangesOfItsFragments() throws Exception {
    Transaction mine = Transaction.rewrite(5, List.of(List.of(Fragment.fromProto(frag(1)))),
        List.of(List.of(Fragment.fromProto(frag(3)))));
    assertThat(ConflictRules.check(mine, committed(b -> b.setDelete(TransactionProtos.Transaction.Delete.newBuilder()
        .addUpdatedFragments(frag(1)))))).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(mine, committed(b -> b.setDelete(TransactionProtos.Transaction.Delete.newBuilder()
        .addUpdatedFragments(frag(2)))))).isEqualTo(COMPATIBLE);
    assertThat(ConflictRules.check(mine, repack(false))).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(mine, committed(b -> b.setCreateIndex(TransactionProtos.Transaction.CreateIndex
        .newBuilder().addNewIndices(index("i", 0, 1)))))).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(mine, committed(b -> b.setCreateIndex(TransactionProtos.Transaction.CreateIndex
        .newBuilder().addNewIndices(index("i", 0, 2)))))).isEqualTo(COMPATIBLE);
    assertThat(ConflictRules.check(mine, committed(b -> b.setMerge(TransactionProtos.Transaction.Merge
        .getDefaultInstance())))).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(mine, committed(b -> b.setAppend(TransactionProtos.Transaction.Append
        .getDefaultInstance())))).isEqualTo(COMPATIBLE);
    assertThat(ConflictRules.check(Transaction.reserveFragments(5, 2), repack(false))).isEqualTo(COMPATIBLE);
    assertThat(ConflictRules.check(Transaction.reserveFragments(5, 2), committed(b -> b.setOverwrite(
        TransactionProtos.Transaction.Overwrite.getDefaultInstance())))).isEqualTo(CONFLICT);
  }

  @Test
  void reserveThenRewriteKeepsFragmentsInIdOrder() throws Exception {
    Manifest reserved = build(Transaction.reserveFragments(5, 2), manifest(List.of()));
    assertThat(reserved.maxFragmentId()).hasValue(4);
    assertThat(reserved.fragments()).hasSize(2);
    Transaction rw = Transaction.rewrite(6, List.of(List.of(Fragment.fromProto(frag(1)))),
        List.of(List.of(Fragment.fromProto(frag(3)), Fragment.fromProto(frag(4)))));
    Manifest next = build(rw, reserved);
    assertThat(next.fragments()).extracting(Fragment::id).containsExactly(2L, 3L, 4L); // in id order, as Lance
    assertThat(next.maxFragmentId()).hasValue(4);
    // Rewriting fragments an index covers needs the Rewrite to remap it.
    Manifest indexed = manifest(List.of(index("i", 0, 1)));
    assertThatThrownBy(() -> build(rw, indexed)).isInstanceOf(IllegalStateException.class)
        .hasMessage("Index 'i' covers fragments this Rewrite replaces but the Rewrite does not remap it: loc");
  }

  @Test
  void rewrittenIndexTakesItsNewUuidAndMovesCoverageToTheNewFragments() {
    TableProtos.UUID oldId = TableProtos.UUID.newBuilder().setUuid(ByteString.copyFromUtf8("old-uuid-1234567")).build();
    TableProtos.UUID newId = TableProtos.UUID.newBuilder().setUuid(ByteString.copyFromUtf8("new-uuid-1234567")).build();
    Manifest indexed = manifest(List.of(index("i", 0, 1, 2).toBuilder().setUuid(oldId).build(),
        index("other", 1, 2)));
    var remapped = TransactionProtos.Transaction.Rewrite.RewrittenIndex.newBuilder().setOldId(oldId).setNewId(newId)
        .setNewIndexDetails(com.google.protobuf.Any.newBuilder().setTypeUrl("/lance.table.BTreeIndexDetails"))
        .build();
    Transaction rw = Transaction.rewrite(5, List.of(List.of(Fragment.fromProto(frag(1)))),
        List.of(List.of(Fragment.fromProto(frag(3)), Fragment.fromProto(frag(4)))), List.of(remapped));
    Manifest next = build(rw, indexed);
    assertThat(next.indices()).hasSize(2);
    IndexMetadata i = next.indices().get(0);
    assertThat(i.uuidBytes()).isEqualTo(newId.getUuid());
    assertThat(i.fragmentBitmap().toArray()).containsExactly(2, 3, 4);
    assertThat(next.indices().get(1).fragmentBitmap().toArray()).containsExactly(2);
    // An index the Rewrite names but the version lacks is refused.
    Transaction stale = Transaction.rewrite(5, List.of(List.of(Fragment.fromProto(frag(2)))),
        List.of(List.of(Fragment.fromProto(frag(3)))), List.of(remapped.toBuilder().setOldId(newId).build()));
    assertThatThrownBy(() -> build(stale, manifest(List.of()))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("A Rewrite remaps an index that is not in version 5: loc");
  }

  @Test
  void deleteRebasesOverARepackOfItsFragmentButNotOverADataChange() {
    Transaction delete = Transaction.delete(5, List.of(Fragment.fromProto(frag(1))), List.of(), "");
    assertThat(ConflictRules.check(delete, repack(false))).isEqualTo(ConflictRules.Resolution.REBASE);
    assertThat(ConflictRules.check(delete, repack(true))).isEqualTo(CONFLICT);
    Transaction other = Transaction.delete(5, List.of(Fragment.fromProto(frag(2))), List.of(), "");
    assertThat(ConflictRules.check(other, repack(false))).isEqualTo(COMPATIBLE);
  }
}
