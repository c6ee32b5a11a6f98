package dev.javelin.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.table.exceptions.CorruptManifestException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bytes of tag and branch files, in the form lance-core 7 writes (serde_json's pretty form). */
class RefFilesTest {
  private static final String FILE = "/ds/_refs/x.json";

  @Test
  void aTagWithMetadataOnABranch() {
    Map<String, String> metadata = new LinkedHashMap<>();
    metadata.put("k", "v \"q\" \\ \n\u0001");
    metadata.put("n", null);
    TagInfo t = new TagInfo("t", 3, 748, "feat/x", Instant.parse("2026-12-01T00:23:39.100865728Z"),
        Instant.parse("2026-12-01T00:23:39.101Z"), metadata);
    String json = TagJson.write(t);
    assertThat(json).isEqualTo("{\n"
        + "  \"branch\": \"feat/x\",\n"
        + "  \"version\": 3,\n"
        + "  \"createdAt\": \"2026-12-01T00:23:39.100865728Z\",\n"
        + "  \"updatedAt\": \"2026-12-01T00:23:39.101Z\",\n"
        + "  \"manifestSize\": 748,\n"
        + "  \"metadata\": {\n"
        + "    \"k\": \"v \\\"q\\\" \\\\ \\n\\u0001\",\n"
        + "    \"n\": null\n"
        + "  }\n"
        + "}");
    assertThat(TagJson.parse("t", json, FILE)).isEqualTo(t);
  }

  @Test
  void aTagWithoutTimes() {
    TagInfo t = new TagInfo("t", -1, 5, null, null, null, Map.of());
    String json = TagJson.write(t);
    assertThat(json).isEqualTo("{\n  \"branch\": null,\n  \"version\": 18446744073709551615,\n"
        + "  \"manifestSize\": 5,\n  \"metadata\": {}\n}");
    assertThat(TagJson.parse("t", json, FILE)).isEqualTo(t);
  }

  @Test
  void metadataThatIsNotTextKeepsItsJson() {
    TagInfo t = TagJson.parse("t", "{\"version\": 1, \"manifestSize\": 2, \"extra\": [1],"
        + " \"metadata\": {\"a\": 1, \"b\": true, \"c\": [1, \"x\"]}}", FILE);
    assertThat(t.metadata()).containsExactly(Map.entry("a", "1"), Map.entry("b", "true"),
        Map.entry("c", "[1,\"x\"]"));
  }

  @Test
  void damagedTagFiles() {
    assertThatThrownBy(() -> TagJson.parse("t", "[1]", FILE)).isInstanceOf(CorruptManifestException.class)
        .hasMessage("Tag file is not one JSON object: " + FILE);
    assertThatThrownBy(() -> TagJson.parse("t", "", FILE)).isInstanceOf(CorruptManifestException.class)
        .hasMessage("Tag file is not valid JSON (unexpected end at offset 0): " + FILE);
    assertThatThrownBy(() -> TagJson.parse("t", "{\"version\": 1, \"manifestSize\": 2} {}", FILE))
        .isInstanceOf(CorruptManifestException.class)
        .hasMessage("Tag file is not one JSON object: " + FILE);
    assertThatThrownBy(() -> TagJson.parse("t", "{\"version\": 1, \"manifestSize\": 2} x", FILE))
        .isInstanceOf(CorruptManifestException.class)
        .hasMessageStartingWith("Tag file is not valid JSON (Unrecognized token 'x'");
    assertThatThrownBy(() -> TagJson.parse("t", "{\"version\": 1,\n  ", FILE))
        .isInstanceOf(CorruptManifestException.class)
        .hasMessage("Tag file is not valid JSON (unexpected end at offset 17): " + FILE);
    assertThatThrownBy(() -> TagJson.parse("t", "{\"version\": \"1\", \"manifestSize\": 2}", FILE))
        .isInstanceOf(CorruptManifestException.class)
        .hasMessage("Tag file has no number 'version': " + FILE);
    for (String v : List.of("1.5", "-1", "18446744073709551616")) {
      assertThatThrownBy(() -> TagJson.parse("t", "{\"version\": " + v + ", \"manifestSize\": 2}", FILE))
          .isInstanceOf(CorruptManifestException.class)
          .hasMessage("Tag file's 'version' is not a whole number: " + FILE);
    }
  }

  @Test
  void aBranchRecord() {
    BranchInfo b = new BranchInfo("dev2", "dev", 4, Instant.ofEpochSecond(1764548619), 767,
        List.of(new BranchInfo.Lineage(2, "0123456789abcdef0123456789abcdef"),
            new BranchInfo.Lineage(4, "fedcba9876543210fedcba9876543210")), Map.of("k", "v"));
    String json = Branches.write(b);
    assertThat(json).isEqualTo("{\n"
        + "  \"parentBranch\": \"dev\",\n"
        + "  \"identifier\": {\n"
        + "    \"version_mapping\": [\n"
        + "      [\n"
        + "        2,\n"
        + "        \"0123456789abcdef0123456789abcdef\"\n"
        + "      ],\n"
        + "      [\n"
        + "        4,\n"
        + "        \"fedcba9876543210fedcba9876543210\"\n"
        + "      ]\n"
        + "    ]\n"
        + "  },\n"
        + "  \"parentVersion\": 4,\n"
        + "  \"createAt\": 1764548619,\n"
        + "  \"manifestSize\": 767,\n"
        + "  \"metadata\": {\n"
        + "    \"k\": \"v\"\n"
        + "  }\n"
        + "}");
    BranchInfo back = Branches.parse("dev2", json, FILE);
    assertThat(back.parentBranch()).contains("dev");
    assertThat(back.parentVersion()).isEqualTo(4);
    assertThat(back.createdAt()).isEqualTo(b.createdAt());
    assertThat(back.manifestSize()).isEqualTo(767);
    assertThat(back.lineage()).isEqualTo(b.lineage());
    assertThat(back.metadata()).isEqualTo(Map.of("k", "v"));
  }

  @Test
  void aFirstBranchRecordAndDamagedOnes() {
    BranchInfo b = new BranchInfo("dev", null, 2, Instant.ofEpochSecond(7), 0, List.of(), Map.of());
    assertThat(Branches.write(b)).isEqualTo("{\n  \"parentBranch\": null,\n  \"identifier\": {\n"
        + "    \"version_mapping\": []\n  },\n  \"parentVersion\": 2,\n  \"createAt\": 7,\n"
        + "  \"manifestSize\": 0,\n  \"metadata\": {}\n}");
    assertThat(Branches.parse("dev", "{\"parentVersion\": 2}", FILE).createdAt()).isEqualTo(Instant.EPOCH);
    assertThatThrownBy(() -> Branches.parse("dev", "{\"parentVersion\": 2, \"identifier\": "
        + "{\"version_mapping\": [[2]]}}", FILE)).isInstanceOf(CorruptManifestException.class)
        .hasMessage("Branch file's identifier is not a list of [version, id] pairs: " + FILE);
    assertThatThrownBy(() -> Branches.parse("dev", "{\"createAt\": 2}", FILE))
        .isInstanceOf(CorruptManifestException.class)
        .hasMessage("Branch file has no number 'parentVersion': " + FILE);
  }
}
