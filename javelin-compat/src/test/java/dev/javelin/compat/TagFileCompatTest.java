package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.assertSameRows;
import static dev.javelin.compat.DatasetCompatSupport.batches;
import static dev.javelin.compat.DatasetCompatSupport.expected;
import static dev.javelin.compat.DatasetCompatSupport.javelinScan;
import static dev.javelin.compat.DatasetCompatSupport.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.table.TagInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Ref;
import org.lance.Tag;
import org.lance.ipc.ScanOptions;

/**
 * The bytes of a tag file, {@code _refs/tags/<name>.json}, between Javelin and lance-core 7.0.0:
 * each reads the other's tags and checks out the version they name, and for the same tag content
 * both write the same bytes (serde_json's pretty form; only the update time differs after a
 * rewrite, as it must).
 */
class TagFileCompatTest {
  @TempDir Path dir;
  BufferAllocator allocator;
  Path path;

  @BeforeEach
  void open() {
    allocator = new RootAllocator();
    path = dir.resolve("ds");
  }

  @AfterEach
  void close() {
    allocator.close();
  }

  // Version 1: rows 0..300; version 2: rows 0..500.
  private Dataset twoVersions() {
    WriteParams p = WriteParams.builder().fileVersion(LanceFileVersion.V2_1).build();
    List<VectorSchemaRoot> first = batches(allocator, 0, 300, 100);
    List<VectorSchemaRoot> second = batches(allocator, 300, 200, 100);
    try {
      return Dataset.create(path, first, p, allocator).append(second, p);
    } finally {
      first.forEach(VectorSchemaRoot::close);
      second.forEach(VectorSchemaRoot::close);
    }
  }

  private String bytes(String tag) throws Exception {
    return new String(Files.readAllBytes(path.resolve("_refs/tags/" + tag + ".json")), StandardCharsets.UTF_8);
  }

  private org.lance.Dataset lance() {
    return org.lance.Dataset.open(path.toString(), allocator);
  }

  private Tag lanceTag(org.lance.Dataset lance, String name) {
    return lance.tags().list().stream().filter(t -> t.getName().equals(name)).findFirst().orElseThrow();
  }

  /**
   * What lance-core 7.0.0 writes for a tag: serde_json's to_string_pretty of its TagContents
   * (two-space indents, {@code "key": value}, times as RFC 3339 with 0, 3, 6 or 9 fraction digits,
   * which is what {@link Instant#toString} gives), no newline at the end.
   */
  private static String lanceForm(TagInfo t, String metadata) {
    return "{\n"
        + "  \"branch\": " + t.branch().map(b -> "\"" + b + "\"").orElse("null") + ",\n"
        + "  \"version\": " + t.version() + ",\n"
        + "  \"createdAt\": \"" + t.createdAt().orElseThrow() + "\",\n"
        + "  \"updatedAt\": \"" + t.updatedAt().orElseThrow() + "\",\n"
        + "  \"manifestSize\": " + t.manifestSize() + ",\n"
        + "  \"metadata\": " + metadata + "\n"
        + "}";
  }

  private static String withUpdatedAt(String json, Instant updatedAt) {
    return json.replaceFirst("\"updatedAt\": \"[^\"]*\"", "\"updatedAt\": \"" + updatedAt + "\"");
  }

  @Test
  void lanceReadsAndChecksOutJavelinsTag() throws Exception {
    Dataset ds = twoVersions();
    TagInfo j1 = ds.tags().create("j1", 1);
    try (org.lance.Dataset lance = lance()) {
      Tag t = lanceTag(lance, "j1");
      assertThat(t.getVersion()).isEqualTo(1);
      assertThat(t.getBranch()).isEmpty();
      assertThat((long) t.getManifestSize()).isEqualTo(j1.manifestSize());
      assertThat(t.getCreatedAt()).isEqualTo(j1.createdAt());
      assertThat(t.getUpdatedAt()).isEqualTo(j1.updatedAt());
      assertThat(t.getMetadata()).isEmpty();
      assertThat(lance.tags().getVersion("j1")).isEqualTo(1);
      try (org.lance.Dataset at = lance.checkoutTag("j1");
          var scanner = at.newScan(new ScanOptions.Builder().build())) {
        assertThat(at.version()).isEqualTo(1);
        assertSameRows(readAll(scanner.scanBatches()), expected(allocator, 0, 300));
      }
    }
  }

