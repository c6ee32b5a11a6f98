package dev.javelin.format.internal.v21;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.WriteOptions;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.testing.TestAllocator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
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
import org.junit.jupiter.api.io.TempDir;

/** Map columns in 2.2 files: written, read whole and taken back as MapVectors; refused in 2.0 and 2.1. */
class MapRoundTripTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  static final Schema SCHEMA = new Schema(List.of(new Field("m", FieldType.nullable(new ArrowType.Map(false)),
      List.of(new Field("entries", FieldType.notNullable(ArrowType.Struct.INSTANCE), List.of(
          new Field("key", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
          Field.nullable("value", new ArrowType.Int(32, true))))))));

  private VectorSchemaRoot maps(int n) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    root.allocateNew();
    MapVector m = (MapVector) root.getVector("m");
    StructVector e = (StructVector) m.getDataVector();
    for (int i = 0; i < n; i++) {
      if (i % 5 == 4) {
        m.setNull(i);
        continue;
      }
      int at = m.startNewValue(i);
      int k = i % 4;
      for (int j = 0; j < k; j++) {
        e.setIndexDefined(at + j);
        ((VarCharVector) e.getChild("key")).setSafe(at + j, ("k" + j).getBytes(StandardCharsets.UTF_8));
        IntVector v = (IntVector) e.getChild("value");
        if ((i + j) % 3 == 0) {
          v.setNull(at + j);
        } else {
          v.setSafe(at + j, i * 10 + j);
        }
      }
      m.endValue(i, k);
    }
    root.setRowCount(n);
    return root;
  }

  @Test
  void roundTripsIn22() throws Exception {
    try (VectorSchemaRoot root = maps(5000)) {
      Path f = V21Fixtures.write(dir.resolve("m.lance"),
          WriteOptions.builder().version(LanceFileVersion.V2_2).maxPageBytes(4096).build(), root);
      List<List<Object>> expected = V21Fixtures.rows(root);
      assertThat(expected.get(4).get(0)).isNull();
      assertThat(expected.get(0).get(0)).asList().isEmpty();
      assertThat(V21Fixtures.readAll(allocator, f, 333)).isEqualTo(expected);
      try (LanceFileReader r = LanceFileReader.open(f, allocator)) {
        assertThat(r.schema()).isEqualTo(SCHEMA);
        long[] rows = {4999, 3, 4, 0, 2500, 3};
        try (VectorSchemaRoot t = r.take(rows, null)) {
          assertThat(t.getVector(0)).isInstanceOf(MapVector.class);
          List<List<Object>> want = new ArrayList<>();
          for (long x : rows) {
            want.add(expected.get((int) x));
          }
          assertThat(V21Fixtures.rows(t)).isEqualTo(want);
        }
      }
    }
  }

  @Test
  void refusedBefore22() throws Exception {
    for (LanceFileVersion v : new LanceFileVersion[] {LanceFileVersion.V2_0, LanceFileVersion.V2_1}) {
      try (VectorSchemaRoot root = maps(10)) {
        Path f = dir.resolve("m" + v + ".lance");
        assertThatThrownBy(() -> V21Fixtures.write(f, WriteOptions.builder().version(v).build(), root))
            .isInstanceOf(UnsupportedFormatException.class)
            .hasMessageContaining("Map field 'm' needs Lance file format 2.2 or later; this file is " + v);
      }
    }
  }
}
