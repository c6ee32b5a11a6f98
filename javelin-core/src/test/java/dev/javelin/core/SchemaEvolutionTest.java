package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.exceptions.ColumnLengthMismatchException;
import dev.javelin.core.exceptions.SchemaEvolutionException;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.table.DataFile;
import dev.javelin.table.Fragment;
import dev.javelin.table.OperationKind;
import dev.javelin.table.exceptions.CommitConflictException;
import dev.javelin.testing.MixedBatches;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SchemaEvolutionTest {
  static final Schema NEW = new Schema(List.of(
      Field.nullable("t", ArrowType.Utf8.INSTANCE),
      new Field("y", FieldType.notNullable(new ArrowType.Int(64, true)), null)));

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private Dataset create(LanceFileVersion v, int rows) {
    List<VectorSchemaRoot> batches = MixedBatches.batches(allocator, 0, rows, 700);
    try {
      return Dataset.create(dir.resolve("ds"), batches,
          WriteParams.builder().fileVersion(v).maxRowsPerFile(1000).maxRowsPerGroup(300).build(), allocator);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  /** Rows [start, start + n) of the new columns: t = "t{r}" (null when r % 6 == 5), y = 2r. */
  static VectorSchemaRoot newBatch(BufferAllocator a, Schema schema, long start, int n) {
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, a);
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

  /** Streams the new columns for rows [0, total) in batches of {@code per}. */
  static final class NewValues extends ArrowReader {
    private final long total;
    private final int per;
    private long done;

    NewValues(BufferAllocator a, long total, int per) {
      super(a);
      this.total = total;
      this.per = per;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      ensureInitialized();
      if (done >= total) {
        return false;
      }
      int n = (int) Math.min(per, total - done);
      try (VectorSchemaRoot b = newBatch(allocator, NEW, done, n);
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
  }

  private List<List<Object>> expectedWithNew(int rows) {
    List<List<Object>> out;
    try (VectorSchemaRoot r = MixedBatches.batch(allocator, 0, rows)) {
      out = MixedBatches.rows(r);
    }
    for (int i = 0; i < rows; i++) {
      out.get(i).add(i % 6 == 5 ? null : "t" + i);
      out.get(i).add(String.valueOf(2L * i));
    }
    return out;
  }

  private long dataFiles() throws IOException {
    try (Stream<Path> s = Files.list(dir.resolve("ds").resolve("data"))) {
      return s.count();
    }
  }

  private static void assertTake(Dataset ds, List<List<Object>> all, long... offsets) {
    try (VectorSchemaRoot got = ds.take(offsets)) {
      assertThat(got.getSchema()).isEqualTo(ds.schema().toArrow());
      List<List<Object>> rows = MixedBatches.rows(got);
      for (int i = 0; i < offsets.length; i++) {
        assertThat(rows.get(i)).as("offset %d", offsets[i]).isEqualTo(all.get((int) offsets[i]));
      }
    }
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void addColumnsFromAStreamAlignedWithScanOrder(LanceFileVersion v) throws Exception {
    Dataset ds = create(v, 2500);
    int maxId = ds.schema().flatten().stream().mapToInt(f -> f.id()).max().getAsInt();
    Dataset added;
    try (NewValues values = new NewValues(allocator, 2500, 700)) {
      added = ds.addColumns(values);
    }
    assertThat(added.version()).isEqualTo(2);
    assertThat(added.schema().fields()).extracting(f -> f.name()).containsExactly("id", "x", "s", "l", "st", "t", "y");
    assertThat(added.schema().field("t").get().id()).isEqualTo(maxId + 1);
    assertThat(added.schema().field("y").get().id()).isEqualTo(maxId + 2);
    for (Fragment f : added.manifest().fragments()) {
      assertThat(f.files()).hasSize(2);
      assertThat(f.files().get(1).fields()).containsExactly(maxId + 1, maxId + 2);
    }
    assertThat(added.versions().get(1).operation()).isEqualTo(OperationKind.MERGE.displayName());
    List<List<Object>> all = expectedWithNew(2500);
    MixedBatches.assertSameRows(DatasetApiTest.scanAll(added, 333), all);
    MixedBatches.assertSameRows(DatasetApiTest.scanAll(Dataset.open(dir.resolve("ds"), allocator), 4096), all);
    assertTake(added, all, 2499, 0, 1000, 999, 1500, 7);
    // The old version still reads without the new columns.
    assertThat(added.checkout(1).schema().fields()).hasSize(5);
  }

  @Test
  void aStreamOfTheWrongLengthLeavesNothingBehind() throws Exception {
    Dataset ds = create(LanceFileVersion.V2_1, 2500);
    long files = dataFiles();
    try (NewValues values = new NewValues(allocator, 2499, 700)) {
      assertThatThrownBy(() -> ds.addColumns(values)).isInstanceOf(ColumnLengthMismatchException.class)
          .hasMessage("The new columns [t, y] have fewer values than the dataset's 2500 rows (2499): "
              + ds.location());
    }
    try (NewValues values = new NewValues(allocator, 2501, 700)) {
      assertThatThrownBy(() -> ds.addColumns(values)).isInstanceOf(ColumnLengthMismatchException.class)
          .hasMessage("The new columns [t, y] have more values than the dataset's 2500 rows: " + ds.location())
          .satisfies(e -> assertThat(((ColumnLengthMismatchException) e).expectedRows()).isEqualTo(2500));
    }
    assertThat(dataFiles()).isEqualTo(files);
    assertThat(ds.checkoutLatest().version()).isEqualTo(1);
  }

  @Test
  void addColumnsFromAFunctionOverExistingColumns() throws Exception {
    Dataset ds = create(LanceFileVersion.V2_1, 2500);
    List<Integer> batchSizes = new ArrayList<>();
    Dataset added = ds.addColumns(NEW, List.of("id"), in -> {
      batchSizes.add(in.getRowCount());
      assertThat(in.getSchema().getFields()).extracting(Field::getName).containsExactly("id");
      BigIntVector id = (BigIntVector) in.getVector("id");
      VectorSchemaRoot out = newBatch(allocator, NEW, id.get(0), in.getRowCount());
      // Reordered columns are matched by name.
      return new VectorSchemaRoot(List.of(out.getVector("y"), out.getVector("t")));
    });
    // Fragment by fragment (1000, 1000, 500 rows), never a batch across two.
    assertThat(batchSizes).containsExactly(1000, 1000, 500);
    MixedBatches.assertSameRows(DatasetApiTest.scanAll(added, 700), expectedWithNew(2500));
  }

  @Test
  void aFunctionReadingNoColumnsStillSeesEveryRow() throws Exception {
    Dataset ds = create(LanceFileVersion.V2_0, 1500);
    long[] next = {0};
    Dataset added = ds.addColumns(NEW, List.of(), in -> {
      assertThat(in.getFieldVectors()).isEmpty();
      VectorSchemaRoot out = newBatch(allocator, NEW, next[0], in.getRowCount());
      next[0] += in.getRowCount();
      return out;
    });
    MixedBatches.assertSameRows(DatasetApiTest.scanAll(added, 512), expectedWithNew(1500));
  }

  @Test
  void aFunctionReturningTheWrongLengthLeavesNothingBehind() throws Exception {
    Dataset ds = create(LanceFileVersion.V2_1, 2500);
    long files = dataFiles();
    int[] calls = {0};
    assertThatThrownBy(() -> ds.addColumns(NEW, List.of("id"),
        in -> newBatch(allocator, NEW, 0, ++calls[0] == 2 ? in.getRowCount() - 1 : in.getRowCount())))
        .isInstanceOf(ColumnLengthMismatchException.class)
        .hasMessage("The column function returned 999 rows for a batch of 1000 (columns [t, y]): " + ds.location());
    assertThat(dataFiles()).isEqualTo(files);
    assertThat(ds.checkoutLatest().version()).isEqualTo(1);
  }

  @Test
  void badNewColumnsAreRefusedByName() throws Exception {
    Dataset ds = create(LanceFileVersion.V2_1, 100);
    assertThatThrownBy(() -> ds.addNullColumns(List.of(Field.nullable("s", ArrowType.Utf8.INSTANCE))))
        .isInstanceOf(SchemaEvolutionException.class)
        .hasMessage("Column 's' already exists in the dataset: " + ds.location());
    assertThatThrownBy(() -> ds.addNullColumns(List.of(Field.nullable("n", ArrowType.Utf8.INSTANCE),
        Field.nullable("n", ArrowType.Utf8.INSTANCE))))
        .isInstanceOf(SchemaEvolutionException.class)
        .hasMessage("Column 'n' is given twice: " + ds.location());
    assertThatThrownBy(() -> ds.addNullColumns(List.of(new Field("n", FieldType.nullable(ArrowType.Struct.INSTANCE),
        List.of(new Field("k", FieldType.notNullable(new ArrowType.Int(32, true)), null))))))
        .isInstanceOf(SchemaEvolutionException.class)
        .hasMessage("All-null column 'n' must be nullable, but 'n.k' is not: " + ds.location());
    try (NewValues values = new NewValues(allocator, 100, 50)) {
      // A stream whose schema misses a declared column is a schema mismatch, before any file.
      assertThatThrownBy(() -> ds.addColumns(new Schema(List.of(Field.nullable("z", ArrowType.Utf8.INSTANCE))),
          List.of("id"), in -> newBatch(allocator, NEW, 0, in.getRowCount())))
          .isInstanceOf(dev.javelin.table.exceptions.SchemaMismatchException.class)
          .hasMessage("Field 'z' does not match the dataset's schema (missing from the data): " + ds.location());
    }
    assertThat(ds.checkoutLatest().version()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void allNullColumnsAreMetadataOnlyAndReadAsNulls(LanceFileVersion v) throws Exception {
    Dataset ds = create(v, 2500);
    long files = dataFiles();
    List<Field> nulls = List.of(Field.nullable("n", ArrowType.Utf8.INSTANCE),
        new Field("nl", FieldType.nullable(ArrowType.List.INSTANCE),
            List.of(Field.nullable("item", new ArrowType.Int(32, true)))),
        new Field("ns", FieldType.nullable(ArrowType.Struct.INSTANCE),
            List.of(Field.nullable("k", new ArrowType.Int(64, true)))));
    Dataset added = ds.addNullColumns(nulls);
    assertThat(dataFiles()).isEqualTo(files);
    assertThat(added.manifest().fragments()).isEqualTo(ds.manifest().fragments());
    List<List<Object>> all;
    try (VectorSchemaRoot r = MixedBatches.batch(allocator, 0, 2500)) {
      all = MixedBatches.rows(r);
    }
    all.forEach(row -> {
      row.add(null);
      row.add(null);
      row.add(null);
    });
    MixedBatches.assertSameRows(DatasetApiTest.scanAll(added, 600), all);
    assertTake(added, all, 5, 2400, 1000);
    // Only all-null columns: the rows are still counted from a data file.
    List<List<Object>> onlyNulls = DatasetApiTest.scanAll(added, 700, "ns", "n");
    assertThat(onlyNulls).hasSize(2500).allSatisfy(row -> assertThat(row).containsOnlyNulls());

    Dataset dropped = added.dropColumns("nl", "ns");
    assertThat(dropped.schema().fields()).extracting(f -> f.name()).containsExactly("id", "x", "s", "l", "st", "n");
    MixedBatches.assertSameRows(DatasetApiTest.scanAll(dropped, 4096),
        all.stream().map(r -> r.subList(0, 6)).toList());
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void dropColumnsTombstonesTheirFieldsAndDropsEmptiedFiles(LanceFileVersion v) throws Exception {
    Dataset ds = create(v, 2500);
    Dataset added;
    try (NewValues values = new NewValues(allocator, 2500, 1000)) {
      added = ds.addColumns(values);
    }
    int xId = added.schema().field("x").get().id();
    Dataset dropped = added.dropColumns("x", "t", "y");
    assertThat(dropped.versions().get(2).operation()).isEqualTo(OperationKind.PROJECT.displayName());
    assertThat(dropped.schema().fields()).extracting(f -> f.name()).containsExactly("id", "s", "l", "st");
    for (Fragment f : dropped.manifest().fragments()) {
      assertThat(f.files()).hasSize(1); // the file of t and y is gone
      DataFile d = f.files().get(0);
      assertThat(d.fields()).doesNotContain(xId).contains(DataFile.TOMBSTONE);
      assertThat(d.columnIndices()).isEqualTo(ds.manifest().fragments().get(0).files().get(0).columnIndices());
    }
    List<List<Object>> all;
    try (VectorSchemaRoot r = MixedBatches.batch(allocator, 0, 2500)) {
      all = MixedBatches.rows(r);
    }
    all.forEach(r -> r.remove(1));
    MixedBatches.assertSameRows(DatasetApiTest.scanAll(dropped, 999), all);
    assertTake(dropped, all, 2499, 3, 1001);

    // Appends after the drop write the remaining columns only.
    try (VectorSchemaRoot more = MixedBatches.batch(allocator, 2500, 300)) {
      VectorSchemaRoot withoutX = new VectorSchemaRoot(List.of(more.getVector("id"), more.getVector("s"),
          more.getVector("l"), more.getVector("st")));
      Dataset appended = dropped.append(List.of(withoutX), WriteParams.defaults());
      List<List<Object>> longer = new ArrayList<>(all);
      MixedBatches.rows(more).forEach(r -> {
        r.remove(1);
        longer.add(r);
      });
      MixedBatches.assertSameRows(DatasetApiTest.scanAll(appended, 1000), longer);
      assertThat(appended.manifest().fragments().get(3).files().get(0).fields()).doesNotContain(xId);
    }

    // New columns get ids past every id ever used, so no dropped slot is mistaken for them.
    Dataset again = dropped.checkoutLatest().addNullColumns(List.of(Field.nullable("x", ArrowType.Utf8.INSTANCE)));
    assertThat(again.schema().field("x").get().id()).isGreaterThan(xId);
    assertThat(DatasetApiTest.scanAll(again, 2500, "x")).hasSize(2800)
        .allSatisfy(r -> assertThat(r).containsOnlyNulls());
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void dropNestedColumns(LanceFileVersion v) throws Exception {
    Dataset ds = create(v, 2500);
    int aId = ds.schema().flatten().stream().filter(f -> f.name().equals("a")).findFirst().get().id();
    Dataset dropped = ds.dropColumns("st.a");
    assertThat(dropped.schema().toArrow().getFields().get(4)).isEqualTo(new Field("st",
        FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(Field.nullable("b", ArrowType.Utf8.INSTANCE))));
    for (Fragment f : dropped.manifest().fragments()) {
      assertThat(f.files().get(0).fields()).doesNotContain(aId);
    }
    List<List<Object>> all;
    try (VectorSchemaRoot r = MixedBatches.batch(allocator, 0, 2500)) {
      all = MixedBatches.rows(r);
    }
    // {"a":..,"b":"b7"} -> {"b":"b7"}
    all.forEach(r -> r.set(4, r.get(4).toString().replaceAll("\\\"a\\\":-?[0-9]+,", "")));
    MixedBatches.assertSameRows(DatasetApiTest.scanAll(dropped, 700), all);
    assertTake(dropped, all, 2499, 0, 1000, 1234);
    // Dropping the last field of a struct drops the struct.
    Dataset noStruct = dropped.dropColumns("st.b");
    assertThat(noStruct.schema().fields()).extracting(f -> f.name()).containsExactly("id", "x", "s", "l");
    MixedBatches.assertSameRows(DatasetApiTest.scanAll(noStruct, 4096), all.stream().map(r -> r.subList(0, 4)).toList());
  }

  @Test
  void badDropsAreRefused() {
    Dataset ds = create(LanceFileVersion.V2_1, 100);
    assertThatThrownBy(() -> ds.dropColumns("nope")).isInstanceOf(SchemaEvolutionException.class)
        .hasMessage("Column 'nope' does not exist in the dataset: " + ds.location());
    assertThatThrownBy(() -> ds.dropColumns("st.nope")).isInstanceOf(SchemaEvolutionException.class)
        .hasMessage("Column 'st.nope' does not exist in the dataset: " + ds.location());
    assertThatThrownBy(() -> ds.dropColumns("id", "x", "s", "l", "st")).isInstanceOf(SchemaEvolutionException.class)
        .hasMessage("Cannot drop every column of the dataset: " + ds.location());
    Dataset withNull = ds.addNullColumns(List.of(Field.nullable("n", ArrowType.Utf8.INSTANCE)));
    assertThatThrownBy(() -> withNull.dropColumns("id", "x", "s", "l", "st"))
        .isInstanceOf(SchemaEvolutionException.class)
        .hasMessage("Cannot drop columns [id, x, s, l, st]: fragment 0 would keep no data file (the remaining "
            + "columns are all-null there): " + ds.location());
    assertThat(ds.checkoutLatest().version()).isEqualTo(2);
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void renameAndRelaxNullability(LanceFileVersion v) throws Exception {
    Dataset ds = create(v, 1500);
    Dataset altered = ds.alterColumns(ColumnAlteration.of("id").rename("key").nullable(true),
        ColumnAlteration.of("st.a").rename("alpha"), ColumnAlteration.of("st").rename("rec"));
    Schema want = new Schema(List.of(
        Field.nullable("key", new ArrowType.Int(64, true)),
        MixedBatches.SCHEMA.getFields().get(1), MixedBatches.SCHEMA.getFields().get(2), MixedBatches.SCHEMA.getFields().get(3),
        new Field("rec", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
            Field.nullable("alpha", new ArrowType.Int(32, true)),
            Field.nullable("b", ArrowType.Utf8.INSTANCE)))));
    assertThat(altered.schema().toArrow()).isEqualTo(want);
    assertThat(altered.schema().field("key").get().id()).isEqualTo(ds.schema().field("id").get().id());
    List<List<Object>> all;
    try (VectorSchemaRoot r = MixedBatches.batch(allocator, 0, 1500)) {
      all = MixedBatches.rows(r);
    }
    List<List<Object>> got = DatasetApiTest.scanAll(altered, 700);
    assertThat(got).hasSize(1500);
    for (int i = 0; i < 1500; i++) {
      // Struct values print with their (renamed) child names.
      assertThat(got.get(i).subList(0, 4)).isEqualTo(all.get(i).subList(0, 4));
      assertThat(got.get(i).get(4)).isEqualTo(all.get(i).get(4) == null ? null
          : all.get(i).get(4).toString().replace("\"a\"", "\"alpha\""));
    }
    try (ArrowReader r = altered.newScan().columns("rec", "key").build()) {
      assertThat(r.getVectorSchemaRoot().getSchema().getFields()).extracting(Field::getName)
          .containsExactly("rec", "key");
    }
    assertTake(altered, got, 1499, 0, 1000);
  }

  @Test
  void badAlterationsAreRefused() {
    Dataset ds = create(LanceFileVersion.V2_1, 100);
    assertThatThrownBy(() -> ds.alterColumns(ColumnAlteration.of("x").nullable(false)))
        .isInstanceOf(SchemaEvolutionException.class)
        .hasMessage("Column 'x' is nullable and cannot be made non-nullable: " + ds.location());
    assertThatThrownBy(() -> ds.alterColumns(ColumnAlteration.of("x").rename("s")))
        .isInstanceOf(SchemaEvolutionException.class)
        .hasMessage("Column 's' would exist twice after renaming: " + ds.location());
    assertThatThrownBy(() -> ds.alterColumns(ColumnAlteration.of("st.a").rename("b")))
        .isInstanceOf(SchemaEvolutionException.class)
        .hasMessage("Column 'st.b' would exist twice after renaming: " + ds.location());
    assertThatThrownBy(() -> ds.alterColumns(ColumnAlteration.of("zz").rename("q")))
        .isInstanceOf(SchemaEvolutionException.class)
        .hasMessage("Column 'zz' does not exist in the dataset: " + ds.location());
    assertThat(ds.checkoutLatest().version()).isEqualTo(1);
  }

  @Test
  void staleSchemaChangesFollowLanceConflictRules() throws Exception {
    Dataset ds = create(LanceFileVersion.V2_1, 1500);
    List<VectorSchemaRoot> more = MixedBatches.batches(allocator, 1500, 500, 500);
    Dataset appended;
    try {
      appended = ds.append(more, WriteParams.defaults());
    } finally {
      more.forEach(VectorSchemaRoot::close);
    }
    long files = dataFiles();
    // A Merge built on the old fragment list conflicts with the append (and deletes its files).
    try (NewValues values = new NewValues(allocator, 1500, 700)) {
      assertThatThrownBy(() -> ds.addColumns(values)).isInstanceOf(CommitConflictException.class)
          .hasMessage("This Merge (read version 1) conflicts with the Append committed as version 2: "
              + ds.location());
    }
    assertThat(dataFiles()).isEqualTo(files);
    // A Project rebases: the appended fragment's fields are tombstoned too.
    Dataset dropped = ds.dropColumns("x");
    assertThat(dropped.version()).isEqualTo(3);
    assertThat(dropped.manifest().fragments()).hasSize(3);
    assertThat(dropped.manifest().fragments().get(2).files().get(0).fields()).contains(DataFile.TOMBSTONE);
    assertThat(DatasetApiTest.scanAll(dropped, 4096)).hasSize(2000);
    // Two schema changes from the same version: the second one conflicts.
    assertThatThrownBy(() -> appended.alterColumns(ColumnAlteration.of("s").rename("s2")))
        .isInstanceOf(CommitConflictException.class)
        .hasMessage("This Project (read version 2) conflicts with the Project committed as version 3: "
            + ds.location());
  }
}
