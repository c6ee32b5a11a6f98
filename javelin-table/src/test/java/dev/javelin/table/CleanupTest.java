package dev.javelin.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.javelin.table.exceptions.CleanupRefusedException;
import dev.javelin.table.exceptions.VersionNotFoundException;
import dev.javelin.table.proto.TableProtos;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CleanupTest extends TableTestBase {
  private static String data(Fragment f) {
    return "data/" + f.files().get(0).path();
  }

  private Manifest overwrite(long readVersion, Fragment... fragments) {
    return table.newCommit(Transaction.overwrite(readVersion, SCHEMA, List.of(fragments))).commit();
  }

  private CleanupResult cleanup(CleanupPolicy.Builder policy) {
    return Cleanup.run(table, policy.build());
  }

  // Every kept version loads and each of its files exists.
  private void assertKeptVersionsIntact() throws Exception {
    for (long v : table.listVersions().keySet()) {
      Manifest m = table.load(v);
      for (Fragment f : m.fragments()) {
        for (DataFile d : f.files()) {
          assertThat(local.exists("data/" + d.path())).as("v%d %s", v, d.path()).isTrue();
        }
        if (f.deletionFile().isPresent()) {
          assertThat(local.exists(f.deletionFile().get().key(f.id()))).isTrue();
        }
      }
      assertThat(table.transaction(m)).as("transaction of v%d", v).isPresent();
    }
  }

  @Test
  void appendsShareFilesSoOnlyManifestsAndTransactionsGo() throws Exception {
    Fragment a = fragment(10);
    Fragment b = fragment(10);
    Fragment c = fragment(10);
    create(a);
    Manifest v2 = append(1, b);
    append(2, c);
    String txn1 = "_transactions/" + table.load(1).transactionFile();
    CleanupResult r = cleanup(CleanupPolicy.builder().beforeVersion(3));
    assertThat(r.removedVersions()).containsExactly(1L, 2L);
    assertThat(r.dataFilesRemoved()).isZero();
    assertThat(r.transactionFilesRemoved()).isEqualTo(2);
    assertThat(local.exists(txn1)).isFalse();
    assertThat(table.listVersions().keySet()).containsExactly(3L);
    assertThat(local.exists(data(a))).isTrue();
    assertThat(local.exists(data(b))).isTrue();
    assertThat(r.bytesRemoved()).isGreaterThan(local.read(ManifestNaming.V2.key(3)).length);
    assertKeptVersionsIntact();
    assertThatThrownBy(() -> table.load(v2.version())).isInstanceOf(VersionNotFoundException.class);
  }

  @Test
  void filesOnlyOverwrittenVersionsUsedGo() throws Exception {
    Fragment a = fragment(10);
    Fragment b = fragment(10);
    Fragment c = fragment(10);
    create(a);
    append(1, b);
    overwrite(2, c);
    CleanupResult r = cleanup(CleanupPolicy.builder().retainVersions(1));
    assertThat(r.removedVersions()).containsExactly(1L, 2L);
    assertThat(r.dataFilesRemoved()).isEqualTo(2);
    assertThat(local.exists(data(a))).isFalse();
    assertThat(local.exists(data(b))).isFalse();
    assertThat(local.exists(data(c))).isTrue();
    assertKeptVersionsIntact();
  }

  @Test
  void retainVersionsKeepsTheNewestN() throws Exception {
    Fragment a = fragment(1);
    create(a);
    for (int v = 1; v < 5; v++) {
      overwrite(v, fragment(1));
    }
    assertThat(cleanup(CleanupPolicy.builder().retainVersions(2)).removedVersions()).containsExactly(1L, 2L, 3L);
    assertThat(table.listVersions().keySet()).containsExactly(4L, 5L);
    assertThat(cleanup(CleanupPolicy.builder().retainVersions(5)).removedVersions()).isEmpty();
    assertKeptVersionsIntact();
  }

  @Test
  void aRestoredVersionKeepsItsFiles() throws Exception {
    Fragment a = fragment(10);
    Fragment b = fragment(10);
    Manifest v1 = create(a);
    overwrite(1, b);
    table.newCommit(Transaction.restore(2, table.load(1))).commit();
    CleanupResult r = cleanup(CleanupPolicy.builder().beforeVersion(3));
    assertThat(r.removedVersions()).containsExactly(1L, 2L);
    assertThat(local.exists(data(a))).isTrue();
    assertThat(local.exists(data(b))).isFalse();
    assertThat(table.latest().fragments()).isEqualTo(v1.fragments());
    assertKeptVersionsIntact();
  }

  @Test
  void theNewestVersionIsAlwaysKept() throws Exception {
    Fragment a = fragment(10);
    create(a);
    CleanupResult r = cleanup(CleanupPolicy.builder().beforeVersion(100).beforeTimestamp(Instant.now().plusSeconds(60)));
    assertThat(r.removedVersions()).isEmpty();
    assertThat(local.exists(data(a))).isTrue();
    assertKeptVersionsIntact();
  }

  @Test
  void criteriaMustAllHold() throws Exception {
    create(fragment(1));
    overwrite(1, fragment(1));
    overwrite(2, fragment(1));
    // Old enough by version, too young by age: kept.
    assertThat(cleanup(CleanupPolicy.builder().beforeVersion(3).olderThan(Duration.ofHours(1))).removedVersions())
        .isEmpty();
    assertThat(cleanup(CleanupPolicy.builder().beforeVersion(2).olderThan(Duration.ZERO)).removedVersions())
        .containsExactly(1L);
  }

  @Test
  void taggedVersionsAreKept() throws Exception {
    Fragment a = fragment(10);
    create(a);
    Thread.sleep(20); // file times come from a coarse clock
    Fragment b = fragment(10);
    Fragment c = fragment(10);
    overwrite(1, b);
    overwrite(2, c);
    Tags.of(table).create("keep", 1);
    assertThatThrownBy(() -> cleanup(CleanupPolicy.builder().beforeVersion(3).errorIfTaggedOldVersions(true)))
        .isInstanceOf(CleanupRefusedException.class)
        .hasMessage("Cleanup would remove tagged versions ({keep=1}); delete those tags or let the cleanup keep"
            + " them: " + local.location());
    assertThat(table.listVersions().keySet()).containsExactly(1L, 2L, 3L);

    CleanupResult r = cleanup(CleanupPolicy.builder().beforeVersion(3));
    assertThat(r.removedVersions()).containsExactly(2L);
    assertThat(local.exists(data(a))).isTrue();
    // Like Lance, nothing written after the oldest kept version (v1) is removed, so b stays.
    assertThat(local.exists(data(b))).isTrue();
    assertKeptVersionsIntact();

    Tags.of(table).delete("keep");
    r = cleanup(CleanupPolicy.builder().beforeVersion(3));
    assertThat(r.removedVersions()).containsExactly(1L);
    assertThat(local.exists(data(a))).isFalse();
    // b is referenced by no manifest any more: unverified, and young, so kept unless asked.
    assertThat(local.exists(data(b))).isTrue();
    r = cleanup(CleanupPolicy.builder().deleteUnverified(true));
    assertThat(r.dataFilesRemoved()).isEqualTo(1);
    assertThat(local.exists(data(b))).isFalse();
    assertThat(local.exists(data(c))).isTrue();
    assertKeptVersionsIntact();
  }

  @Test
  void unreferencedFilesWaitForTheGracePeriod() throws Exception {
    Fragment a = fragment(10);
    create(a);
    local.put("data/orphan.lance", "x".getBytes(StandardCharsets.UTF_8));
    local.put("_transactions/9-orphan.txn", "x".getBytes(StandardCharsets.UTF_8));
    local.put("data/notes.txt", "x".getBytes(StandardCharsets.UTF_8));
    Thread.sleep(20);
    append(1, fragment(1));
    Thread.sleep(20);
    local.put("data/inflight.lance", "x".getBytes(StandardCharsets.UTF_8));
    // Removes v1, whose files v2 keeps using.
    CleanupPolicy removeV1 = CleanupPolicy.builder().beforeVersion(2).build();
    assertThat(Cleanup.run(table, removeV1).dataFilesRemoved()).isZero();
    assertThat(local.exists("data/orphan.lance")).isTrue();
    // Eight days later the orphans are old enough; the in-flight file is newer than every kept
    // version, so it may belong to a commit not visible yet: never removed.
    CleanupResult r = Cleanup.run(table, removeV1, Instant.now().plus(Duration.ofDays(8)));
    assertThat(r.dataFilesRemoved()).isEqualTo(1);
    assertThat(r.transactionFilesRemoved()).isEqualTo(1);
    assertThat(local.exists("data/orphan.lance")).isFalse();
    assertThat(local.exists("_transactions/9-orphan.txn")).isFalse();
    assertThat(local.exists("data/inflight.lance")).isTrue();
    assertThat(local.exists("data/notes.txt")).isTrue();
    assertThat(Cleanup.run(table, CleanupPolicy.builder().deleteUnverified(true).build()).dataFilesRemoved()).isZero();
    assertThat(local.exists("data/inflight.lance")).isTrue();
    assertKeptVersionsIntact();
  }

  @Test
  void aShorterGracePeriod() throws Exception {
    create(fragment(10));
    local.put("data/orphan.lance", "x".getBytes(StandardCharsets.UTF_8));
    Thread.sleep(20);
    append(1, fragment(1));
    CleanupPolicy policy = CleanupPolicy.builder().beforeVersion(2).gracePeriod(Duration.ofHours(1)).build();
    assertThat(Cleanup.run(table, policy, Instant.now().plus(Duration.ofMinutes(30))).dataFilesRemoved()).isZero();
    assertThat(Cleanup.run(table, policy, Instant.now().plus(Duration.ofMinutes(90))).dataFilesRemoved()).isOne();
  }

  @Test
  void v1ManifestNames() throws Exception {
    Fragment a = fragment(10);
    table.newCommit(Transaction.overwrite(0, SCHEMA, List.of(a))).naming(ManifestNaming.V1).commit();
    Fragment b = fragment(3);
    overwrite(1, b);
    append(2, fragment(3));
    CleanupResult r = cleanup(CleanupPolicy.builder().retainVersions(2));
    assertThat(r.removedVersions()).containsExactly(1L);
    assertThat(local.exists("_versions/1.manifest")).isFalse();
    assertThat(local.exists("_versions/2.manifest")).isTrue();
    assertThat(local.exists(data(a))).isFalse();
    assertThat(local.exists(data(b))).isTrue();
    assertKeptVersionsIntact();
  }

  @Test
  void deletionFilesOfRemovedVersionsGo() throws Exception {
    String delKey = "_deletions/0-1-42.arrow";
    local.put(delKey, "deleted rows".getBytes(StandardCharsets.UTF_8));
    Fragment withDeletions = Fragment.fromProto(fragment(10).proto().toBuilder()
        .setDeletionFile(TableProtos.DeletionFile.newBuilder()
            .setFileType(TableProtos.DeletionFile.DeletionFileType.ARROW_ARRAY)
            .setReadVersion(1).setId(42).setNumDeletedRows(2))
        .build());
    Manifest v1 = create(withDeletions);
    assertThat(v1.fragments().get(0).deletionFile().get().key(0)).isEqualTo(delKey);
    append(1, fragment(1));
    // Shared by v1 and v2: kept.
    assertThat(cleanup(CleanupPolicy.builder().beforeVersion(2)).deletionFilesRemoved()).isZero();
    assertThat(local.exists(delKey)).isTrue();
    overwrite(2, fragment(1));
    CleanupResult r = cleanup(CleanupPolicy.builder().retainVersions(1));
    assertThat(r.deletionFilesRemoved()).isOne();
    assertThat(local.exists(delKey)).isFalse();
    assertKeptVersionsIntact();
  }

  @Test
  void indicesStayWhileAKeptVersionHasThem() throws Exception {
    create(fragment(10));
    Manifest v2 = append(1, fragment(1));
    // Give v2 an index entry, as if Lance had created an index.
    UUID uuid = UUID.randomUUID();
    ByteBuffer bytes = ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits())
        .putLong(uuid.getLeastSignificantBits());
    IndexMetadata index = IndexMetadata.fromProto(TableProtos.IndexMetadata.newBuilder()
        .setUuid(TableProtos.UUID.newBuilder().setUuid(ByteString.copyFrom(bytes.array())))
        .addFields(0).setName("id_idx").setDatasetVersion(2).build());
    local.put("_indices/" + uuid + "/page_lookup.lance", "x".getBytes(StandardCharsets.UTF_8));
    local.put("_indices/" + uuid + "/page_data.lance", "x".getBytes(StandardCharsets.UTF_8));
    local.put("_indices/" + UUID.randomUUID() + "/old.idx", "x".getBytes(StandardCharsets.UTF_8));
    Thread.sleep(20);
    replaceObject(ManifestNaming.V2.key(2), ManifestFiles.encode(
        new Manifest(v2.proto(), List.of(index), v2.inlineTransaction().orElseThrow())));
    append(2, fragment(1)); // carries the index
    overwrite(3, fragment(1)); // drops it
    CleanupResult r = cleanup(CleanupPolicy.builder().retainVersions(2));
    assertThat(r.indicesRemoved()).isZero();
    assertThat(local.exists("_indices/" + uuid + "/page_data.lance")).isTrue();
    r = cleanup(CleanupPolicy.builder().retainVersions(1));
    // Its own index was verified garbage; the never-referenced one is young, so it waits.
    assertThat(r.indicesRemoved()).isOne();
    assertThat(r.indexFilesRemoved()).isEqualTo(2);
    assertThat(local.list("_indices/")).hasSize(1);
    assertKeptVersionsIntact();
  }

  @Test
  void noDataset() {
    assertThatThrownBy(() -> cleanup(CleanupPolicy.builder())).isInstanceOf(VersionNotFoundException.class)
        .hasMessage("No dataset (no manifest in _versions/): " + local.location());
  }

  @Test
  void policyArguments() {
    assertThatThrownBy(() -> CleanupPolicy.builder().retainVersions(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("retainVersions must be at least 1: 0");
    assertThatThrownBy(() -> CleanupPolicy.builder().olderThan(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("olderThan must not be negative: PT-1S");
  }
}
