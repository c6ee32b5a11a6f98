package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** Format 2.2 datasets and map columns through the commands. */
class MapAndFormat22CommandsTest extends CliTestBase {
  @Test
  void createWritesFormat22() throws Exception {
    text("people.csv", "id,name\n1,ann\n2,bob\n");
    Result r = run("create", path("ds"), "--input", path("people.csv"), "--version", "2.2");
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(r.err).contains("(Lance 2.2 files)");
    text("more.csv", "id,name\n3,cy\n");
    assertThat(run("append", path("ds"), "--input", path("more.csv")).code).isZero();
    Result d = run("describe", path("ds"));
    assertThat(d.out).contains("files     Lance 2.2\n").doesNotContain("Lance 2.1");
    assertThat(run("scan", path("ds"), "--format", "csv").out).isEqualTo("id,name\n1,ann\n2,bob\n3,cy\n");
  }

  @Test
  void describeAndScanShowMaps() throws Exception {
    Field entries = new Field("entries", FieldType.notNullable(ArrowType.Struct.INSTANCE), List.of(
        new Field("key", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
        Field.nullable("value", new ArrowType.Int(32, true))));
    Schema schema = new Schema(List.of(new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        new Field("m", FieldType.nullable(new ArrowType.Map(false)), List.of(entries))));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      root.allocateNew();
      BigIntVector id = (BigIntVector) root.getVector("id");
      MapVector m = (MapVector) root.getVector("m");
      StructVector e = (StructVector) m.getDataVector();
      VarCharVector k = (VarCharVector) e.getChild("key");
      IntVector v = (IntVector) e.getChild("value");
      for (int i = 0; i < 3; i++) {
        id.setSafe(i, i);
      }
      int at = m.startNewValue(0);
      e.setIndexDefined(at);
      k.setSafe(at, "a".getBytes(StandardCharsets.UTF_8));
      v.setSafe(at, 1);
      e.setIndexDefined(at + 1);
      k.setSafe(at + 1, "b".getBytes(StandardCharsets.UTF_8));
      v.setNull(at + 1);
      m.endValue(0, 2);
      m.startNewValue(1);
      m.endValue(1, 0);
      m.setNull(2);
      root.setRowCount(3);
      Dataset.create(dir.resolve("ds"), List.of(root), WriteParams.builder().fileVersion(LanceFileVersion.V2_2).build(),
          allocator);
    }
    Result d = run("describe", path("ds"));
    assertThat(d.code).as(d.toString()).isZero();
    assertThat(d.out).contains("  0  id         int64 not null\n"
        + "  1  m          map<string, int32>\n"
        + "  2    entries  struct not null\n"
        + "  3      key    string not null\n"
        + "  4      value  int32\n");
    Result json = run("scan", path("ds"), "--format", "jsonl");
    assertThat(json.code).as(json.toString()).isZero();
    assertThat(json.out).isEqualTo("{\"id\":0,\"m\":[{\"key\":\"a\",\"value\":1},{\"key\":\"b\",\"value\":null}]}\n"
        + "{\"id\":1,\"m\":[]}\n"
        + "{\"id\":2,\"m\":null}\n");
    assertThat(run("scan", path("ds"), "--format", "csv").out)
        .isEqualTo("id,m\n0,\"[{\"\"key\"\":\"\"a\"\",\"\"value\"\":1},{\"\"key\"\":\"\"b\"\",\"\"value\"\":null}]\"\n1,[]\n2,\n");
    assertThat(run("count", path("ds"), "--filter", "m IS NULL").out).isEqualTo("1\n");
    // Lance has no filter on a map's keys ("column m.a does not exist"); neither has Javelin.
    Result byKey = run("count", path("ds"), "--filter", "m['a'] = 1");
    assertThat(byKey.code).as(byKey.toString()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(byKey.err).startsWith("javelin: ").doesNotContain("Exception");
    Result table = run("scan", path("ds"), "--filter", "id < 2");
    // Tables cut long cells.
    assertThat(table.out).contains("  0 | [{\"key\":\"a\",\"value\":1},{\"key\":\"b\",\"va...\n").contains("  1 | []\n");
  }
}
