package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.assertSameRows;
import static dev.javelin.compat.DatasetCompatSupport.batches;
import static dev.javelin.compat.DatasetCompatSupport.expected;
import static dev.javelin.compat.DatasetCompatSupport.javelinScan;
import static dev.javelin.compat.DatasetCompatSupport.readAll;
import static dev.javelin.compat.DatasetCompatSupport.readerOf;
import static dev.javelin.compat.DatasetCompatSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.ColumnAlteration;
import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.table.DataFile;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lance.ipc.ScanOptions;
import org.lance.schema.SqlExpressions;

/**
 * Added, dropped and altered columns, both ways: Javelin's Merge/Project commits read by
 * lance-core 7.0.0, and lance-core's add_columns/drop_columns/alter_columns read by Javelin.
 */
class DatasetSchemaEvolutionCompatTest {
  /** Stream-added columns: t = "t{r}" (null when r % 6 == 5), y = 2r. */
  static final Schema NEW = new Schema(List.of(
      Field.nullable("t", ArrowType.Utf8.INSTANCE),
      new Field("y", FieldType.notNullable(new ArrowType.Int(64, true)), null)));
  static final Schema F = new Schema(List.of(new Field("f", FieldType.nullable(new ArrowType.Int(64, true)), null)));

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  static VectorSchemaRoot newBatch(BufferAllocator a, long start, int n) {
    VectorSchemaRoot root = VectorSchemaRoot.create(NEW, a);
    root.allocateNew();
    VarCharVector t = (VarCharVector) root.getVector("t");
    BigIntVector y = (BigIntVector) root.getVector("y");
    for (int i = 0; i < n; i++) {
      long r = start + i;
      if (r % 6 == 5) {
        t.setNull(i);
      } else {
        t.setSafe(i, ("t" + r).getBytes(StandardCharsets.UTF_8));
      }
      y.setSafe(i, 2 * r);
    }
    root.setRowCount(n);
    return root;
  }

  /** The new columns for rows [0, total), in batches of {@code per} (not aligned with fragments). */
  static ArrowReader newValues(BufferAllocator a, long total, int per) {
    return new ArrowReader(a) {
      private long done;

      @Override
      public boolean loadNextBatch() throws IOException {
        if (done >= total) {
          return false;
        }
        int n = (int) Math.min(per, total - done);
        try (VectorSchemaRoot b = newBatch(a, done, n);
            ArrowRecordBatch rb = new VectorUnloader(b).getRecordBatch()) {
          loadRecordBatch(rb);
        }
        done += n;
        return true;
      }

      @Override
      public long bytesRead() {
        return 0;
      }

      @Override
      protected void closeReadSource() {}

      @Override
      protected Schema readSchema() {
        return NEW;
      }
    };
  }

