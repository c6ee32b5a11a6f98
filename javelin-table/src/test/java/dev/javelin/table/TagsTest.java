package dev.javelin.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.table.exceptions.InvalidTagNameException;
import dev.javelin.table.exceptions.TagExistsException;
import dev.javelin.table.exceptions.TagNotFoundException;
import dev.javelin.table.exceptions.VersionNotFoundException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TagsTest extends TableTestBase {
  private Tags tags() {
    return Tags.of(table);
  }

  @Test
  void createListUpdateDelete() throws Exception {
    create(fragment(10));
    append(1, fragment(5));
    append(2, fragment(5));
    TagInfo b = tags().create("b", 2);
    tags().create("a-1.x_y", 1);
    assertThat(tags().list()).containsOnlyKeys("a-1.x_y", "b");
    assertThat(tags().list().keySet()).containsExactly("a-1.x_y", "b");
    assertThat(tags().version("b")).isEqualTo(2);
    assertThat(b.manifestSize()).isEqualTo(local.read(ManifestNaming.V2.key(2)).length);
    assertThat(tags().load("b").version()).isEqualTo(2);

    TagInfo moved = tags().update("b", 3);
    assertThat(moved.version()).isEqualTo(3);
    assertThat(moved.createdAt()).isEqualTo(b.createdAt());
    assertThat(moved.manifestSize()).isEqualTo(local.read(ManifestNaming.V2.key(3)).length);
    assertThat(tags().get("b")).isEqualTo(moved);

    tags().delete("a-1.x_y");
    assertThat(tags().list()).containsOnlyKeys("b");
    assertThat(local.exists("_refs/tags/a-1.x_y.json")).isFalse();
    // The version itself stays.
    assertThat(table.load(1).version()).isEqualTo(1);
  }

  @Test
  void writesTheJsonLanceWrites() throws Exception {
    create(fragment(10));
    TagInfo t = tags().create("v1", 1);
    String json = new String(local.read("_refs/tags/v1.json"), StandardCharsets.UTF_8);
    assertThat(json).isEqualTo("{\n  \"branch\": null,\n  \"version\": 1,\n  \"createdAt\": \"" + t.createdAt().get()
        + "\",\n  \"updatedAt\": \"" + t.updatedAt().get() + "\",\n  \"manifestSize\": " + t.manifestSize()
        + ",\n  \"metadata\": {}\n}");
  }

  @Test
  void readsWhatLanceWrites() throws Exception {
    create(fragment(10));
    // As lance-core 7.0.0 writes it (copied from its output), and the minimal form older writers use.
    local.put("_refs/tags/full.json", ("{\n  \"branch\": null,\n  \"version\": 1,\n"
        + "  \"createdAt\": \"2026-12-01T00:23:39.100865728Z\",\n  \"updatedAt\": \"2026-12-01T00:23:39.101422084Z\",\n"
        + "  \"manifestSize\": 748,\n  \"metadata\": {\"k\": \"v \\\"q\\\"\"}\n}").getBytes(StandardCharsets.UTF_8));
    local.put("_refs/tags/min.json", "{\"version\": 1, \"manifestSize\": 5}".getBytes(StandardCharsets.UTF_8));
    TagInfo full = tags().get("full");
    assertThat(full.version()).isEqualTo(1);
    assertThat(full.manifestSize()).isEqualTo(748);
    assertThat(full.branch()).isEmpty();
    assertThat(full.createdAt().get().toString()).isEqualTo("2026-12-01T00:23:39.100865728Z");
    assertThat(full.metadata()).isEqualTo(Map.of("k", "v \"q\""));
    // Moving keeps the metadata and the creation time.
    TagInfo moved = tags().update("full", 1);
    assertThat(tags().get("full").metadata()).isEqualTo(Map.of("k", "v \"q\""));
    assertThat(moved.createdAt()).isEqualTo(full.createdAt());
    TagInfo min = tags().get("min");
    assertThat(min.version()).isEqualTo(1);
    assertThat(min.createdAt()).isEmpty();
    assertThat(tags().list()).containsOnlyKeys("full", "min");
  }

  @Test
  void aTagFileWithoutManifestSizeIsCorrupt() throws Exception {
    create(fragment(10));
    local.put("_refs/tags/bad.json", "{\"version\": 1}".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> tags().get("bad")).isInstanceOf(CorruptManifestException.class)
        .hasMessage("Tag file has no number 'manifestSize': " + local.location() + "/_refs/tags/bad.json");
    local.put("_refs/tags/bad.json", "{\"version\": 1,".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> tags().get("bad")).isInstanceOf(CorruptManifestException.class)
        .hasMessage("Tag file is not valid JSON (unexpected end at offset 14): " + local.location()
            + "/_refs/tags/bad.json");
  }

  @Test
  void refusesAnExistingTagAndAMissingVersion() throws Exception {
    create(fragment(10));
    tags().create("t", 1);
    assertThatThrownBy(() -> tags().create("t", 1)).isInstanceOf(TagExistsException.class)
        .hasMessage("Tag 't' already exists (on version 1): " + local.location());
    assertThatThrownBy(() -> tags().create("u", 7)).isInstanceOf(VersionNotFoundException.class)
        .hasMessage("Dataset has no version 7: " + local.location());
    assertThatThrownBy(() -> tags().update("t", 7)).isInstanceOf(VersionNotFoundException.class)
        .hasMessage("Dataset has no version 7: " + local.location());
    assertThat(tags().list()).containsOnlyKeys("t");
    assertThat(tags().version("t")).isEqualTo(1);
  }

  @Test
  void missingTags() throws Exception {
    create(fragment(10));
    String msg = "Dataset has no tag 'nope': " + local.location();
    assertThatThrownBy(() -> tags().get("nope")).isInstanceOf(TagNotFoundException.class).hasMessage(msg);
    assertThatThrownBy(() -> tags().delete("nope")).isInstanceOf(TagNotFoundException.class).hasMessage(msg);
    assertThatThrownBy(() -> tags().update("nope", 1)).isInstanceOf(TagNotFoundException.class).hasMessage(msg);
    assertThatThrownBy(() -> tags().load("nope")).isInstanceOf(TagNotFoundException.class).hasMessage(msg);
    assertThat(tags().list()).isEmpty();
  }

  @Test
  void aTagOnARemovedVersionFailsToLoad() throws Exception {
    create(fragment(10));
    append(1, fragment(1));
    tags().create("t", 1);
    local.delete(ManifestNaming.V2.key(1));
    assertThatThrownBy(() -> tags().load("t")).isInstanceOf(VersionNotFoundException.class)
        .hasMessage("Dataset has no version 1: " + local.location());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "''|it is empty",
      "a/b|only letters, digits, '.', '-' and '_' are allowed",
      "a b|only letters, digits, '.', '-' and '_' are allowed",
      "a:b|only letters, digits, '.', '-' and '_' are allowed",
      ".a|it starts with '.'",
      "a.|it ends with '.'",
      "x.lock|it ends with '.lock'",
      "a..b|it contains '..'"})
  void invalidNames(String name, String why) throws Exception {
    create(fragment(10));
    String msg = "Invalid tag name '" + name + "' (" + why + "): " + local.location();
    assertThatThrownBy(() -> tags().create(name, 1)).isInstanceOf(InvalidTagNameException.class).hasMessage(msg);
    assertThatThrownBy(() -> tags().get(name)).isInstanceOf(InvalidTagNameException.class).hasMessage(msg);
    assertThatThrownBy(() -> tags().delete(name)).isInstanceOf(InvalidTagNameException.class).hasMessage(msg);
  }

  @Test
  void unicodeLettersAreValidAsInLance() throws Exception {
    create(fragment(10));
    tags().create("café-1", 1);
    assertThat(tags().list()).containsOnlyKeys("café-1");
  }
}