  @Test
  void javelinReadsAndChecksOutLancesTag() throws Exception {
    Dataset ds = twoVersions();
    Tag made;
    try (org.lance.Dataset lance = lance()) {
      lance.tags().create("l2", 2);
      lance.tags().replaceMetadata("l2", Map.of("owner", "me \"q\" \\ é"));
      made = lanceTag(lance, "l2");
    }
    TagInfo t = ds.tags().get("l2");
    assertThat(t.version()).isEqualTo(2);
    assertThat(t.branch()).isEmpty();
    assertThat(t.manifestSize()).isEqualTo(made.getManifestSize());
    assertThat(t.manifestSize()).isEqualTo(ds.tags().create("j2", 2).manifestSize());
    assertThat(t.createdAt()).isEqualTo(made.getCreatedAt());
    assertThat(t.updatedAt()).isEqualTo(made.getUpdatedAt());
    assertThat(t.metadata()).isEqualTo(Map.of("owner", "me \"q\" \\ é"));
    assertThat(ds.tags().list()).containsOnlyKeys("l2", "j2");
    Dataset at = ds.checkout("l2");
    assertThat(at.version()).isEqualTo(2);
    assertSameRows(javelinScan(at), expected(allocator, 0, 500));
  }

  @Test
  void bothWriteTheSameBytesForTheSameTag() throws Exception {
    Dataset ds = twoVersions();
    // lance-core's tag, rewritten by Javelin (same version: only the update time moves).
    try (org.lance.Dataset lance = lance()) {
      lance.tags().create("l", 2);
      lance.tags().replaceMetadata("l", Map.of("owner", "me \"q\" \\ é"));
    }
    String lanceBytes = bytes("l");
    TagInfo fromLance = ds.tags().get("l");
    assertThat(lanceBytes).isEqualTo(lanceForm(fromLance, "{\n    \"owner\": \"me \\\"q\\\" \\\\ é\"\n  }"));
    TagInfo rewritten = ds.tags().update("l", 2);
    assertThat(rewritten.createdAt()).isEqualTo(fromLance.createdAt());
    assertThat(rewritten.metadata()).isEqualTo(fromLance.metadata());
    assertThat(bytes("l")).isEqualTo(withUpdatedAt(lanceBytes, rewritten.updatedAt().orElseThrow()));

    // Javelin's tag, rewritten by lance-core.
    TagInfo j = ds.tags().create("j", 1);
    String javelinBytes = bytes("j");
    assertThat(javelinBytes).isEqualTo(lanceForm(j, "{}"));
    Instant updated;
    try (org.lance.Dataset lance = lance()) {
      lance.tags().update("j", 1);
      updated = lanceTag(lance, "j").getUpdatedAt().orElseThrow();
    }
    assertThat(updated).isNotEqualTo(j.updatedAt().orElseThrow());
    assertThat(bytes("j")).isEqualTo(withUpdatedAt(javelinBytes, updated));
  }

  @Test
  void aTagOnABranchIsTheSameToBoth() throws Exception {
    Dataset ds = twoVersions();
    Dataset dev = ds.createBranch("dev", 2);
    TagInfo jb = dev.tags().create("jb", 2);
    assertThat(jb.branch()).contains("dev");
    String javelinBytes = bytes("jb");
    assertThat(javelinBytes).isEqualTo(lanceForm(jb, "{}"));
    Instant updated;
    try (org.lance.Dataset lance = lance()) {
      Tag t = lanceTag(lance, "jb");
      assertThat(t.getBranch()).contains("dev");
      assertThat(t.getVersion()).isEqualTo(2);
      try (org.lance.Dataset at = lance.checkoutTag("jb");
          var scanner = at.newScan(new ScanOptions.Builder().build())) {
        assertThat(at.version()).isEqualTo(2);
        assertSameRows(readAll(scanner.scanBatches()), expected(allocator, 0, 500));
      }
      lance.tags().update("jb", Ref.ofBranch("dev", 2));
      updated = lanceTag(lance, "jb").getUpdatedAt().orElseThrow();
      lance.tags().create("lb", Ref.ofBranch("dev", 2));
    }
    assertThat(bytes("jb")).isEqualTo(withUpdatedAt(javelinBytes, updated));
    TagInfo lb = ds.tags().get("lb");
    assertThat(lb.branch()).contains("dev");
    assertThat(bytes("lb")).isEqualTo(lanceForm(lb, "{}"));
    assertSameRows(javelinScan(ds.checkout("lb")), expected(allocator, 0, 500));
  }
}
