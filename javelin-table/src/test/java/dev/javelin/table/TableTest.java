package dev.javelin.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.table.exceptions.UnsupportedFeatureException;
import dev.javelin.table.exceptions.VersionNotFoundException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableTest extends TableTestBase {
  @Test
  void versionsAreFoundByListingNotByTheHint() throws Exception {
    Table onDisk = Table.at(local);
    onDisk.newCommit(Transaction.overwrite(0, SCHEMA, List.of(fragment(10)))).commit();
    onDisk.newCommit(Transaction.append(1, List.of(fragment(20)))).commit();
    assertThat(new String(local.read(Table.HINT), StandardCharsets.UTF_8)).isEqualTo("{\"version\":2}");
    // A stale or broken hint changes nothing.
    local.put(Table.HINT, "{\"version\":1}".getBytes(StandardCharsets.UTF_8));
    assertThat(table.latest().version()).isEqualTo(2);
    local.put(Table.HINT, "garbage".getBytes(StandardCharsets.UTF_8));
    assertThat(table.latest().version()).isEqualTo(2);
    assertThat(table.listVersions().keySet()).containsExactly(1L, 2L);
  }

  @Test
  void noHintIsWrittenToARemoteStore() throws Exception {
    // Every commit would pay a round trip for it; lance-core writes none to object stores either.
    create(fragment(10));
    append(1, fragment(20));
    assertThat(local.exists(Table.HINT)).isFalse();
    assertThat(table.latest().version()).isEqualTo(2);
  }

  @Test
  void detachedManifestsAreIgnored() throws Exception {
    create(fragment(10));
    local.put("_versions/d7.manifest", local.read(ManifestNaming.V2.key(1)));
    assertThat(table.listVersions().keySet()).containsExactly(1L);
    assertThat(append(1, fragment(3)).version()).isEqualTo(2);
  }

  @Test
  void aDatasetKeepsItsNamingScheme() throws Exception {
    table.newCommit(Transaction.overwrite(0, SCHEMA, List.of(fragment(10)))).naming(ManifestNaming.V1).commit();
    append(1, fragment(1));
    assertThat(local.exists("_versions/1.manifest")).isTrue();
    assertThat(local.exists("_versions/2.manifest")).isTrue();
    assertThat(table.naming()).contains(ManifestNaming.V1);
  }

  @Test
  void fragmentIdsFollowMaxFragmentIdAndOverwriteRestarts() throws Exception {
    Manifest v1 = create(fragment(10), fragment(20));
    assertThat(v1.fragments()).extracting(Fragment::id).containsExactly(0L, 1L);
    Manifest v2 = append(1, fragment(5));
    assertThat(v2.fragments()).extracting(Fragment::id).containsExactly(0L, 1L, 2L);
    assertThat(v2.maxFragmentId()).hasValue(2);
    assertThat(v2.countRows()).isEqualTo(35);
    Manifest v3 = table.newCommit(Transaction.overwrite(2, SCHEMA, List.of(fragment(7)))).commit();
    assertThat(v3.fragments()).extracting(Fragment::id).containsExactly(0L);
    assertThat(v3.countRows()).isEqualTo(7);
    // Old versions stay readable.
    assertThat(table.load(2).countRows()).isEqualTo(35);
    assertThatThrownBy(() -> table.load(9)).isInstanceOf(VersionNotFoundException.class)
        .hasMessage("Dataset has no version 9: " + local.location());
  }

  @Test
  void noDataset() {
    assertThatThrownBy(() -> table.latest()).isInstanceOf(VersionNotFoundException.class)
        .hasMessage("No dataset (no manifest in _versions/): " + local.location());
  }

  @Test
  void unknownReaderFlagsRefuseToOpen() throws Exception {
    Manifest m = create(fragment(10));
    rewriteVersion1(m, m.proto().toBuilder().setReaderFeatureFlags(64 | 16 | 1).setWriterFeatureFlags(64 | 1).build());
    assertThatThrownBy(() -> table.latest()).isInstanceOf(UnsupportedFeatureException.class)
        .hasMessage("Dataset version 1 needs reader features Javelin lacks (unknown flag 64; flags 64): "
            + local.location())
        .satisfies(e -> assertThat(((UnsupportedFeatureException) e).flags()).isEqualTo(64));
  }

  @Test
  void unknownWriterFlagsRefuseToCommitAndCleanUp() throws Exception {
    Manifest m = create(fragment(10));
    rewriteVersion1(m, m.proto().toBuilder().setWriterFeatureFlags(128).build());
    assertThat(table.latest().version()).isEqualTo(1); // still readable
    Fragment f = fragment(3);
    assertThatThrownBy(() -> append(1, f)).isInstanceOf(UnsupportedFeatureException.class)
        .hasMessageContaining("writer features Javelin lacks (unknown flag 128; flags 128)");
    assertThat(local.exists("data/" + f.files().get(0).path())).isFalse();
    assertThat(local.list("_transactions/")).hasSize(1);
  }

  @Test
  void flagsFollowContent() throws Exception {
    Manifest m = create(fragment(10));
    assertThat(m.readerFeatureFlags()).isZero();
    assertThat(m.writerFeatureFlags()).isZero();
    Fragment withDeletions = Fragment.fromProto(m.fragments().get(0).proto().toBuilder()
        .setDeletionFile(dev.javelin.table.proto.TableProtos.DeletionFile.newBuilder().setNumDeletedRows(2)).build());
    rewriteVersion1(m, m.proto().toBuilder().clearFragments().addFragments(withDeletions.proto())
        .putConfig("k", "v").build());
    Manifest v2 = append(1, fragment(1));
    assertThat(v2.readerFeatureFlags()).isEqualTo(FeatureFlags.DELETION_FILES);
    assertThat(v2.writerFeatureFlags()).isEqualTo(FeatureFlags.DELETION_FILES | FeatureFlags.TABLE_CONFIG);
    assertThat(v2.countRows()).isEqualTo(9);
  }

  private void rewriteVersion1(Manifest m, dev.javelin.table.proto.TableProtos.Manifest proto) throws Exception {
    replaceObject(ManifestNaming.V2.key(1),
        ManifestFiles.encode(new Manifest(proto, m.indices(), m.inlineTransaction().get())));
  }
}
