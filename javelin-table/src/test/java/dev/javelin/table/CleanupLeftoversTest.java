package dev.javelin.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.io.ObjectInfo;
import dev.javelin.table.exceptions.CorruptManifestException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What a killed writer leaves (the store's staged {@code .tmp-*} files) and a damaged newest
 * manifest, as cleanup and restore meet them.
 */
class CleanupLeftoversTest extends TableTestBase {
  private static final Duration PAST_GRACE = CleanupPolicy.DEFAULT_GRACE_PERIOD.plusDays(1);

  // The names LocalObjectStore stages put / putIfAbsent under, next to each kind of target.
  private List<String> leaveTemporaries() throws Exception {
    List<String> keys = List.of(
        "_versions/.tmp-latest_version_hint.json-" + UUID.randomUUID(),
        "_versions/.tmp-" + ManifestNaming.V2.key(9).substring(Table.VERSIONS.length()) + "-" + UUID.randomUUID(),
        "_transactions/.tmp-9-" + UUID.randomUUID() + ".txn-" + UUID.randomUUID(),
        "_refs/tags/.tmp-nightly.json-" + UUID.randomUUID());
    for (String k : keys) {
      Files.createDirectories(local.path(k).getParent());
      Files.write(local.path(k), "staged".getBytes(StandardCharsets.UTF_8));
    }
    return keys;
  }

  @Test
  void temporaryFilesGoOnceOlderThanTheGracePeriod() throws Exception {
    create(fragment(10));
    append(1, fragment(5));
    List<String> temporaries = leaveTemporaries();
    assertThat(local.list("").stream().map(ObjectInfo::key)).doesNotContainAnyElementsOf(temporaries);
    assertThat(local.listTemporary("").stream().map(ObjectInfo::key)).containsExactlyInAnyOrderElementsOf(temporaries);

    // Young: a write in flight may own them.
    CleanupResult young = Cleanup.run(table, CleanupPolicy.builder().retainVersions(2).build());
    assertThat(young.temporaryFilesRemoved()).isZero();
    assertThat(young.unreferencedFilesKept()).isEqualTo(4);
    assertThat(young.unreferencedBytesKept()).isEqualTo(4 * "staged".length());
    for (String k : temporaries) {
      assertThat(Files.exists(local.path(k))).as(k).isTrue();
    }

    CleanupResult old = Cleanup.run(table, CleanupPolicy.builder().retainVersions(2).build(),
        Instant.now().plus(PAST_GRACE));
    assertThat(old.temporaryFilesRemoved()).isEqualTo(4);
    assertThat(old.unreferencedFilesKept()).isZero();
    assertThat(old.bytesRemoved()).isEqualTo(4 * "staged".length());
    assertThat(old.removedVersions()).isEmpty();
    assertThat(local.listTemporary("")).isEmpty();
    assertThat(table.latest().countRows()).isEqualTo(15);
  }

  @Test
  void deleteUnverifiedRemovesYoungTemporaryFilesToo() throws Exception {
    create(fragment(10));
    leaveTemporaries();
    CleanupResult r = Cleanup.run(table, CleanupPolicy.builder().retainVersions(1).deleteUnverified(true).build());
    assertThat(r.temporaryFilesRemoved()).isEqualTo(4);
    assertThat(local.listTemporary("")).isEmpty();
    // The store still stages and publishes as before.
    append(1, fragment(1));
    assertThat(table.latest().countRows()).isEqualTo(11);
  }

  @Test
  void aDamagedNewestManifestIsRecoveredByRestoringAnOlderVersion() throws Exception {
    Fragment a = fragment(10);
    Fragment b = fragment(5);
    create(a);
    append(1, b);
    append(2, fragment(7));
    String newest = table.listVersions().get(3L);
    byte[] bytes = local.read(newest);
    bytes[bytes.length - 20] ^= (byte) 0xFF; // inside the Manifest message
    replaceObject(newest, bytes);
    assertThatThrownBy(table::latest).isInstanceOf(CorruptManifestException.class);

    // Cleanup cannot tell the damaged version's files from garbage, so it removes nothing.
    assertThatThrownBy(() -> Cleanup.run(table, CleanupPolicy.builder().retainVersions(1).build()))
        .isInstanceOf(CorruptManifestException.class)
        .hasMessageContaining("Cleanup would keep version 3 but its manifest cannot be read")
        .hasMessageContaining("restore an intact version first");
    assertThat(table.listVersions().keySet()).containsExactly(1L, 2L, 3L);

    // A Restore needs only the newest version's number, which the listing gives.
    Manifest restored = table.newCommit(Transaction.restore(3, table.load(2))).commit();
    assertThat(restored.version()).isEqualTo(4);
    assertThat(table.latest().version()).isEqualTo(4);
    assertThat(table.latest().fragments()).isEqualTo(table.load(2).fragments());

    // Now the damaged version is an old one, which cleanup removes (its files it cannot verify
    // stay until the grace period has passed).
    CleanupResult r = Cleanup.run(table, CleanupPolicy.builder().retainVersions(1).build());
    assertThat(r.removedVersions()).containsExactly(1L, 2L, 3L);
    assertThat(table.listVersions().keySet()).containsExactly(4L);
    assertThat(local.exists("data/" + a.files().get(0).path())).isTrue();
    assertThat(local.exists("data/" + b.files().get(0).path())).isTrue();
    assertThat(table.latest().countRows()).isEqualTo(15);
  }

  @Test
  void otherCommitsStillRefuseADamagedNewestManifest() throws Exception {
    create(fragment(10));
    String newest = table.listVersions().get(1L);
    byte[] bytes = local.read(newest);
    bytes[bytes.length - 20] ^= (byte) 0xFF;
    replaceObject(newest, bytes);
    Fragment more = fragment(3);
    assertThatThrownBy(() -> table.newCommit(Transaction.append(1, List.of(more))).commit())
        .isInstanceOf(CorruptManifestException.class);
    assertThat(table.listVersions().keySet()).containsExactly(1L);
  }
}
