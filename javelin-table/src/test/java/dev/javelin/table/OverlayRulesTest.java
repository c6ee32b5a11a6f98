package dev.javelin.table;

import static dev.javelin.table.CompactionRulesTest.build;
import static dev.javelin.table.CompactionRulesTest.file;
import static dev.javelin.table.CompactionRulesTest.frag;
import static dev.javelin.table.CompactionRulesTest.index;
import static dev.javelin.table.CompactionRulesTest.manifest;
import static dev.javelin.table.CompactionRulesTest.repack;
import static dev.javelin.table.ConflictRules.Resolution.COMPATIBLE;
import static dev.javelin.table.ConflictRules.Resolution.CONFLICT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.table.proto.TableProtos;
import dev.javelin.table.proto.TransactionProtos;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Data overlays in the manifest (flag, versions, which operations keep them) and their conflict rules. */
class OverlayRulesTest {
  // An overlay update of fragment `id` giving new values of `field` (fragments 1 and 2 of CompactionRulesTest).
  private static Transaction overlayUpdate(long id, int field) {
    Fragment f = Fragment.fromProto(frag(id)).withOverlay(Overlay.of(DataFile.fromProto(file("o" + id, field)), 3));
    return Transaction.overlayUpdate(5, List.of(f), List.of(field));
  }

  private static Transaction delete(long id) {
    TableProtos.DataFragment f = frag(id).toBuilder().setDeletionFile(TableProtos.DeletionFile.newBuilder()
        .setFileType(TableProtos.DeletionFile.DeletionFileType.BITMAP).setId(7).setReadVersion(5).setNumDeletedRows(1))
        .build();
    return Transaction.delete(5, List.of(Fragment.fromProto(f)), List.of(), "c0 = 1");
  }

  private static Transaction rewriteRows(long id) {
    return Transaction.update(5, List.of(Fragment.fromProto(frag(id))), List.of(), List.of(), List.of(), List.of(2),
        TransactionProtos.Transaction.UpdateMode.REWRITE_ROWS);
  }

  private static Transaction rewrite(long id) {
    TableProtos.DataFragment out = TableProtos.DataFragment.newBuilder().setId(3).setPhysicalRows(10)
        .addFiles(file("new", 0, 1, 2, 3)).build();
    return Transaction.rewrite(5, List.of(List.of(Fragment.fromProto(frag(id)))), List.of(List.of(Fragment.fromProto(out))));
  }

  private static boolean flagged(Manifest m) {
    return (m.readerFeatureFlags() & FeatureFlags.OVERLAYS) != 0 && (m.writerFeatureFlags() & FeatureFlags.OVERLAYS) != 0;
  }

  @Test
  void anOverlayUpdateIsStampedFlaggedAndPrunesIndicesOfItsFields() throws Exception {
    Manifest current = manifest(List.of(index("on_a", 2, 1, 2), index("on_base", 0, 1, 2)));
    assertThat(flagged(current)).isFalse();
    Manifest next = build(overlayUpdate(1, 2), current);
    Fragment f = next.fragments().get(0);
    assertThat(f.overlays()).hasSize(1);
    assertThat(f.overlays().get(0).committedVersion()).isEqualTo(6);
    assertThat(f.overlays().get(0).fieldIds()).containsExactly(2);
    assertThat(f.files()).isEqualTo(Fragment.fromProto(frag(1)).files());
    assertThat(flagged(next)).isTrue();
    assertThat(FeatureFlags.OVERLAYS).isEqualTo(1L << 40);
    assertThat(FeatureFlags.describe(next.readerFeatureFlags())).isEqualTo("data overlays (Javelin)");
    assertThat(next.indices().get(0).fragmentBitmap().toArray()).containsExactly(2);
    assertThat(next.indices().get(1).fragmentBitmap().toArray()).containsExactly(1, 2);
    // A second overlay is newer; the list reads oldest first whatever order the protobuf has.
    Manifest third = build(Transaction.overlayUpdate(6, List.of(Fragment.fromProto(next.proto().getFragments(0))
        .withOverlay(Overlay.of(DataFile.fromProto(file("p1", 2, 3)), 4))), List.of(2, 3)), next);
    assertThat(third.fragments().get(0).overlays()).extracting(Overlay::committedVersion).containsExactly(6L, 7L);
    TableProtos.DataFragment reversed = third.proto().getFragments(0).toBuilder().clearJavelinOverlays()
        .addJavelinOverlays(third.proto().getFragments(0).getJavelinOverlays(1))
        .addJavelinOverlays(third.proto().getFragments(0).getJavelinOverlays(0)).build();
    assertThat(Fragment.fromProto(reversed).overlays()).extracting(Overlay::path).containsExactly("o1", "p1");
  }

