package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.assertSameRows;
import static dev.javelin.compat.DatasetCompatSupport.readAll;
import static dev.javelin.compat.DatasetCompatSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.WriteOptions;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.format.schema.LanceField;
import dev.javelin.io.LocalOutputFile;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.ipc.ScanOptions;

/**
 * Map columns between Javelin and lance-core 7.0.0, which writes them in format 2.2 only: a
 * {@code map<string, int32>} with null maps, empty maps and null values; a map inside a struct; a
 * map with struct values. Both ways, row by row, in scans, takes and filters on other columns and
 * {@code IS NULL} on the map. Lance has no filter on a map's keys ({@code m['k']} is "column m.k
 * does not exist"), so neither has Javelin. Maps in 2.1 files and maps with sorted keys are
 * refused, as lance-core refuses them.
 */
class MapColumnsCompatTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  static Field map(String name, boolean nullable, Field key, Field value) {
    Field entries = new Field("entries", FieldType.notNullable(ArrowType.Struct.INSTANCE), List.of(key, value));
    return new Field(name, new FieldType(nullable, new ArrowType.Map(false), null), List.of(entries));
  }

  static final Field TAGS = map("tags", true, new Field("key", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
      Field.nullable("value", new ArrowType.Int(32, true)));
  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      TAGS,
      new Field("st", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
          Field.nullable("name", ArrowType.Utf8.INSTANCE),
          map("attrs", true, new Field("key", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
              Field.nullable("value", ArrowType.Utf8.INSTANCE)))),
      map("points", true, new Field("key", FieldType.notNullable(new ArrowType.Int(64, true)), null),
          new Field("value", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
              Field.nullable("a", new ArrowType.Int(32, true)),
              Field.nullable("b", ArrowType.Utf8.INSTANCE))))));

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Rows [start, start + n): null maps, empty maps, null values, all a function of the row number. */
  static VectorSchemaRoot batch(BufferAllocator a, long start, int n) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, a);
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    MapVector tags = (MapVector) root.getVector("tags");
    StructVector st = (StructVector) root.getVector("st");
    MapVector points = (MapVector) root.getVector("points");
    for (int i = 0; i < n; i++) {
      long r = start + i;
      id.setSafe(i, r);
      // tags: null every 7th row, empty every 5th, else r % 4 entries, some values null.
      if (r % 7 == 3) {
        tags.setNull(i);
      } else {
        StructVector e = (StructVector) tags.getDataVector();
        int at = tags.startNewValue(i);
        int k = r % 5 == 0 ? 0 : (int) (r % 4);
        for (int j = 0; j < k; j++) {
          e.setIndexDefined(at + j);
          ((VarCharVector) e.getChild("key")).setSafe(at + j, utf8("k" + j));
          IntVector v = (IntVector) e.getChild("value");
          if ((r + j) % 6 == 1) {
            v.setNull(at + j);
          } else {
            v.setSafe(at + j, (int) (r * 10 + j));
          }
        }
        tags.endValue(i, k);
      }
      // st: null every 11th row; its map null every 3rd.
      if (r % 11 == 5) {
        st.setNull(i);
      } else {
        st.setIndexDefined(i);
        ((VarCharVector) st.getChild("name")).setSafe(i, utf8("n" + r));
        MapVector attrs = (MapVector) st.getChild("attrs");
        if (r % 3 == 0) {
          attrs.setNull(i);
        } else {
          StructVector e = (StructVector) attrs.getDataVector();
          int at = attrs.startNewValue(i);
          int k = (int) (r % 3);
          for (int j = 0; j < k; j++) {
            e.setIndexDefined(at + j);
            ((VarCharVector) e.getChild("key")).setSafe(at + j, utf8("a" + j));
            ((VarCharVector) e.getChild("value")).setSafe(at + j, utf8("v" + r + "-" + j));
          }
          attrs.endValue(i, k);
        }
      }
      // points: struct values, some null, some with null fields.
      if (r % 13 == 0) {
        points.setNull(i);
      } else {
        StructVector e = (StructVector) points.getDataVector();
        int at = points.startNewValue(i);
        int k = (int) (r % 3);
        for (int j = 0; j < k; j++) {
          e.setIndexDefined(at + j);
          ((BigIntVector) e.getChild("key")).setSafe(at + j, r * 100 + j);
          StructVector v = (StructVector) e.getChild("value");
          if ((r + j) % 4 == 2) {
            v.setNull(at + j);
          } else {
            v.setIndexDefined(at + j);
            IntVector va = (IntVector) v.getChild("a");
            if (j == 1) {
              va.setNull(at + j);
            } else {
              va.setSafe(at + j, (int) r + j);
            }
            ((VarCharVector) v.getChild("b")).setSafe(at + j, utf8("b" + j));
          }
        }
        points.endValue(i, k);
      }
    }
    root.setRowCount(n);
    return root;
  }

  static List<VectorSchemaRoot> batches(BufferAllocator a, long start, int total, int per) {
    List<VectorSchemaRoot> out = new ArrayList<>();
    for (int done = 0; done < total; done += per) {
      out.add(batch(a, start + done, Math.min(per, total - done)));
    }
    return out;
  }

  List<List<String>> expected(long start, int n) {
    try (VectorSchemaRoot r = batch(allocator, start, n)) {
      return rows(r);
    }
  }

  ArrowReader readerOf(List<VectorSchemaRoot> batches) {
    return DatasetCompatSupport.readerOf(allocator, SCHEMA, batches);
  }

  private void lanceCreate(Path path, String version, long start, int rows, org.lance.WriteParams.WriteMode mode)
      throws IOException {
    List<VectorSchemaRoot> data = batches(allocator, start, rows, 300);
    try (ArrowReader reader = readerOf(data)) {
      org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString()).mode(mode)
          .maxRowsPerFile(700).dataStorageVersion(version).execute().close();
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  private List<List<String>> lanceScan(Path path, String filter) throws Exception {
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      ScanOptions.Builder b = new ScanOptions.Builder();
      if (filter != null) {
        b.filter(filter);
      }
      try (var scanner = lance.newScan(b.build())) {
        return readAll(scanner.scanBatches());
      }
    }
  }

  private static List<List<String>> where(List<List<String>> rows, java.util.function.Predicate<List<String>> p) {
    return rows.stream().filter(p).toList();
  }

  @Test
  void javelinReadsMapsLanceWrites() throws Exception {
    Path path = dir.resolve("lance");
    lanceCreate(path, "2.2", 0, 2000, org.lance.WriteParams.WriteMode.CREATE);
    Dataset ds = Dataset.open(path, allocator);
    assertThat(ds.fileVersion()).isEqualTo(LanceFileVersion.V2_2);
    LanceField tags = ds.schema().fields().get(1);
    assertThat(tags.logicalType()).isEqualTo("map");
    assertThat(tags.flatten()).extracting(f -> f.name() + ":" + f.logicalType() + (f.nullable() ? "" : "!"))
        .containsExactly("tags:map", "entries:struct!", "key:string!", "value:int32");
    assertThat(ds.schema().toArrow()).isEqualTo(SCHEMA);

    List<List<String>> all = expected(0, 2000);
    assertSameRows(DatasetCompatSupport.javelinScan(ds), all);
    assertSameRows(DatasetCompatSupport.javelinScan(ds), lanceScan(path, null));
    long[] offsets = {1999, 0, 700, 699, 1400, 13, 13, 5};
    try (VectorSchemaRoot got = ds.take(offsets)) {
      List<List<String>> want = new ArrayList<>();
      for (long o : offsets) {
        want.add(all.get((int) o));
      }
      assertSameRows(rows(got), want);
    }
    for (String filter : List.of("tags IS NULL", "tags IS NOT NULL AND id > 1500", "id % 10 = 3",
        "st.name = 'n42'", "points IS NULL")) {
      assertSameRows(readAll(ds.newScan().filter(filter).build()), lanceScan(path, filter));
    }
    assertThat(ds.countRows("tags IS NULL")).isEqualTo(where(all, r -> r.get(1) == null).size()).isPositive();
  }

  @Test
  void lanceReadsMapsJavelinWrites() throws Exception {
    Path path = dir.resolve("javelin");
    List<VectorSchemaRoot> data = batches(allocator, 0, 1800, 600);
    Dataset ds;
    try {
      ds = Dataset.create(path, data, WriteParams.builder().fileVersion(LanceFileVersion.V2_2).maxRowsPerFile(700)
          .build(), allocator);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
    List<VectorSchemaRoot> more = batches(allocator, 1800, 200, 200);
    try {
      ds = ds.append(more, WriteParams.defaults());
    } finally {
      more.forEach(VectorSchemaRoot::close);
    }
    List<List<String>> all = expected(0, 2000);
    assertSameRows(lanceScan(path, null), all);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.countRows("tags IS NULL")).isEqualTo(where(all, r -> r.get(1) == null).size());
      assertThat(lance.getLanceSchema().toString()).contains("tags");
      try (ArrowReader taken = lance.take(List.of(1999L, 3L, 700L), List.of("id", "tags", "points"))) {
        List<List<String>> want = new ArrayList<>();
        for (int o : new int[] {1999, 3, 700}) {
          want.add(List.of(all.get(o).get(0), String.valueOf(all.get(o).get(1)), String.valueOf(all.get(o).get(3))));
        }
        List<List<String>> got = new ArrayList<>();
        for (List<String> r : readAll(taken)) {
          got.add(List.of(r.get(0), String.valueOf(r.get(1)), String.valueOf(r.get(2))));
        }
        assertThat(got).isEqualTo(want);
      }
    }
    // lance-core appends to the dataset Javelin wrote; both read the same rows.
    lanceCreate(path, "2.2", 2000, 300, org.lance.WriteParams.WriteMode.APPEND);
    assertSameRows(DatasetCompatSupport.javelinScan(Dataset.open(path, allocator)), expected(0, 2300));
  }

  /** A single 2.2 file with maps, written by Javelin, read by lance-core's file reader and back. */
  @Test
  void mapFilesBothWays() throws Exception {
    Path f = dir.resolve("m.lance");
    try (VectorSchemaRoot root = batch(allocator, 0, 3000);
        LanceFileWriter w = LanceFileWriter.create(new LocalOutputFile(f), SCHEMA,
            WriteOptions.builder().version(LanceFileVersion.V2_2).maxPageBytes(8 * 1024).build())) {
      w.write(root);
    }
    assertThat(lanceFileRows(f)).isEqualTo(expected(0, 3000));
    assertThat(javelinFileRows(f)).isEqualTo(expected(0, 3000));
    Path l = dir.resolve("l.lance");
    try (VectorSchemaRoot root = batch(allocator, 0, 3000);
        org.lance.file.LanceFileWriter w = org.lance.file.LanceFileWriter.open(l.toString(), allocator, null,
            Optional.of("2.2"), java.util.Map.of())) {
      w.write(root);
    }
    assertThat(javelinFileRows(l)).isEqualTo(expected(0, 3000));
  }

  private List<List<String>> lanceFileRows(Path f) throws Exception {
    try (org.lance.file.LanceFileReader r = org.lance.file.LanceFileReader.open(f.toString(), allocator)) {
      return readAll(r.readAll(null, null, 1000));
    }
  }

  private List<List<String>> javelinFileRows(Path f) throws Exception {
    try (LanceFileReader r = LanceFileReader.open(f, allocator)) {
      return readAll(r.read(dev.javelin.format.ReadOptions.builder().batchSize(700).build()));
    }
  }

  /** lance-core refuses maps below format 2.2 and maps with sorted keys; so does Javelin, committing nothing. */
  @Test
  void mapsNeed22AndUnsortedKeys() throws Exception {
    Path lance21 = dir.resolve("lance21");
    assertThatThrownBy(() -> lanceCreate(lance21, "2.1", 0, 10, org.lance.WriteParams.WriteMode.CREATE))
        .hasMessageContaining("Map data type is only supported in Lance file format 2.2+");

    for (LanceFileVersion v : new LanceFileVersion[] {LanceFileVersion.V2_0, LanceFileVersion.V2_1}) {
      Path path = dir.resolve("javelin" + v);
      List<VectorSchemaRoot> data = batches(allocator, 0, 10, 10);
      try {
        assertThatThrownBy(() -> Dataset.create(path, data, WriteParams.builder().fileVersion(v).build(), allocator))
            .isInstanceOf(UnsupportedFormatException.class)
            .hasMessageContaining("Map field 'tags' needs Lance file format 2.2 or later; this file is " + v);
      } finally {
        data.forEach(VectorSchemaRoot::close);
      }
      assertThat(Files.exists(path.resolve("_versions")) && Files.list(path.resolve("_versions")).findAny().isPresent())
          .as("a version of %s", path).isFalse();
    }

    Schema sorted = new Schema(List.of(new Field("m", FieldType.nullable(new ArrowType.Map(true)),
        TAGS.getChildren())));
    assertThatThrownBy(() -> dev.javelin.format.schema.LanceSchema.fromArrow(sorted))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keys_sorted=true");
  }
}
