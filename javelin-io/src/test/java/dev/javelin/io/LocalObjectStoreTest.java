package dev.javelin.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalObjectStoreTest {
  @TempDir Path dir;

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void putReadListDelete() throws Exception {
    LocalObjectStore store = new LocalObjectStore(dir);
    store.put("_versions/1.manifest", bytes("one"));
    store.put("_versions/1.manifest", bytes("uno"));
    store.put("data/a.lance", bytes("abc"));
    store.put("data/sub/b.lance", bytes("b"));
    assertThat(store.read("_versions/1.manifest")).isEqualTo(bytes("uno"));
    assertThat(store.list("data/")).extracting(ObjectInfo::key)
        .containsExactlyInAnyOrder("data/a.lance", "data/sub/b.lance");
    assertThat(store.list("data/a")).extracting(ObjectInfo::size).containsExactly(3L);
    assertThat(store.list("nothing/")).isEmpty();
    try (InputFile in = store.open("data/a.lance")) {
      assertThat(in.read(1, 2).get(0)).isEqualTo((byte) 'b');
    }
    assertThat(store.exists("data/a.lance")).isTrue();
    store.delete("data/a.lance");
    store.delete("data/a.lance");
    assertThat(store.exists("data/a.lance")).isFalse();
    assertThatThrownBy(() -> store.open("data/a.lance")).isInstanceOf(NoSuchFileException.class);
  }

  @Test
  void aSyncingStoreWritesTheSameObjectsAndFiles() throws Exception {
    LocalObjectStore store = new LocalObjectStore(dir, true);
    store.putIfAbsent("_versions/1.manifest", bytes("one"));
    store.put("_transactions/0-x.txn", bytes("txn"));
    try (var out = store.newOutputFile("data/a.lance").create()) {
      out.write(bytes("data"));
      assertThat(out.position()).isEqualTo(4);
    }
    assertThat(java.nio.file.Files.readAllBytes(dir.resolve("_versions/1.manifest"))).isEqualTo(bytes("one"));
    assertThat(java.nio.file.Files.readAllBytes(dir.resolve("_transactions/0-x.txn"))).isEqualTo(bytes("txn"));
    assertThat(java.nio.file.Files.readAllBytes(dir.resolve("data/a.lance"))).isEqualTo(bytes("data"));
    assertThat(store.list("")).noneMatch(o -> o.key().contains(".tmp-"));
  }

  @Test
  void putIfAbsentRefusesATakenKey() throws Exception {
    LocalObjectStore store = new LocalObjectStore(dir);
    store.putIfAbsent("_versions/2.manifest", bytes("first"));
    assertThatThrownBy(() -> store.putIfAbsent("_versions/2.manifest", bytes("second")))
        .isInstanceOf(ObjectExistsException.class)
        .hasMessageContaining("_versions/2.manifest");
    assertThat(store.read("_versions/2.manifest")).isEqualTo(bytes("first"));
    // No temporary files are left behind, and none are listed.
    try (var files = Files.list(dir.resolve("_versions"))) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("2.manifest");
    }
  }

  @Test
  void rejectsKeysThatEscapeTheRoot() {
    LocalObjectStore store = new LocalObjectStore(dir);
    assertThatThrownBy(() -> store.put("../x", bytes("x"))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.put("/x", bytes("x"))).isInstanceOf(IllegalArgumentException.class);
  }
}
