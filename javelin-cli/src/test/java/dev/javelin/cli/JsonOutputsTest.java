package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.javelin.common.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** --json of describe, versions, layout, tag list and file info: parsed, values checked. */
class JsonOutputsTest extends CliTestBase {
  private static JsonNode json(Result r) throws Exception {
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(r.out).endsWith("\n");
    assertThat(r.out.lines().count()).as("one document on one line").isEqualTo(1);
    return Json.tree(r.out);
  }

  /** 10 rows in fragments of 4, 4 and 2; id 1 deleted; a BTree on id; tagged "first" at version 1. */
  private String create() throws Exception {
    StringBuilder csv = new StringBuilder("id,name\n");
    for (int i = 0; i < 10; i++) {
      csv.append(i).append(",n").append(i % 3).append('\n');
    }
    text("rows.csv", csv.toString());
    String ds = path("ds");
    assertThat(run("create", ds, "--input", path("rows.csv"), "--max-rows-per-file", "4").code).isZero();
    assertThat(run("tag", "create", ds, "first").code).isZero();
    assertThat(run("delete", ds, "--where", "id = 1").code).isZero();
    assertThat(run("index", "create", ds, "--column", "id").code).isZero();
    return ds;
  }

  @Test
  void describeGivesSchemaFragmentsFilesAndIndices() throws Exception {
    String ds = create();
    JsonNode d = json(run("describe", ds, "--json"));
    assertThat(d.get("dataset").asText()).isEqualTo(ds);
    assertThat(d.get("version").asLong()).isEqualTo(3);
    assertThat(d.get("timestamp").asText()).endsWith("Z");
    assertThat(d.get("file_version").asText()).isEqualTo("2.1");
    assertThat(d.get("rows").asLong()).isEqualTo(9);
    assertThat(d.get("branch").isNull()).isTrue();
    assertThat(d.get("schema").toString()).isEqualTo("[{\"id\":0,\"name\":\"id\",\"type\":\"int64\",\"nullable\":true},"
        + "{\"id\":1,\"name\":\"name\",\"type\":\"string\",\"nullable\":true}]");
    JsonNode frags = d.get("fragments");
    assertThat(frags).hasSize(3);
    assertThat(frags.get(0).get("id").asLong()).isZero();
    assertThat(frags.get(0).get("physical_rows").asLong()).isEqualTo(4);
    assertThat(frags.get(0).get("deleted_rows").asLong()).isEqualTo(1);
    assertThat(frags.get(0).get("deletion_file").get("path").asText()).startsWith("_deletions/0-");
    assertThat(frags.get(0).get("deletion_file").get("rows").asLong()).isEqualTo(1);
    assertThat(frags.get(1).get("deleted_rows").asLong()).isZero();
    assertThat(frags.get(1).has("deletion_file")).isFalse();
    assertThat(frags.get(2).get("physical_rows").asLong()).isEqualTo(2);
    JsonNode file = frags.get(2).get("files").get(0);
    assertThat(file.get("fields").toString()).isEqualTo("[0,1]");
    assertThat(file.get("file_version").asText()).isEqualTo("2.1");
    assertThat(file.get("size_bytes").asLong()).isEqualTo(Files.size(Path.of(ds, file.get("path").asText())));
    JsonNode idx = d.get("indices");
    assertThat(idx).hasSize(1);
    assertThat(idx.get(0).get("name").asText()).isEqualTo("id_idx");
    assertThat(idx.get(0).get("type").asText()).isEqualTo("BTREE");
    assertThat(idx.get(0).get("fragments").get("covered").asInt()).isEqualTo(3);
  }

  @Test
  void versionsLayoutTagsAndFileInfo() throws Exception {
    String ds = create();
    JsonNode v = json(run("versions", ds, "--json"));
    assertThat(v).hasSize(3);
    assertThat(v.get(0).get("version").asLong()).isEqualTo(1);
    assertThat(v.get(0).get("readable").asBoolean()).isTrue();
    assertThat(v.get(0).get("operation").asText()).isEqualTo("Overwrite");
    assertThat(v.get(0).get("rows").asLong()).isEqualTo(10);
    assertThat(v.get(1).get("operation").asText()).isEqualTo("Delete");
    assertThat(v.get(1).get("rows").asLong()).isEqualTo(9);
    assertThat(v.get(2).get("operation").asText()).isEqualTo("CreateIndex");
    assertThat(v.get(2).get("timestamp").asText()).endsWith("Z");

    JsonNode layout = json(run("layout", ds, "--json"));
    assertThat(layout).hasSize(3);
    assertThat(layout.get(1).get("fragment_id").asLong()).isEqualTo(1);
    assertThat(layout.get(1).get("physical_rows").asLong()).isEqualTo(4);
    assertThat(layout.get(1).get("data_files").asInt()).isEqualTo(1);
    assertThat(layout.get(1).get("dead_slot_share").asDouble()).isZero();
    assertThat(layout.get(1).get("files").get(0).get("schema_fields").asInt()).isEqualTo(2);

    JsonNode tags = json(run("tag", "list", ds, "--json"));
    assertThat(tags).hasSize(1);
    assertThat(tags.get(0).get("name").asText()).isEqualTo("first");
    assertThat(tags.get(0).get("version").asLong()).isEqualTo(1);
    assertThat(tags.get(0).has("created_at")).isTrue();

    text("small.csv", "id,name\n1,ada\n2,\n");
    String lance = path("small.lance");
    assertThat(run("file", "write", lance, "--input", path("small.csv")).code).isZero();
    JsonNode info = json(run("file", "info", lance, "--json"));
    assertThat(info.get("version").asText()).isEqualTo("2.1");
    assertThat(info.get("rows").asLong()).isEqualTo(2);
    assertThat(info.get("schema").get(1).get("name").asText()).isEqualTo("name");
    assertThat(info.get("columns")).hasSize(2);
    assertThat(info.get("columns").get(1).get("path").asText()).isEqualTo("name");
  }

  @Test
  void jsonOfAnEmptyListIsAnEmptyArray() throws Exception {
    text("one.csv", "id\n1\n");
    String ds = path("one");
    assertThat(run("create", ds, "--input", path("one.csv")).code).isZero();
    assertThat(run("index", "list", ds, "--json").out).isEqualTo("[]\n");
    assertThat(run("tag", "list", ds, "--json").out).isEqualTo("[]\n");
    assertThat(json(run("describe", ds, "--json")).get("indices").toString()).isEqualTo("[]");
  }
}