  @Test
  void testDataReplacementWithoutDataChangeKeepsOverlays() {
    Manifest withOverlay = build(overlayUpdate(1, 2), manifest(List.of()));
    Manifest next = build(repack(false), withOverlay);
    assertThat(next.fragments().get(0).files()).extracting(DataFile::path).containsExactly("base1", "ab");
    assertThat(next.fragments().get(0).overlays()).isEqualTo(withOverlay.fragments().get(0).overlays());
    assertThat(flagged(next)).isTrue();
    // One that changes the data of the overlaid field ends the overlay, and the flag with it.
    Manifest changed = build(repack(true), withOverlay);
    assertThat(changed.fragments().get(0).overlays()).isEmpty();
    assertThat(flagged(changed)).isFalse();
  }

  @Test
  void aDataChangeOfSomeOverlaidFieldsTombstonesOnlyThose() {
    Fragment f = Fragment.fromProto(frag(1)).withOverlay(Overlay.of(DataFile.fromProto(file("o", 1, 2)), 3));
    Manifest withOverlay = build(Transaction.overlayUpdate(5, List.of(f), List.of(1, 2)), manifest(List.of()));
    Manifest next = build(repack(true), withOverlay); // replaces fields 2 and 3
    assertThat(next.fragments().get(0).overlays()).singleElement()
        .satisfies(o -> assertThat(o.file().fields()).containsExactly(1, -2));
    assertThat(flagged(next)).isTrue();
  }

  @Test
  void aRewriteLeavesNoOverlayAndClearsTheFlag() {
    Manifest withOverlay = build(overlayUpdate(1, 2), manifest(List.of()));
    Manifest next = build(rewrite(1), withOverlay);
    assertThat(next.fragments()).allMatch(f -> f.overlays().isEmpty());
    assertThat(flagged(next)).isFalse();
    // A delete of other rows keeps them.
    assertThat(flagged(build(delete(2), withOverlay))).isTrue();
  }

  @Test
  void anOverlayUpdateConflictsLikeAnUpdateOfTheSameFragment() {
    Transaction mine = overlayUpdate(1, 2);
    assertThat(ConflictRules.check(mine, delete(1))).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(mine, delete(2))).isEqualTo(COMPATIBLE);
    assertThat(ConflictRules.check(mine, rewriteRows(1))).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(mine, rewriteRows(2))).isEqualTo(COMPATIBLE);
    assertThat(ConflictRules.check(mine, overlayUpdate(1, 3))).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(mine, overlayUpdate(2, 2))).isEqualTo(COMPATIBLE);
    assertThat(ConflictRules.check(mine, rewrite(1))).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(mine, rewrite(2))).isEqualTo(COMPATIBLE);
    assertThat(ConflictRules.check(mine, repack(false))).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(mine, Transaction.dataReplacement(5, List.of(2L),
        List.of(DataFile.fromProto(file("x", 2))), false))).isEqualTo(COMPATIBLE);
  }

  @Test
  void changesOfAFragmentConflictWithACommittedOverlayUpdateOfIt() {
    Transaction theirs = overlayUpdate(1, 2);
    // A delete or row update read values the overlay changed: a rebase would act on stale values.
    assertThat(ConflictRules.check(delete(1), theirs)).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(delete(2), theirs)).isEqualTo(COMPATIBLE);
    assertThat(ConflictRules.check(rewriteRows(1), theirs)).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(rewrite(1), theirs)).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(rewrite(2), theirs)).isEqualTo(COMPATIBLE);
    // A repack of the overlaid field retries; one of other fields of the fragment commits over it.
    assertThat(ConflictRules.check(repack(false), theirs)).isEqualTo(CONFLICT);
    assertThat(ConflictRules.check(Transaction.dataReplacement(5, List.of(1L),
        List.of(DataFile.fromProto(file("x", 3))), false), theirs)).isEqualTo(COMPATIBLE);
  }
}
