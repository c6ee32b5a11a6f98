package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.table.CleanupPolicy;
import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.testing.TestAllocator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A damaged newest manifest must not stand in the way of the older versions. */
class DamagedManifestRecoveryTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  // Versions 1 (30 rows), 2 (27 rows), 3 (26 rows, damaged).
  private Path damaged() throws Exception {
    Path path = dir.resolve("ds");
    ManifestByteFlipTest.build(path, allocator).delete("id = 0");
    Path newest = ManifestByteFlipTest.newestManifest(path);
    Files.write(newest, "not a manifest: the bytes a failing disk left".getBytes(StandardCharsets.UTF_8));
    return path;
  }

  @Test
  void olderVersionsOpenListAndRestore() throws Exception {
    Path path = damaged();
    long newest = 5;
    assertThatThrownBy(() -> Dataset.open(path, allocator)).isInstanceOf(CorruptManifestException.class)
        .hasMessageContaining("does not end with LANC");

    // The version asked for is read directly.
    Dataset v4 = Dataset.open(path.toString(), newest - 1, allocator);
    assertThat(v4.countRows()).isEqualTo(27);
    assertThat(v4.countRows("name = 'n7'")).isEqualTo(1);

    // The listing reads each manifest on its own and marks the damaged one.
    List<VersionInfo> versions = Dataset.versions(path.toString());
    assertThat(versions).extracting(VersionInfo::version).containsExactly(1L, 2L, 3L, 4L, newest);
    assertThat(versions.subList(0, 4)).allMatch(VersionInfo::readable);
    VersionInfo broken = versions.get(4);
    assertThat(broken.readable()).isFalse();
    assertThat(broken.operation()).isEqualTo(VersionInfo.UNREADABLE);
    assertThat(broken.problem()).hasValueSatisfying(p -> assertThat(p).contains("does not end with LANC")
        .contains("_versions/"));
    assertThat(versions.get(3).rowCount()).isEqualTo(27);

    // Cleanup refuses while the damaged version is the newest ...
    assertThatThrownBy(() -> v4.cleanup(CleanupPolicy.builder().retainVersions(1).build()))
        .isInstanceOf(CorruptManifestException.class).hasMessageContaining("restore an intact version first");

    // ... restore writes a new version with version 4's content ...
    Dataset restored = v4.restore();
    assertThat(restored.version()).isEqualTo(newest + 1);
    Dataset latest = Dataset.open(path, allocator);
    assertThat(latest.version()).isEqualTo(newest + 1);
    assertThat(ManifestByteFlipTest.observe(latest)).isEqualTo(ManifestByteFlipTest.observe(v4));

    // ... after which the damaged version is an old one that cleanup removes.
    assertThat(latest.cleanup(CleanupPolicy.builder().retainVersions(1).build()).removedVersions())
        .containsExactly(1L, 2L, 3L, 4L, newest);
    assertThat(Dataset.versions(path.toString())).extracting(VersionInfo::version).containsExactly(newest + 1);
    assertThat(ManifestByteFlipTest.observe(Dataset.open(path, allocator))).isEqualTo(ManifestByteFlipTest.observe(v4));
  }
}