  private ArrowArrayStream toStream(ArrowReader reader) {
    ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator);
    Data.exportArrayStream(allocator, reader, stream);
    return stream;
  }

  private static String t(long r) {
    return r % 6 == 5 ? null : "t" + r;
  }

  private static List<List<String>> lanceScan(org.lance.Dataset lance) throws Exception {
    try (var scanner = lance.newScan(new ScanOptions.Builder().batchSize(700).build())) {
      return readAll(scanner.scanBatches());
    }
  }

  private static List<List<String>> javelinScanOrAbort(Dataset ds) throws IOException {
    return javelinScan(ds); // a file Javelin cannot decode fails the test
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void lanceReadsColumnsJavelinAddedDroppedAndAltered(String version) throws Exception {
    Path path = dir.resolve("ds");
    LanceFileVersion v = version.equals("2.0") ? LanceFileVersion.V2_0 : LanceFileVersion.V2_1;
    Dataset ds;
    List<VectorSchemaRoot> data = batches(allocator, 0, 2500, 600);
    try {
      ds = Dataset.create(path, data, WriteParams.builder().fileVersion(v).maxRowsPerFile(1000).build(), allocator);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
    try (ArrowReader values = newValues(allocator, 2500, 700)) {
      ds = ds.addColumns(values);
    }
    ds = ds.addColumns(F, List.of("id"), in -> {
      BigIntVector id = (BigIntVector) in.getVector("id");
      VectorSchemaRoot out = VectorSchemaRoot.create(F, allocator);
      BigIntVector f = (BigIntVector) out.getVector("f");
      f.allocateNew(in.getRowCount());
      for (int i = 0; i < in.getRowCount(); i++) {
        f.set(i, id.get(i) + 7);
      }
      out.setRowCount(in.getRowCount());
      return out;
    });
    ds = ds.addNullColumns(List.of(Field.nullable("n", ArrowType.Utf8.INSTANCE)));
    ds = ds.dropColumns("x", "st.b");
    ds = ds.alterColumns(ColumnAlteration.of("s").rename("s2"), ColumnAlteration.of("st.a").rename("alpha"),
        ColumnAlteration.of("id").nullable(true));
    assertThat(ds.version()).isEqualTo(6);
    assertThat(ds.manifest().fragments().get(0).files().get(0).fields()).contains(DataFile.TOMBSTONE);

    // id, s2, l, st{alpha, b}, t, y, f, n
    List<List<String>> want = new ArrayList<>();
    List<List<String>> base = expected(allocator, 0, 2500);
    for (int r = 0; r < 2500; r++) {
      List<String> row = new ArrayList<>(base.get(r));
      row.remove(1);
      row.set(3, row.get(3).replace("\"a\"", "\"alpha\"").replaceAll(",?\"b\":\"b[0-9]+\"", ""));
      row.add(t(r));
      row.add(String.valueOf(2L * r));
      row.add(String.valueOf(r + 7L));
      row.add(null);
      want.add(row);
    }
    assertSameRows(javelinScan(ds), want);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.version()).isEqualTo(6);
      assertThat(lance.getSchema().getFields()).extracting(Field::getName)
          .containsExactly("id", "s2", "l", "st", "t", "y", "f", "n");
      assertThat(lance.getSchema().findField("id").isNullable()).isTrue();
      assertSameRows(lanceScan(lance), want);
      List<Long> offsets = List.of(2499L, 0L, 1000L, 999L, 17L);
      List<List<String>> wantTaken = new ArrayList<>();
      offsets.forEach(o -> wantTaken.add(want.get(o.intValue()).subList(4, 8)));
      assertSameRows(readAll(lance.take(offsets, List.of("t", "y", "f", "n"))), wantTaken);

      // lance-core adds a column of its own on top, and Javelin reads it.
      lance.addColumns(new SqlExpressions.Builder().withExpression("w", "y + 1").build(), Optional.empty());
      for (int r = 0; r < 2500; r++) {
        want.get(r).add(String.valueOf(2L * r + 1));
      }
      assertSameRows(lanceScan(lance), want);
    }
    Dataset after = Dataset.open(path, allocator);
    assertThat(after.version()).isEqualTo(7);
    List<List<String>> got = javelinScanOrAbort(after);
    assertSameRows(got, want);
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void javelinReadsColumnsLanceAddedDroppedAndAltered(String version) throws Exception {
    Path path = dir.resolve("ds");
    List<VectorSchemaRoot> data = batches(allocator, 0, 2000, 400);
    try (ArrowReader reader = readerOf(allocator, data)) {
      org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString())
          .mode(org.lance.WriteParams.WriteMode.CREATE).maxRowsPerFile(900).dataStorageVersion(version)
          .execute().close();
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.addColumns(new SqlExpressions.Builder().withExpression("w", "id * 2").build(), Optional.empty());
      try (ArrowReader values = newValues(allocator, 2000, 650); ArrowArrayStream stream = toStream(values)) {
        lance.addColumns(stream, Optional.empty());
      }
      lance.addColumns(List.of(Field.nullable("n", ArrowType.Utf8.INSTANCE)));
      lance.dropColumns(List.of("x", "st.b"));
      lance.alterColumns(List.of(new org.lance.schema.ColumnAlteration.Builder("s").rename("s2").build(),
          new org.lance.schema.ColumnAlteration.Builder("st.a").rename("alpha").build()));
      assertThat(lance.version()).isEqualTo(6);
    }
    // id, s2, l, st{alpha, b}, w, t, y, n
    List<List<String>> want = new ArrayList<>();
    List<List<String>> base = expected(allocator, 0, 2000);
    for (int r = 0; r < 2000; r++) {
      List<String> row = new ArrayList<>(base.get(r));
      row.remove(1);
      row.set(3, row.get(3).replace("\"a\"", "\"alpha\"").replaceAll(",?\"b\":\"b[0-9]+\"", ""));
      row.add(String.valueOf(2L * r));
      row.add(t(r));
      row.add(String.valueOf(2L * r));
      row.add(null);
      want.add(row);
    }
    Dataset ds = Dataset.open(path, allocator);
    assertThat(ds.versions()).extracting(x -> x.operation())
        .containsExactly("Overwrite", "Merge", "Merge", "Merge", "Project", "Project");
    assertThat(ds.schema().toArrow().getFields()).extracting(Field::getName)
        .containsExactly("id", "s2", "l", "st", "w", "t", "y", "n");
    List<List<String>> got = javelinScanOrAbort(ds);
    assertSameRows(got, want);
    long[] offsets = {1999, 0, 900, 899, 1800};
    try (VectorSchemaRoot taken = ds.take(offsets)) {
      List<List<String>> wantTaken = new ArrayList<>();
      for (long o : offsets) {
        wantTaken.add(want.get((int) o));
      }
      assertSameRows(rows(taken), wantTaken);
    }

    // Javelin adds and drops more; lance-core reads the result.
    ds = ds.dropColumns("w");
    try (ArrowReader values = newValues(allocator, 2000, 333)) {
      ds = ds.alterColumns(ColumnAlteration.of("t").rename("t0"), ColumnAlteration.of("y").rename("y0"))
          .addColumns(values);
    }
    ds = ds.addNullColumns(List.of(Field.nullable("n2", new ArrowType.Int(32, true))));
    for (int r = 0; r < 2000; r++) {
      List<String> row = want.get(r);
      row.remove(4);
      row.add(t(r));
      row.add(String.valueOf(2L * r));
      row.add(null);
    }
    assertSameRows(javelinScan(ds), want);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.version()).isEqualTo(ds.version());
      assertThat(lance.getSchema().getFields()).extracting(Field::getName)
          .containsExactly("id", "s2", "l", "st", "t0", "y0", "n", "t", "y", "n2");
      assertSameRows(lanceScan(lance), want);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void aStaleLanceAppendLandsOnJavelinsDropAndJavelinAddsAfterIt(String version) throws Exception {
    Path path = dir.resolve("ds");
    LanceFileVersion v = version.equals("2.0") ? LanceFileVersion.V2_0 : LanceFileVersion.V2_1;
    List<VectorSchemaRoot> data = batches(allocator, 0, 1500, 600);
    Dataset ds;
    try {
      ds = Dataset.create(path, data, WriteParams.builder().fileVersion(v).maxRowsPerFile(1000).build(), allocator);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
    int xId = ds.schema().field("x").get().id();
    // lance-core writes its fragment while reading version 1 (with x) ...
    List<org.lance.FragmentMetadata> frags;
    try (VectorSchemaRoot root = DatasetCompatSupport.batch(allocator, 1500, 500)) {
      frags = org.lance.Fragment.create(path.toString(), allocator, root,
          new org.lance.WriteParams.Builder().withDataStorageVersion(version).build());
    }
    // ... Javelin drops x meanwhile ...
    ds = ds.dropColumns("x");
    // ... and lance-core commits its Append with read version 1: Lance rebases an Append over a
    // Project, so it lands, its file still holding x under its old id.
    try (org.lance.Dataset lance = org.lance.Dataset.commit(allocator, path.toString(),
        new org.lance.FragmentOperation.Append(frags), Optional.of(1L))) {
      assertThat(lance.version()).isEqualTo(3);
    }
    ds = ds.checkoutLatest();
    assertThat(ds.version()).isEqualTo(3);
    assertThat(ds.schema().field("x")).isEmpty();
    // A column added now gets an id past the stale file's x, so it reads as nulls there, not x.
    ds = ds.addNullColumns(List.of(Field.nullable("x2", new ArrowType.FloatingPoint(
        org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE))));
    assertThat(ds.schema().field("x2").get().id()).isGreaterThan(xId);
    List<List<String>> want = new ArrayList<>();
    for (List<String> row : expected(allocator, 0, 2000)) {
      List<String> r = new ArrayList<>(row);
      r.remove(1);
      r.add(null);
      want.add(r);
    }
    List<List<String>> got = javelinScanOrAbort(ds);
    assertSameRows(got, want);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertSameRows(lanceScan(lance), want);
    }
  }
}
